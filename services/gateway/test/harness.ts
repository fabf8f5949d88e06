import type { LightMyRequestResponse } from 'fastify';
import { UserCreate, type Role, type TokenScope, type User } from '@corridor/contracts';
import { parseConfig, type Clock } from '@corridor/platform';
import { TEST_IDENTITY_SECRET } from '@corridor/platform/testing/identity';
import { createTestAdapters, primaryKind, type AdapterKind, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import { build, GatewayConfig, type EmailChangedNotice, type GatewayService, type PasswordResetNotice } from '../src/index';

export const ADMIN = { email: 'admin@corridor.test', password: 'admin-password-1' };
export const basic = (email: string, password: string): string => 'Basic ' + Buffer.from(`${email}:${password}`).toString('base64');

/** A clock the test can move forward (token expiry, account expiry). */
class TestClock implements Clock {
  offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
}

export interface Harness {
  kind: AdapterKind;
  adapters: TestAdapters;
  gateway: GatewayService;
  config: GatewayConfig;
  clock: TestClock;
  /** Password-reset notices the gateway sent. */
  notices: PasswordResetNotice[];
  /** Notices to an account's old address after its email changed. */
  emailChanges: EmailChangedNotice[];
  close(): Promise<void>;
}

/**
 * The gateway on fresh test adapters (the primary kind: real PostgreSQL/Redis/Kafka where the
 * environment has them), with a cheap password hash cost and upstreams on a closed port unless
 * the test says otherwise.
 */
export async function startGateway(
  opts: { env?: Record<string, string>; kind?: AdapterKind; adapters?: TestAdapters } = {},
): Promise<Harness> {
  const kind = opts.kind ?? opts.adapters?.kind ?? (await primaryKind());
  const adapters = opts.adapters ?? (await createTestAdapters(kind));
  const closed = 'http://127.0.0.1:9';
  const config = parseConfig(GatewayConfig, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    INTERNAL_TOKEN_SECRET: TEST_IDENTITY_SECRET,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    PASSWORD_HASH_COST: '10',
    INGEST_URL: closed,
    JOURNEY_URL: closed,
    GEOFENCE_URL: closed,
    OPS_API_URL: closed,
    ...opts.env,
  });
  const clock = new TestClock();
  const notices: PasswordResetNotice[] = [];
  const emailChanges: EmailChangedNotice[] = [];
  const gateway = await build({
    ...adapters,
    clock,
    logger: adapters.logger,
    config,
    notifier: { passwordReset: async (n) => void notices.push(n), emailChanged: async (n) => void emailChanges.push(n) },
  });
  return {
    kind,
    adapters,
    gateway,
    config,
    clock,
    notices,
    emailChanges,
    async close() {
      await gateway.close();
      if (!opts.adapters) await adapters.close();
    },
  };
}

let seq = 0;
/** A user with the given roles (created through the users service, as an administrator would). */
export async function createUser(
  h: Harness,
  roles: Role[],
  companyId: number | null = null,
  extra: { email?: string; password?: string } = {},
): Promise<User & { plainPassword: string }> {
  seq += 1;
  const password = extra.password ?? `password-${seq}-${Math.random().toString(36).slice(2)}`;
  const user = await h.gateway.users.create(
    UserCreate.parse({
      name: `Test ${roles.join('+')} ${seq}`,
      email: extra.email ?? `u${seq}.${Date.now()}@corridor.test`,
      roles,
      companyId,
      password,
    }),
    { userId: null, email: 'test' },
  );
  return { ...user, plainPassword: password };
}

export async function tokenFor(h: Harness, userId: number, scope: TokenScope = 'full', expiration?: string): Promise<string> {
  return (await h.gateway.tokens.issue(userId, { scope, ...(expiration ? { expiration } : {}) }, { userId, email: null })).token;
}

/** The session cookie a response set, as a Cookie header value. */
export function sessionCookie(res: LightMyRequestResponse): string {
  const c = res.cookies.find((x) => x.name === 'corridor_session');
  if (!c?.value) throw new Error(`no session cookie in ${res.statusCode} ${res.body.slice(0, 200)}`);
  return `corridor_session=${c.value}`;
}

export async function login(h: Harness, email: string, password: string): Promise<string> {
  const res = await h.gateway.app.inject({ method: 'POST', url: '/api/session', payload: { email, password } });
  if (res.statusCode !== 200) throw new Error(`login ${email}: ${res.statusCode} ${res.body}`);
  return sessionCookie(res);
}
