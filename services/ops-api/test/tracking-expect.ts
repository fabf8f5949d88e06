import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

/** 400 VALIDATION_FAILED whose details name `field` (schema validation and service checks answer alike). */
export function expect400(res: LightMyRequestResponse, field: string): void {
  expect(res.statusCode, res.body).toBe(400);
  const body = res.json<{ error: { code: string; details?: { path?: string }[] } }>();
  expect(body.error.code).toBe('VALIDATION_FAILED');
  // details that are not a list of fields (a database refusal's request id) name no field: an assertion, not a crash
  const details: unknown = body.error.details;
  const paths = Array.isArray(details) ? (details as { path?: string }[]).map((d) => d.path ?? '') : [];
  expect(
    paths.some((p) => p === field || p.startsWith(field + '.')),
    `details ${JSON.stringify(details)} should name ${field}`,
  ).toBe(true);
}

export function expectError(res: LightMyRequestResponse, status: number, code: string): void {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json<{ error: { code: string } }>().error.code).toBe(code);
}
