import { UserCreate, type Role } from '@corridor/contracts';
import { build as buildGateway, GatewayConfig, type GatewayDeps, type GatewayService } from '@corridor/gateway';
import { build as buildGeofence, type GeofenceService } from '@corridor/geofence';
import { build as buildIngest, type IngestService } from '@corridor/ingest';
import { build as buildJourney, type JourneyService } from '@corridor/journey';
import { build as buildOpsApi, type OpsApiService } from '@corridor/ops-api';
import { parseConfig, type App } from '@corridor/platform';
import { eventually as waitEventually } from '@corridor/platform/testing/eventually';
import { TEST_IDENTITY_SECRET } from '@corridor/platform/testing/identity';
import { createTestAdapters, type AdapterKind, type TestAdapters } from '@corridor/platform/testing/test-adapters';

export const ADMIN = { email: 'admin@corridor.test', password: 'admin-password-1' };
const basic = (email: string, password: string): string => 'Basic ' + Buffer.from(`${email}:${password}`).toString('base64');
export const ADMIN_AUTH = basic(ADMIN.email, ADMIN.password);

/** An HTTP answer as inject gives it. */
export interface Res {
  statusCode: number;
  body: string;
  json<T = unknown>(): T;
}

export interface TestUser {
  id: number;
  roles: Role[];
  companyId: number | null;
  auth: string;
}

export interface TestStack {
  kind: AdapterKind;
  adapters: TestAdapters;
  gateway: GatewayService;
  ops: OpsApiService;
  ingest: IngestService;
  journey: JourneyService;
  geofence: GeofenceService;
  /** A request through the gateway (the one API), as `auth` (an Authorization header value). */
  call(auth: string | undefined, method: string, url: string, payload?: unknown): Promise<Res>;
  /** A user created through the API by the administrator; `auth` signs in as them (a bearer token). */
  user(roles: Role[], companyId: number | null): Promise<TestUser>;
  close(): Promise<void>;
}

const url = (a: App) => `http://127.0.0.1:${(a.server.address() as { port: number }).port}`;
let seq = 0;

/**
 * The five services built together on one set of test adapters, each on an ephemeral port, behind
 * the gateway, as `pnpm start` runs them (tools/stack/main.ts): every request goes through the
 * gateway's authentication and proxy to the real service. Consumers are started. `opts.ops` adds
 * to ops-api's dependencies (e.g. a short device status timeout).
 */
export async function startTestStack(
  kind: AdapterKind,
  opts: {
    ops?: Partial<Parameters<typeof buildOpsApi>[0]>;
    gateway?: Pick<GatewayDeps, 'notifier'>;
    gatewayEnv?: Record<string, string>;
  } = {},
): Promise<TestStack> {
  const adapters = await createTestAdapters(kind);
  const common = { ...adapters, identitySecret: TEST_IDENTITY_SECRET, logger: adapters.logger };
  const journey = await buildJourney(common, { sweepIntervalMs: 0 });
  await journey.app.listen({ host: '127.0.0.1', port: 0 });
  const geofence = await buildGeofence(common);
  await geofence.app.listen({ host: '127.0.0.1', port: 0 });
  const ops = await buildOpsApi({ ...common, journeyUrl: url(journey.app), geofenceUrl: url(geofence.app), ...opts.ops });
  const ingest = await buildIngest(common);
  for (const a of [ops.app, ingest.app]) await a.listen({ host: '127.0.0.1', port: 0 });
  const config = parseConfig(GatewayConfig, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    INTERNAL_TOKEN_SECRET: TEST_IDENTITY_SECRET,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    PASSWORD_HASH_COST: '10',
    RATE_LIMIT_IP_MAX: '1000000',
    RATE_LIMIT_USER_MAX: '1000000',
    OPS_API_URL: url(ops.app),
    INGEST_URL: url(ingest.app),
    JOURNEY_URL: url(journey.app),
    GEOFENCE_URL: url(geofence.app),
    ...opts.gatewayEnv,
  });
  const gateway = await buildGateway({ ...adapters, logger: adapters.logger, config, ...opts.gateway });
  await Promise.all([ops.start(), ingest.start(), journey.start(), geofence.start(), gateway.start()]);

  const call: TestStack['call'] = (auth, method, path, payload) =>
    gateway.app.inject({
      method: method.toUpperCase() as 'GET',
      url: path,
      headers: auth ? { authorization: auth } : {},
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  return {
    kind,
    adapters,
    gateway,
    ops,
    ingest,
    journey,
    geofence,
    call,
    async user(roles, companyId) {
      seq += 1;
      const password = `password-${seq}-${Math.random().toString(36).slice(2)}`;
      const body = UserCreate.parse({
        name: `${roles.join('+')} ${seq}`,
        email: `u${seq}.${Date.now()}@corridor.test`,
        roles,
        companyId,
        password,
      });
      const res = await call(ADMIN_AUTH, 'POST', '/api/users', body);
      if (res.statusCode !== 200) throw new Error(`user not created: ${res.statusCode} ${res.body}`);
      const id = res.json<{ id: number }>().id;
      const token = await gateway.tokens.issue(id, { scope: 'full' }, { userId: id, email: null });
      return { id, roles, companyId, auth: `Bearer ${token.token}` };
    },
    async close() {
      await gateway.close();
      for (const s of [ingest, geofence, ops, journey]) await s.close().catch(() => undefined);
      await adapters.close();
    },
  };
}

/**
 * The stack tests' wait: the shared `eventually` with a ceiling for the whole stack on a busy machine
 * (these tests allow 60 s or more each). A ceiling, not a measure.
 */
export const eventually = <T>(
  what: string,
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  ceilingMs = 45_000,
): Promise<T> => waitEventually(what, probe, ceilingMs);
