import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { Admin } from '@platformatic/kafka';
import type { Adapters } from '../adapters/index';
import { systemClock } from '../adapters/index';
import { MemoryBus } from '../adapters/bus-memory';
import { KafkaBus } from '../adapters/bus-kafka';
import { MemoryCache } from '../adapters/cache-memory';
import { RedisCache } from '../adapters/cache-redis';
import { createPgliteDb } from '../adapters/db-pglite';
import { createPgDb } from '../adapters/db-pg';
import { createClickHouseAnalytics } from '../adapters/clickhouse';
import type { Analytics } from '../adapters/analytics';
import type { Bus } from '../adapters/bus';
import { migrateAnalytics } from '../clickhouse/migrate';
import { allTopics, compactedTopics } from '@corridor/contracts';
import { createLogger, type Logger } from '../logger';
import { inCI, realPart } from './real-parts';

export type AdapterKind = 'embedded' | 'real';

export interface TestAdapters extends Adapters {
  kind: AdapterKind;
  logger: Logger;
  /** Namespace of this instance (topic/group prefix, key prefix, database name). */
  namespace: string;
}

/**
 * The adapter sets a service test may run on: 'embedded' always, 'real' when the environment
 * provides Kafka, PostgreSQL and Redis (always in CI, where a missing part fails the run).
 * ClickHouse is chDB in both unless CLICKHOUSE_URL is set.
 */
export async function adapterKinds(): Promise<AdapterKind[]> {
  const [k, p, r] = await Promise.all([realPart('kafka'), realPart('postgres'), realPart('redis')]);
  return k && p && r ? ['embedded', 'real'] : ['embedded'];
}

/** 'real' when the environment has the real parts (always in CI), else 'embedded'. */
export async function primaryKind(): Promise<AdapterKind> {
  const kinds = await adapterKinds();
  return kinds.includes('real') ? 'real' : 'embedded';
}

let chdbShared: Promise<Analytics> | undefined;

/**
 * An empty analytics database of its own (CLICKHOUSE_URL's server, else the process's chDB), not
 * migrated: what a new installation is before its migrate step.
 */
export async function emptyTestAnalytics(ns: string): Promise<Analytics> {
  const ch = await realPart('clickhouse');
  if (ch) {
    const u = new URL(ch.url);
    return createClickHouseAnalytics({
      url: `${u.protocol}//${u.host}`,
      username: decodeURIComponent(u.username || 'default'),
      password: decodeURIComponent(u.password),
      database: ns,
      createDatabase: true,
    });
  }
  // chDB binds one directory per process: every test adapters set of this process shares the
  // engine, each in a database of its own (queries name their tables with the database)
  chdbShared ??= import('../adapters/clickhouse-chdb').then((m) => m.createChdbAnalytics({ path: ':memory:', database: 'corridor_test' }));
  const shared = await chdbShared;
  await shared.client.command({ query: `CREATE DATABASE IF NOT EXISTS ${ns}` });
  return { ...shared, database: ns, close: async () => undefined };
}

/** A database of its own with the migrations applied, as the migrate step leaves it. */
export async function testAnalytics(ns: string): Promise<Analytics> {
  const analytics = await emptyTestAnalytics(ns);
  await migrateAnalytics(analytics);
  return analytics;
}

/** What a real bus is made from (the broker list, the namespace, which is also the client id). */
export interface TestBusOptions {
  brokers: string[];
  clientId: string;
  logger: Logger;
  namespace: string;
}

export interface TestAdaptersOptions {
  logLevel?: string;
  /**
   * Makes the real bus (default: the KafkaBus). The benchmarks compare the bus with another Kafka
   * client's through it (tools/bench/kafkajs), which no package other than the bench may import.
   */
  kafkaBus?: (opts: TestBusOptions) => Bus;
}

/** A fresh, isolated set of adapters for one test file (own database, topics, key prefix). */
export async function createTestAdapters(kind: AdapterKind, opts: TestAdaptersOptions = {}): Promise<TestAdapters> {
  const namespace = `t${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const logger = createLogger('test', opts.logLevel ?? process.env.TEST_LOG_LEVEL ?? 'fatal');
  const analytics = await testAnalytics(namespace);
  if (kind === 'embedded') {
    const bus = new MemoryBus(4, 50);
    await bus.ensureTopics(allTopics.map((name) => ({ name, compacted: compactedTopics.includes(name) })));
    const db = await createPgliteDb();
    const cache = new MemoryCache();
    return {
      kind,
      logger,
      namespace,
      bus,
      db,
      analytics,
      cache,
      clock: systemClock,
      async close() {
        await bus.close();
        await Promise.allSettled([db.close(), cache.close(), analytics.close()]);
      },
    };
  }
  const [kafka, postgres, redis] = await Promise.all([realPart('kafka'), realPart('postgres'), realPart('redis')]);
  if (!kafka || !postgres || !redis) {
    if (inCI()) throw new Error('CI=true but a real part is missing (KAFKA_BROKERS, DATABASE_URL, REDIS_URL)');
    throw new Error('real adapters requested but this environment has none: use adapterKinds()');
  }
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${namespace}`);
  await admin.end();
  const dbUrl = new URL(postgres.url);
  dbUrl.pathname = `/${namespace}`;
  const db = createPgDb(dbUrl.toString(), { max: 5 });
  const busOptions = { brokers: kafka.url.split(','), clientId: namespace, logger, namespace };
  const bus = opts.kafkaBus ? opts.kafkaBus(busOptions) : new KafkaBus(busOptions);
  await bus.ensureTopics(allTopics.map((name) => ({ name, compacted: compactedTopics.includes(name) })));
  const cache = new RedisCache(redis.url, { keyPrefix: `${namespace}:` });
  return {
    kind,
    logger,
    namespace,
    bus,
    db,
    analytics,
    cache,
    clock: systemClock,
    async close() {
      await bus.close();
      await Promise.allSettled([db.close(), cache.close(), analytics.close()]);
      const a = new pg.Client({ connectionString: postgres.url });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${namespace} WITH (FORCE)`).catch(() => undefined);
      await a.end();
      await deleteNamespaceTopics(kafka.url.split(','), namespace).catch((err: unknown) =>
        logger.warn({ err }, 'could not delete the test topics'),
      );
    },
  };
}

/**
 * Deletes the topics of one test namespace, so a shared broker does not collect thousands of
 * partitions over many runs (its start-up time grows with them).
 */
async function deleteNamespaceTopics(brokers: string[], namespace: string): Promise<void> {
  const admin = new Admin({ clientId: `${namespace}-cleanup`, bootstrapBrokers: brokers, retries: 2 });
  try {
    const topics = (await admin.listTopics()).filter((t) => t.startsWith(`${namespace}.`));
    if (topics.length) await admin.deleteTopics({ topics });
  } finally {
    await admin.close();
  }
}
