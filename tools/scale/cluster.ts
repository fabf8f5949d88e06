import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { Admin } from '@platformatic/kafka';
import { topicPlan } from '@corridor/contracts';
import { createClickHouseAnalytics, createLogger, createPgDb, KafkaBus, migrateAnalytics, type Analytics } from '@corridor/platform';
import { startChdbHttp, type ChdbHttpServer } from '@corridor/platform/testing/chdb-http';
import { DedicatedKafka, kafkaLibsDir } from '@corridor/platform/testing/dedicated-kafka';
import { freePort } from '@corridor/platform/testing/free-port';
import { IngestConfig } from '@corridor/ingest/config';
import { REPO, ServiceProcess, type ServiceName } from './service-process';
import { until } from './until';
import { createDatabase, dropDatabase } from './own-database';

/** Every device port variable of ingest but GT06's (the trackers' protocol here): 0 leaves the port closed. */
const OTHER_DEVICE_PORTS = Object.keys(IngestConfig.shape).filter(
  (k) => /^[A-Z0-9]+_PORT$/.test(k) && k !== 'GT06_PORT' && k !== 'OSMAND_PORT',
);

/**
 * The platform as separate processes on this machine, the way a cluster runs it: each service
 * instance its own process (services/<name>/src/main.ts) with its own ports, all sharing
 *  - a Kafka broker of this run's own (never the shared one other test runs use), topics created
 *    as packages/contracts lays them out (positions.v1 at 12 partitions);
 *  - PostgreSQL and Redis from the environment (DATABASE_URL, REDIS_URL), in a database and under a
 *    key prefix of this run's own;
 *  - one analytics store: a ClickHouse HTTP endpoint served by chDB in the orchestrating process
 *    (packages/platform/src/testing/chdb-http.ts), given to every service as CLICKHOUSE_URL, so the
 *    services take the same path as against a ClickHouse server (no server binary can be had here).
 */
export interface ClusterOptions {
  /** gateway: how many gateway processes (default 1); the first serves the API calls, the others share its sessions. */
  instances: { ingest: number; journey: number; geofence: number; gateway?: number };
  logLevel?: string;
}

export interface ScaleCluster {
  dir: string;
  broker: DedicatedKafka;
  admin: Admin;
  analytics: Analytics;
  processes: ServiceProcess[];
  /** The first gateway (the API calls go through it). */
  gateway: ServiceProcess;
  /** Every gateway process, the first one first. */
  gateways: ServiceProcess[];
  /** The GT06 port of each ingest instance, by process name. */
  gt06Ports: Map<string, number>;
  adminAuth: string;
  adminLogin: { email: string; password: string };
  byName(name: string): ServiceProcess;
  /** A crashed process (one not killed on purpose), with its log tail. */
  failure(): string | undefined;
  /** Stops everything and deletes the run's directory (its logs too, unless keepLogs). */
  close(opts?: { keepLogs?: boolean }): Promise<void>;
}

async function deleteKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

export async function startScaleCluster(opts: ClusterOptions): Promise<ScaleCluster> {
  const { DATABASE_URL, REDIS_URL } = process.env;
  if (!DATABASE_URL || !REDIS_URL)
    throw new Error('the multi-instance run needs DATABASE_URL and REDIS_URL (eval "$(tools/dev-services env)")');
  const id = `scale_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
  const dir = mkdtempSync(join(tmpdir(), 'corridor-scale-'));
  mkdirSync(join(dir, 'logs'));
  const cleanups: (() => Promise<void>)[] = [];
  const processes: ServiceProcess[] = [];
  let admin: Admin | undefined;
  let analytics: Analytics | undefined;

  const closeAll = async (): Promise<void> => {
    await Promise.allSettled(processes.map((p) => p.kill('SIGTERM')));
    await analytics?.close().catch(() => undefined);
    await admin?.close().catch(() => undefined);
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
  };

  try {
    // the broker (a JVM start, the longest step) and the stores (chDB, PostgreSQL, their migrations)
    // are made side by side; every part made is cleaned up, even when the other side failed
    const [brokerMade, storesMade] = await Promise.allSettled([
      (async () => {
        const broker = await DedicatedKafka.create(kafkaLibsDir());
        cleanups.push(() => broker.cleanup());
        // the topics as the contracts lay them out, before any service starts (services create only missing ones)
        const bus = new KafkaBus({ brokers: broker.brokers, clientId: `${id}-setup`, logger: createLogger('scale', 'error') });
        await bus.ensureTopics(
          topicPlan.map((t) => ({ name: t.name, partitions: t.partitions, compacted: t.compacted, retentionMs: t.retentionMs })),
        );
        await bus.close();
        admin = new Admin({ clientId: `${id}-observer`, bootstrapBrokers: broker.brokers, retries: 3 });
        // a created topic is served once every partition has a leader: a service subscribing before
        // that fails its start ("This server does not host this topic-partition")
        const observer = admin;
        await until(
          'every planned topic served with a leader for each partition',
          async () => {
            const meta = await observer.metadata({ topics: topicPlan.map((t) => t.name), forceUpdate: true }).catch(() => undefined);
            return (
              !!meta &&
              topicPlan.every((t) => {
                const parts = meta.topics.get(t.name)?.partitions ?? [];
                return parts.length === t.partitions && parts.every((p) => p.leader >= 0);
              })
            );
          },
          300_000,
          250,
        );
        return { broker, admin: observer };
      })(),
      (async () => {
        const chdb: ChdbHttpServer = await startChdbHttp({ path: join(dir, 'chdb') });
        cleanups.push(() => chdb.close());
        const databaseUrl = await createDatabase(DATABASE_URL, id);
        cleanups.push(() => dropDatabase(DATABASE_URL, id));
        cleanups.push(() => deleteKeys(REDIS_URL, `${id}:`));
        const store = await createClickHouseAnalytics({
          url: chdb.url,
          username: 'default',
          password: '',
          database: id,
          createDatabase: true,
        });
        analytics = store;
        // the migrate step, before any service starts: the services run with NODE_ENV=production, so they
        // refuse a ClickHouse or PostgreSQL schema behind theirs and never change it themselves
        await migrateAnalytics(store);
        const migrator = createPgDb(databaseUrl, { max: 2 }); // the advisory lock holds one connection, the migrations run on another
        try {
          for (const service of ['gateway', 'journey', 'geofence', 'ops-api'] as const)
            await migrator.migrate(join(REPO, 'services', service, 'drizzle'), service);
        } finally {
          await migrator.close();
        }
        return { chdb, databaseUrl, analytics: store };
      })(),
    ]);
    if (brokerMade.status === 'rejected') throw brokerMade.reason;
    if (storesMade.status === 'rejected') throw storesMade.reason;
    const { broker, admin: observer } = brokerMade.value;
    const { chdb, databaseUrl, analytics: store } = storesMade.value;

    const adminPassword = randomBytes(18).toString('base64url');
    const common: Record<string, string> = {
      NODE_ENV: 'production',
      LOG_LEVEL: opts.logLevel ?? 'warn',
      HOST: '127.0.0.1',
      DATA_DIR: join(dir, 'data'),
      KAFKA_BROKERS: broker.brokers.join(','),
      DATABASE_URL: databaseUrl,
      REDIS_URL,
      REDIS_KEY_PREFIX: `${id}:`,
      CLICKHOUSE_URL: chdb.url,
      CLICKHOUSE_DATABASE: id,
      INTERNAL_TOKEN_SECRET: randomBytes(36).toString('base64url'),
    };
    const ports = new Map<string, number>();
    const add = async (service: ServiceName, n: number, extra: Record<string, string> = {}): Promise<ServiceProcess> => {
      const name = `${service}-${n}`;
      const port = await freePort();
      ports.set(name, port);
      // each process its own /metrics port (every service listens for /metrics apart from its API)
      const env = { ...common, KAFKA_CLIENT_ID: name, DATA_DIR: join(dir, 'data', name), METRICS_PORT: String(await freePort()), ...extra };
      const p = new ServiceProcess(name, service, port, env, join(dir, 'logs', `${name}.log`));
      processes.push(p);
      return p;
    };
    const gt06Ports = new Map<string, number>();
    const journeys: ServiceProcess[] = [];
    for (let n = 1; n <= opts.instances.journey; n++) journeys.push(await add('journey', n, { JOURNEY_SWEEP_INTERVAL_S: '0' }));
    for (let n = 1; n <= opts.instances.ingest; n++) {
      const gt06 = await freePort();
      gt06Ports.set(`ingest-${n}`, gt06);
      // only the GT06 server (the trackers' protocol here); every other device port disabled, OsmAnd on any free port
      await add('ingest', n, {
        GT06_PORT: String(gt06),
        OSMAND_PORT: '0',
        // one ingest thread per process: the run is about instances (processes killed and started,
        // group members counted per instance); several threads in one process are ingest-threads.test.ts's
        INGEST_THREADS: '1',
        ...Object.fromEntries(OTHER_DEVICE_PORTS.map((v) => [v, '0'])),
      });
    }
    for (let n = 1; n <= opts.instances.geofence; n++) await add('geofence', n);
    // the API reaches the first instance of each service (a Kubernetes Service would spread it)
    const journeyUrl = journeys[0]!.url;
    await add('ops-api', 1, { JOURNEY_URL: journeyUrl });
    // every gateway shares the cookie secret and the Redis prefix (sessions live in Redis);
    // the keepalive is short so a test can use it as a barrier in the socket's frame order
    const cookieSecret = randomBytes(36).toString('base64url');
    const gateways: ServiceProcess[] = [];
    for (let n = 1; n <= (opts.instances.gateway ?? 1); n++) {
      gateways.push(
        await add('gateway', n, {
          INGEST_URL: `http://127.0.0.1:${ports.get('ingest-1')}`,
          JOURNEY_URL: journeyUrl,
          GEOFENCE_URL: `http://127.0.0.1:${ports.get('geofence-1')}`,
          OPS_API_URL: `http://127.0.0.1:${ports.get('ops-api-1')}`,
          ADMIN_EMAIL: 'admin@scale.corridor.test',
          ADMIN_PASSWORD: adminPassword,
          COOKIE_SECRET: cookieSecret,
          SOCKET_KEEPALIVE_MS: '1000',
          PASSWORD_HASH_COST: '10',
          RATE_LIMIT_IP_MAX: '10000000',
          RATE_LIMIT_USER_MAX: '10000000',
        }),
      );
    }
    const gateway = gateways[0]!;
    await Promise.all(processes.map((p) => p.startUntilReady()));

    const cluster: ScaleCluster = {
      dir,
      broker,
      admin: observer,
      analytics: store,
      processes,
      gateway,
      gateways,
      gt06Ports,
      adminAuth: 'Basic ' + Buffer.from(`admin@scale.corridor.test:${adminPassword}`).toString('base64'),
      adminLogin: { email: 'admin@scale.corridor.test', password: adminPassword },
      byName(name) {
        const p = processes.find((x) => x.name === name);
        if (!p) throw new Error(`no process ${name}`);
        return p;
      },
      failure: () => processes.map((p) => p.failure()).find(Boolean),
      async close(o = {}) {
        await closeAll();
        if (o.keepLogs) rmSync(join(dir, 'chdb'), { recursive: true, force: true });
        else rmSync(dir, { recursive: true, force: true });
      },
    };
    return cluster;
  } catch (err) {
    const tails = processes
      .filter((p) => !p.running || p.failure())
      .map((p) => p.tail(8))
      .join('\n');
    await closeAll();
    throw new Error(`${err instanceof Error ? err.message : String(err)}${tails ? `\n${tails}` : ''}\n(logs kept in ${dir})`);
  }
}
