import type { LightMyRequestResponse } from 'fastify';
import { asUser, TEST_IDENTITY_SECRET, testUsers } from '@corridor/platform/testing/identity';
import { publishUsers } from '@corridor/platform/testing/registry';
import { createTestAdapters, primaryKind, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import type { Identity } from '@corridor/platform';
import { build, type OpsApiDeps, type OpsApiService } from '../src/app';

/** One built ops-api per test file, on the primary adapters (real PostgreSQL, Kafka, Redis in CI). */
export interface Harness {
  adapters: TestAdapters;
  svc: OpsApiService;
  call(
    user: Identity,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
  ): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export async function startHarness(extra: Partial<OpsApiDeps> = {}): Promise<Harness> {
  const adapters = await createTestAdapters(await primaryKind());
  const svc = await build({ ...adapters, logger: adapters.logger, identitySecret: TEST_IDENTITY_SECRET, ...extra });
  // the users the tests act as, as the gateway publishes them (notification recipients are checked against them)
  await publishUsers(adapters.cache, [
    ...Object.values(testUsers).map((u) => ({ id: u.userId, companyId: u.companyId, email: u.email })),
    ...[101, 202].map((c) => ({ id: dispatcherOf(c).userId, companyId: c, email: dispatcherOf(c).email })),
    { id: 9, companyId: 101, email: 'night@company-a.test', language: 'sw' }, // a second company-A user the notification tests name as a recipient
  ]);
  return {
    adapters,
    svc,
    async call(user, method, url, payload) {
      return svc.app.inject({ method, url, headers: await asUser(user), ...(payload === undefined ? {} : { payload: payload as never }) });
    },
    async close() {
      await svc.close();
      await adapters.close();
    },
  };
}

/** A company dispatcher (the test identities' dispatcher has no company). */
export const dispatcherOf = (companyId: number, userId = 40 + companyId): Identity => ({
  userId,
  email: `dispatcher${companyId}@company.test`,
  name: 'Dispatcher',
  roles: ['dispatcher'],
  companyId,
});
