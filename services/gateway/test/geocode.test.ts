import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, startGateway, tokenFor, type Harness } from './harness';

/**
 * GET /api/server/geocode as Traccar's clients call it: signed in, latitude and longitude in the
 * query, the address as text. The offline geocoder (no GEOCODER_URL) answers; its answers are
 * hand-checked in packages/geodata/src/reverse-geocoder.test.ts. No ids, so no company to check.
 */
let h: Harness;
let dispatcher: { authorization: string };
const inject = (opts: InjectOptions) => h.gateway.app.inject(opts);

beforeAll(async () => {
  h = await startGateway();
  dispatcher = { authorization: `Bearer ${await tokenFor(h, (await createUser(h, ['dispatcher'], 101)).id)}` };
}, 120_000);
afterAll(async () => {
  await h?.close();
});

describe('GET /api/server/geocode', () => {
  it('answers the address as text to a signed-in user', async () => {
    const res = await inject({ method: 'GET', url: '/api/server/geocode?latitude=-3.31&longitude=38.47', headers: dispatcher });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toBe('14 km NW of Voi, KE');
    const sea = await inject({ method: 'GET', url: '/api/server/geocode?latitude=-4.1&longitude=39.75', headers: dispatcher });
    expect(sea.body).toBe('at sea, 11 km SE of Mombasa, KE');
  });

  it('asks who is calling first (401)', async () => {
    const res = await inject({ method: 'GET', url: '/api/server/geocode?latitude=-3.31&longitude=38.47' });
    expect(res.statusCode).toBe(401);
  });

  it.each([
    ['latitude=-3.31', 'longitude', 'longitude must be a number of decimal degrees'],
    ['latitude=north&longitude=38.47', 'latitude', 'latitude must be a number of decimal degrees'],
    ['latitude=91&longitude=38.47', 'latitude', 'latitude must be from -90 to 90'],
    ['latitude=-3.31&longitude=-180.5', 'longitude', 'longitude must be from -180 to 180'],
  ])('refuses %s with 400 naming the field', async (query, field, message) => {
    const res = await inject({ method: 'GET', url: `/api/server/geocode?${query}`, headers: dispatcher });
    expect(res.statusCode).toBe(400);
    const body = res.json<{ error: { code: string; message: string; details?: unknown } }>();
    expect(body.error.code).toBe('VALIDATION_FAILED');
    expect(JSON.stringify(body.error)).toContain(field);
    expect(JSON.stringify(body.error)).toContain(message);
  });
});
