/**
 * The producer and consumer round of suites/kafka-clients.ts, in a process of its own per client
 * (`node --import tsx kafka-micro.ts`, BUS_CLIENT as bench-bus.ts reads it, MICRO_BROKERS,
 * MICRO_NAMESPACE): a fresh heap and compiler for each client, and the 1.x line of
 * @platformatic/kafka through kafka-1x-hooks.ts. Prints `KAFKA_MICRO <json>`.
 *
 * 1. produce: MESSAGES position-sized JSON messages keyed over 1,000 devices, PER_PUBLISH per publish
 *    from PUBLISHERS concurrent callers (acks=all, idempotent): messages/s, publish latency p50/p99
 *    (call to acknowledgement), messages per CPU-second of this process;
 * 2. consume with a commit after each round of handler calls: a new group reads those messages from
 *    the beginning: messages/s from subscribe() to the last message, the milliseconds to the first
 *    message (joining the group, then the first fetch), messages/s from the first message on, and
 *    messages per CPU-second.
 * A publish and a consumer of another topic first, so one-time costs (connections, the client's
 * option validators compiled on first use) are not counted.
 */
import { createLogger, type ConsumedMessage } from '@corridor/platform';
import { benchBus } from './bench-bus';
import { load1m } from './parts';
import { samplePosition } from './sample-position';
import { quantile, round } from './stats';

const MESSAGES = 40_000;
const PER_PUBLISH = 20;
const PUBLISHERS = 16;
const PARTITIONS = 12;

const { MICRO_BROKERS, MICRO_NAMESPACE } = process.env;
if (!MICRO_BROKERS || !MICRO_NAMESPACE) throw new Error('MICRO_BROKERS and MICRO_NAMESPACE are required');

/** The i-th fix, keyed over 1,000 devices. */
const fix = (i: number): object => samplePosition(50_001 + (i % 1000), i);

const cpuSeconds = (u: NodeJS.CpuUsage): number => (u.user + u.system) / 1e6;

const bus = await benchBus({
  brokers: MICRO_BROKERS.split(','),
  clientId: MICRO_NAMESPACE,
  logger: createLogger('bench', 'error'),
  namespace: MICRO_NAMESPACE,
});
const topic = 'positions.v1';
try {
  await bus.ensureTopics([
    { name: topic, partitions: PARTITIONS },
    { name: 'warm-up', partitions: 1 },
  ]);
  await bus.publish(topic, [{ key: 'warm', value: fix(-1) }]);
  await bus.publish('warm-up', [{ key: 'warm', value: fix(-1) }]);
  let warmed!: () => void;
  const warm = new Promise<void>((r) => (warmed = r));
  const warmSub = await bus.subscribe({ groupId: 'warm-up', topics: ['warm-up'], fromBeginning: true, handler: async () => warmed() });
  await warm;
  await warmSub.stop();

  const latencies: number[] = [];
  let next = 0;
  const load_start = load1m();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: PUBLISHERS }, async () => {
      while (next < MESSAGES) {
        const from = next;
        next += PER_PUBLISH;
        const msgs = Array.from({ length: PER_PUBLISH }, (_, k) => ({ key: String(50_001 + ((from + k) % 1000)), value: fix(from + k) }));
        const s = performance.now();
        await bus.publish(topic, msgs);
        latencies.push(performance.now() - s);
      }
    }),
  );
  const produceS = (performance.now() - t0) / 1000;
  const produceCpu = cpuSeconds(process.cpuUsage(cpu0));
  latencies.sort((a, b) => a - b);

  const total = MESSAGES + 1;
  let got = 0;
  let first = 0;
  let done!: () => void;
  const all = new Promise<void>((r) => (done = r));
  const cpu1 = process.cpuUsage();
  const t1 = performance.now();
  const sub = await bus.subscribe({
    groupId: 'reader',
    topics: [topic],
    fromBeginning: true,
    handler: async (m: ConsumedMessage[]) => {
      if (!got) first = performance.now();
      for (const x of m) JSON.parse(x.value);
      got += m.length;
      if (got >= total) done();
    },
  });
  await all;
  const end = performance.now();
  const consumeCpu = cpuSeconds(process.cpuUsage(cpu1));
  await sub.stop();
  const figures = {
    load_start,
    produce_msgs_per_s: Math.round(MESSAGES / produceS),
    produce_publish_p50_ms: round(quantile(latencies, 0.5)),
    produce_publish_p99_ms: round(quantile(latencies, 0.99)),
    produce_msgs_per_cpu_second: Math.round(MESSAGES / produceCpu),
    consume_msgs_per_s: Math.round(total / ((end - t1) / 1000)),
    consume_first_message_ms: Math.round(first - t1),
    consume_after_first_msgs_per_s: Math.round(total / ((end - first) / 1000)),
    consume_msgs_per_cpu_second: Math.round(total / consumeCpu),
    load_end: load1m(),
  };
  process.stdout.write(`KAFKA_MICRO ${JSON.stringify(figures)}\n`);
} finally {
  await bus.close();
}
process.exit(0);
