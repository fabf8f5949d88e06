import { randomUUID } from 'node:crypto';
import { createLogger } from '../src/logger';
import type { Bus } from '../src/adapters/bus';
import type { Cache } from '../src/adapters/cache';
import type { Db } from '../src/adapters/db';
import type { Analytics } from '../src/adapters/analytics';
import { MemoryBus } from '../src/adapters/bus-memory';
import { KafkaBus } from '../src/adapters/bus-kafka';
import { MemoryCache } from '../src/adapters/cache-memory';
import { RedisCache } from '../src/adapters/cache-redis';
import { createPgliteDb } from '../src/adapters/db-pglite';
import { createPgDb } from '../src/adapters/db-pg';
import { createChdbAnalytics } from '../src/adapters/clickhouse-chdb';
import { createClickHouseAnalytics } from '../src/adapters/clickhouse';
import { realPart } from '../src/testing/real-parts';

export interface Variant<T> {
  name: string;
  create(): Promise<T>;
}

const quiet = createLogger('test', 'warn');
export const uniqueName = (prefix: string): string => `${prefix}_${randomUUID().slice(0, 8)}`;

/** Every Bus implementation this environment provides (see real-parts.ts for the CI rule). */
export async function busVariants(): Promise<Variant<Bus>[]> {
  const v: Variant<Bus>[] = [{ name: 'memory', create: async () => new MemoryBus(4, 20) }];
  const kafka = await realPart('kafka');
  if (kafka)
    v.push({
      name: 'kafka',
      create: async () => new KafkaBus({ brokers: kafka.url.split(','), clientId: uniqueName('test'), logger: quiet }),
    });
  return v;
}

export async function cacheVariants(): Promise<Variant<Cache>[]> {
  const v: Variant<Cache>[] = [{ name: 'memory', create: async () => new MemoryCache() }];
  const redis = await realPart('redis');
  if (redis) v.push({ name: 'redis', create: async () => new RedisCache(redis.url) });
  return v;
}

export async function dbVariants(): Promise<Variant<Db>[]> {
  const v: Variant<Db>[] = [{ name: 'pglite', create: () => createPgliteDb() }];
  const pg = await realPart('postgres');
  if (pg) v.push({ name: 'pg', create: async () => createPgDb(pg.url) });
  return v;
}

export async function analyticsVariants(database: string): Promise<Variant<Analytics>[]> {
  const v: Variant<Analytics>[] = [{ name: 'chdb', create: () => createChdbAnalytics({ path: ':memory:', database }) }];
  const ch = await realPart('clickhouse');
  if (ch) {
    const u = new URL(ch.url);
    const url = `${u.protocol}//${u.host}`;
    v.push({
      name: 'clickhouse',
      create: () =>
        createClickHouseAnalytics({
          url,
          username: decodeURIComponent(u.username || 'default'),
          password: decodeURIComponent(u.password),
          database,
          createDatabase: true,
        }),
    });
  }
  return v;
}
