import { join } from 'node:path';
import { topicPlan, topicsOf, type ServiceName } from '@corridor/contracts';
import { schemaChangesFor, type BaseEnv } from '../config';
import type { Logger } from '../logger';
import type { Analytics } from './analytics';
import type { Bus } from './bus';
import type { Cache } from './cache';
import type { Db } from './db';
import { KafkaBus } from './bus-kafka';
import { MemoryBus } from './bus-memory';
import { createPgDb } from './db-pg';
import { createPgliteDb } from './db-pglite';
import { createClickHouseAnalytics } from './clickhouse';
import { RedisCache } from './cache-redis';
import { MemoryCache } from './cache-memory';
import { kafkaSecurity, redisTarget } from './store-connections';
import { migrateAnalytics } from '../clickhouse/migrate';

export type { Analytics, Bus, Cache, Db };
export * from './bus';
export * from './cache';
export * from './db';
export { MemoryBus, MemoryCache };
export { serveBridge, bridgedParts, absentDb, BridgedBus, BridgedCache, type BridgeSending, type BridgeOptions } from './thread-bridge';

export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };

/** What every service's build(deps) receives. */
export interface Adapters {
  bus: Bus;
  db: Db;
  analytics: Analytics;
  cache: Cache;
  clock: Clock;
  close(): Promise<void>;
}

export interface AdapterChoice {
  /** chDB and PGlite data under this folder; undefined = in memory (tests). */
  dataDir?: string;
  /** The service this process is: only the topics it uses (packages/contracts topicUsage) are ensured at start; default every planned topic. */
  service?: ServiceName;
}

/**
 * chDB, the embedded analytics store, migrated by the process that opens it: chDB binds its data
 * directory to one process, so that process is the migrate step (`pnpm start`, a service run alone
 * without CLICKHOUSE_URL). A ClickHouse server is migrated by the migrate step only.
 */
async function embeddedAnalytics(env: BaseEnv, dataDir: string | undefined, logger: Logger): Promise<Analytics> {
  const analytics = await (
    await import('./clickhouse-chdb')
  ).createChdbAnalytics({ path: dataDir ? join(dataDir, 'chdb') : ':memory:', database: env.CLICKHOUSE_DATABASE });
  const { applied } = await migrateAnalytics(analytics, { rawFrameTtlDays: env.RAW_FRAME_TTL_DAYS });
  if (applied.length) logger.info({ applied }, 'analytics migrations applied (embedded store)');
  return analytics;
}

/** Chooses each adapter from config: a URL set = the real part, none = the embedded default. */
export async function createAdapters(env: BaseEnv, logger: Logger, choice: AdapterChoice = { dataDir: env.DATA_DIR }): Promise<Adapters> {
  const bus: Bus = env.KAFKA_BROKERS
    ? new KafkaBus({
        brokers: env.KAFKA_BROKERS.split(','),
        clientId: env.KAFKA_CLIENT_ID,
        logger,
        maxReadyLag: env.CONSUMER_MAX_READY_LAG,
        sendsInFlight: env.KAFKA_SENDS_IN_FLIGHT,
        security: kafkaSecurity(env),
        ...(env.KAFKA_NAMESPACE ? { namespace: env.KAFKA_NAMESPACE } : {}),
      })
    : new MemoryBus(undefined, undefined, logger.child({ component: 'memory-bus' }), env.CONSUMER_MAX_READY_LAG);
  const db: Db = env.DATABASE_URL
    ? createPgDb(env.DATABASE_URL, { schemaChanges: schemaChangesFor(env) })
    : await createPgliteDb(choice.dataDir ? join(choice.dataDir, 'pglite') : undefined, { sharedBuffersMb: env.PGLITE_SHARED_BUFFERS_MB });
  const analytics: Analytics = env.CLICKHOUSE_URL
    ? await createClickHouseAnalytics({
        url: env.CLICKHOUSE_URL,
        username: env.CLICKHOUSE_USER,
        password: env.CLICKHOUSE_PASSWORD,
        database: env.CLICKHOUSE_DATABASE,
        cluster: env.CLICKHOUSE_CLUSTER,
      })
    : await embeddedAnalytics(env, choice.dataDir, logger);
  const redis = redisTarget(env);
  const cache: Cache = redis ? new RedisCache(redis, env.REDIS_KEY_PREFIX ? { keyPrefix: env.REDIS_KEY_PREFIX } : {}) : new MemoryCache();
  logger.info({ bus: bus.kind, db: db.kind, analytics: analytics.kind, cache: cache.kind }, 'adapters chosen');
  // missing topics are created as the plan lays them out (partitions, retention); existing ones are left as they are.
  // A service ensures only its own: with least-privilege ACLs it cannot even see the others (deploy/k8s/stores/kafka/users.yaml)
  const mine = choice.service ? new Set(topicsOf(choice.service)) : undefined;
  await bus.ensureTopics(
    topicPlan
      .filter((t) => !mine || mine.has(t.name))
      .map((t) => ({ name: t.name, partitions: t.partitions, compacted: t.compacted, retentionMs: t.retentionMs })),
  );
  return {
    bus,
    db,
    analytics,
    cache,
    clock: systemClock,
    async close() {
      await Promise.allSettled([bus.close(), cache.close()]);
      await Promise.allSettled([db.close(), analytics.close()]);
    },
  };
}
