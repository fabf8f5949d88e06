/**
 * The bus a Kafka benchmark process runs on, from BUS_CLIENT (set by suites/kafka-clients.ts in its
 * child processes): `kafkajs` the anchor of before (kafkajs/bus-kafkajs.ts), anything else the
 * KafkaBus of packages/platform. `platformatic1` is the KafkaBus too, on @platformatic/kafka 1.x:
 * the child then runs with kafka-1x-hooks.ts, which hands the bus the 1.x package.
 */
import { KafkaBus, type Bus, type Logger } from '@corridor/platform';

export type BusClient = 'kafkajs' | 'platformatic1' | 'platformatic2';

export interface BenchBusOptions {
  brokers: string[];
  clientId: string;
  logger: Logger;
  namespace?: string;
}

const busClient = (): BusClient => {
  const c = process.env.BUS_CLIENT ?? 'platformatic2';
  if (c !== 'kafkajs' && c !== 'platformatic1' && c !== 'platformatic2')
    throw new Error(`BUS_CLIENT ${c}: kafkajs, platformatic1 or platformatic2`);
  return c;
};

export async function benchBus(options: BenchBusOptions): Promise<Bus> {
  if (busClient() === 'kafkajs') return new (await import('./kafkajs/bus-kafkajs')).KafkajsBus(options);
  return new KafkaBus(options);
}
