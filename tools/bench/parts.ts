import { loadavg } from 'node:os';
import type { Adapters } from '@corridor/platform';
import { adapterKinds, createTestAdapters, type AdapterKind, type TestAdapters } from '@corridor/platform/testing/test-adapters';

/**
 * The parts a benchmark runs on: the real ones the environment names (KAFKA_BROKERS, DATABASE_URL,
 * REDIS_URL, and CLICKHOUSE_URL, else chDB), namespaced like the tests' so a run on the shared
 * parts touches nothing else, or the embedded ones. Every suite that uses adapters takes them from
 * here and says which in its figures (`parts`).
 */
export async function benchKinds(): Promise<AdapterKind[]> {
  return adapterKinds();
}

/** Real parts when the environment has them, else embedded. */
export async function primaryBenchKind(): Promise<AdapterKind> {
  return (await benchKinds()).includes('real') ? 'real' : 'embedded';
}

/**
 * BUS_CLIENT=kafkajs (set by kafka-clients.ts in its child processes, see bench-bus.ts): the real
 * bus is the kafkajs anchor (kafkajs/bus-kafkajs.ts) instead of the KafkaBus on @platformatic/kafka.
 */
export async function benchAdapters(kind: AdapterKind): Promise<TestAdapters> {
  const kafkaBus = process.env.BUS_CLIENT === 'kafkajs' ? (await import('./kafkajs/bus-kafkajs')).kafkajsBus : undefined;
  return createTestAdapters(kind, { logLevel: 'error', ...(kafkaBus ? { kafkaBus } : {}) });
}

/** `bus=kafka db=pg cache=redis analytics=chdb` */
export function partsOf(a: Pick<Adapters, 'bus' | 'db' | 'cache' | 'analytics'>): string {
  const client = (a.bus as { client?: string }).client;
  return `bus=${a.bus.kind}${client ? `(${client})` : ''} db=${a.db.kind} cache=${a.cache.kind} analytics=${a.analytics.kind}`;
}

/** The 1-minute load average now, two decimals (other work shares the machine: compare ratios within one run). */
export const load1m = (): number => Math.round((loadavg()[0] ?? 0) * 100) / 100;
