/**
 * Issue 27's comparison of Kafka clients, in one run on the broker KAFKA_BROKERS names (Kafka 3.9:
 * the newest both clients speak), through the bus adapters built on them: @platformatic/kafka
 * (packages/platform bus-kafka.ts, the new one) and kafkajs 2.2.4 (the bus of before, kept for
 * this comparison only). @confluentinc/kafka-javascript does not install here (its install
 * downloads a prebuilt librdkafka from GitHub, and its fallback source build downloads zlib,
 * OpenSSL and others from their sites: only the package registries are reachable), so it is not
 * measured.
 *
 * Rounds alternate the clients (A B A B ...) so a change of the machine's load hits both:
 * 1. produce: PRODUCE_MESSAGES position-sized JSON messages keyed over 1,000 devices, published
 *    PER_PUBLISH at a time with PUBLISHERS concurrent callers (acks=all, idempotent): messages/s,
 *    publish latency p50/p99 (call to acknowledgement), messages per CPU-second of this process;
 * 2. consume with commits after each handler call: a new group reads those messages from the
 *    beginning: messages/s and messages per CPU-second;
 * 3. rebalance on a member's SIGKILL: two member processes of one group (bus-rebalance's
 *    members), one killed while messages flow: the time until the survivor handles the victim's
 *    partitions (the session timeout is 15 s for both);
 * 4. ingest alone (tools/bench/suites/ingest-capacity.ts's ingest process, batched, as deployed)
 *    and 5. the whole stack (ingest-overload.ts), each as a child process per client: acked
 *    fixes/s, fixes per CPU-second, ack p50/p99 at capacity and at 50/100/150 % of it.
 * The load average is recorded with each figure.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { KafkaBus } from '@corridor/platform';
import type { Bus, ConsumedMessage } from '@corridor/platform/adapters/bus';
import { KafkajsBus } from '@corridor/platform/adapters/legacy/bus-kafkajs';
import { createLogger } from '@corridor/platform/logger';
import { realPart } from '@corridor/platform/testing/real-parts';
import { load1m } from '../parts';
import { quantile, round } from '../stats';

const CLIENTS = ['kafkajs', '@platformatic/kafka'] as const;
type Client = (typeof CLIENTS)[number];
const ROUNDS = Number(process.env.KAFKA_CLIENTS_ROUNDS ?? 3);
const PRODUCE_MESSAGES = 40_000;
const PER_PUBLISH = 20;
const PUBLISHERS = 16;
const PARTITIONS = 12;
const logger = createLogger('bench', 'error');
const here = fileURLToPath(new URL('.', import.meta.url));

const newBus = (client: Client, brokers: string[], ns: string): Bus =>
  client === 'kafkajs' ? new KafkajsBus({ brokers, clientId: ns, logger, namespace: ns }) : new KafkaBus({ brokers, clientId: ns, logger, namespace: ns });

/** A fix as ingest publishes it (about 330 bytes of JSON). */
const fix = (i: number): object => ({
  id: 1_000_000_000 + i, deviceId: 50_001 + (i % 1000), protocol: 'gt06', serverTime: new Date().toISOString(), fixTime: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
  valid: true, latitude: -1.29 - i / 1e6, longitude: 36.82 + i / 1e6, altitude: 1600, speed: 27.5, course: 90, accuracy: 5, satellites: 9,
  attributes: { ignition: true, odometer: 1000 + i, batteryLevel: 90, motion: true }, rawFrameId: `f${i}`,
});

async function produceAndConsume(client: Client, brokers: string[], round_: number): Promise<Record<string, number>> {
  const ns = `bench${Date.now().toString(36)}${round_}${client === 'kafkajs' ? 'j' : 'p'}`;
  const bus = newBus(client, brokers, ns);
  const topic = 'positions.v1';
  try {
    await bus.ensureTopics([{ name: topic, partitions: PARTITIONS }, { name: 'warm-up', partitions: 1 }]);
    // warm-up: a publish and a consumer of another topic, so one-time costs (connections, the
    // client's option validators compiled on first use) are not counted below
    await bus.publish(topic, [{ key: 'warm', value: fix(-1) }]);
    await bus.publish('warm-up', [{ key: 'warm', value: fix(-1) }]);
    let warmed!: () => void;
    const warm = new Promise<void>((r) => (warmed = r));
    const warmSub = await bus.subscribe({ groupId: 'warm-up', topics: ['warm-up'], fromBeginning: true, handler: async () => warmed() });
    await warm;
    await warmSub.stop();
    // 1. produce
    const latencies: number[] = [];
    let next = 0;
    const load_start = load1m();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await Promise.all(Array.from({ length: PUBLISHERS }, async () => {
      while (next < PRODUCE_MESSAGES) {
        const from = next;
        next += PER_PUBLISH;
        const msgs = Array.from({ length: PER_PUBLISH }, (_, k) => ({ key: String(50_001 + ((from + k) % 1000)), value: fix(from + k) }));
        const s = performance.now();
        await bus.publish(topic, msgs);
        latencies.push(performance.now() - s);
      }
    }));
    const produceS = (performance.now() - t0) / 1000;
    const produceCpu = process.cpuUsage(cpu0);
    latencies.sort((a, b) => a - b);
    // 2. consume, committing after each handler call
    let got = 0;
    const cpu1 = process.cpuUsage();
    const t1 = performance.now();
    let done!: () => void;
    const all = new Promise<void>((r) => (done = r));
    const sub = await bus.subscribe({
      groupId: 'reader', topics: [topic], fromBeginning: true,
      handler: async (m: ConsumedMessage[]) => {
        for (const x of m) JSON.parse(x.value);
        got += m.length;
        if (got >= PRODUCE_MESSAGES + 1) done();
      },
    });
    await all;
    const consumeS = (performance.now() - t1) / 1000;
    const consumeCpu = process.cpuUsage(cpu1);
    await sub.stop();
    return {
      load_start,
      produce_msgs_per_s: Math.round(PRODUCE_MESSAGES / produceS),
      produce_publish_p50_ms: round(quantile(latencies, 0.5)),
      produce_publish_p99_ms: round(quantile(latencies, 0.99)),
      produce_msgs_per_cpu_second: Math.round(PRODUCE_MESSAGES / ((produceCpu.user + produceCpu.system) / 1e6)),
      consume_msgs_per_s: Math.round((PRODUCE_MESSAGES + 1) / consumeS),
      consume_msgs_per_cpu_second: Math.round((PRODUCE_MESSAGES + 1) / ((consumeCpu.user + consumeCpu.system) / 1e6)),
      load_end: load1m(),
    };
  } finally {
    await bus.close();
  }
}

/** Two member processes of one group; one SIGKILLed while messages flow: ms until the survivor handles the victim's partitions. */
async function rebalanceAfterKill(client: Client, brokers: string[], round_: number): Promise<Record<string, number>> {
  const ns = `benchrb${Date.now().toString(36)}${round_}`;
  const topic = `${ns}.t`;
  const publisher = new KafkaBus({ brokers, clientId: `${ns}-pub`, logger });
  await publisher.ensureTopics([{ name: topic, partitions: 6 }]);
  const handled: { member: string; partition: number; at: number }[] = [];
  const status = new Map<string, { state: string; n: number }>();
  const spawnMember = (name: string): ChildProcess => {
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('../../../packages/platform/test/rebalance-member.ts', import.meta.url))], {
      env: { ...process.env, BUS_CLIENT: client, REBALANCE_BROKERS: brokers.join(','), REBALANCE_TOPIC: topic, REBALANCE_GROUP: `${ns}.g`, REBALANCE_MEMBER: name },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    createInterface({ input: child.stdout! }).on('line', (l) => {
      const m = JSON.parse(l) as { m: string; s?: string; n?: number; p?: number };
      if (m.s) status.set(m.m, { state: m.s, n: m.n ?? 0 });
      else if (m.p !== undefined) handled.push({ member: m.m, partition: m.p, at: Date.now() });
    });
    return child;
  };
  const a = spawnMember('a');
  const b = spawnMember('b');
  const waitFor = async (cond: () => boolean, ms = 180_000): Promise<void> => {
    const end = Date.now() + ms;
    while (!cond()) {
      if (Date.now() > end) throw new Error('rebalance bench: condition not met in time');
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  let flowing = true;
  let i = 0;
  const flow = (async () => {
    while (flowing) {
      await publisher.publish(topic, Array.from({ length: 12 }, () => ({ key: `k${i++}`, value: { i } })));
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  try {
    await waitFor(() => status.get('a')?.n !== undefined && status.get('b')?.n !== undefined && (status.get('a')!.n + status.get('b')!.n === 6) && status.get('a')!.n > 0 && status.get('b')!.n > 0 && handled.some((h) => h.member === 'b'));
    const victimPartitions = new Set(handled.filter((h) => h.member === 'b').map((h) => h.partition));
    const killedAt = Date.now();
    b.kill('SIGKILL');
    await waitFor(() => [...victimPartitions].every((p) => handled.some((h) => h.member === 'a' && h.partition === p && h.at > killedAt)));
    const takenAt = Math.max(...[...victimPartitions].map((p) => handled.find((h) => h.member === 'a' && h.partition === p && h.at > killedAt)!.at));
    return { rebalance_after_sigkill_ms: takenAt - killedAt, load: load1m() };
  } finally {
    flowing = false;
    await flow.catch(() => undefined);
    a.kill('SIGKILL');
    b.kill('SIGKILL');
    await publisher.close();
  }
}

/**
 * Figures from a child process with BUS_CLIENT set: a suite run by tools/bench/suite-child.ts
 * (`SUITE_FIGURES` line), or ingest-capacity.ts's own ingest process (`INGEST_CAPACITY` line).
 */
function inChild(file: string, args: string[], marker: string, client: Client, env: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const child = spawn(process.execPath, ['--import', 'tsx', file, ...args], {
    env: { ...process.env, BUS_CLIENT: client === 'kafkajs' ? 'kafkajs' : 'platformatic', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let figures: Record<string, unknown> | undefined;
    createInterface({ input: child.stdout! }).on('line', (l) => {
      if (l.startsWith(`${marker} `)) figures = JSON.parse(l.slice(marker.length + 1)) as Record<string, unknown>;
    });
    child.once('error', reject);
    child.once('exit', (code) => (figures ? resolve(figures) : reject(new Error(`${file} (${client}) exited with ${code} without figures`))));
  });
}

const WHOLE_STACK_KEYS = ['capacity_fixes_per_s', 'acked_fixes_per_cpu_second', 'capacity_ack_p50_ms', 'capacity_ack_p99_ms',
  ...[50, 100, 150].flatMap((p) => [`at_${p}pct_acked_per_s`, `at_${p}pct_ack_p50_ms`, `at_${p}pct_ack_p99_ms`]), 'capacity_load_start', 'at_150pct_load_end'];

export default async function run(): Promise<Record<string, number | string>> {
  const kafka = await realPart('kafka');
  if (!kafka) throw new Error('kafka-clients needs KAFKA_BROKERS (a Kafka 3.9 broker: kafkajs speaks no Kafka 4)');
  const brokers = kafka.url.split(',');
  const out: Record<string, number | string> = { brokers: kafka.url };
  const parts = (process.env.KAFKA_CLIENTS_PARTS ?? 'micro,rebalance,ingest,stack').split(',');
  const sums = new Map<string, number>();
  const add = (client: Client, key: string, v: number | string): void => {
    if (typeof v !== 'number') return;
    const k = `${client === 'kafkajs' ? 'kafkajs' : 'platformatic'}_${key}`;
    sums.set(k, (sums.get(k) ?? 0) + v);
  };
  for (let r = 1; r <= ROUNDS; r++) {
    const order = r % 2 ? CLIENTS : ([...CLIENTS].reverse() as unknown as typeof CLIENTS);
    for (const client of order) {
      const tag = client === 'kafkajs' ? 'kafkajs' : 'platformatic';
      const record = (prefix: string, figures: Record<string, number | string>, keys?: string[]): void => {
        for (const [k, v] of Object.entries(figures)) {
          if (keys && !keys.includes(k)) continue;
          out[`${tag}${r}_${prefix}${k}`] = v;
          add(client, `${prefix}${k}`, v);
        }
      };
      process.stdout.write(`  round ${r}: ${client} (load ${load1m()})\n`);
      if (parts.includes('micro')) record('', await produceAndConsume(client, brokers, r));
      if (parts.includes('rebalance')) record('', await rebalanceAfterKill(client, brokers, r));
      if (parts.includes('ingest')) {
        const f = await inChild(`${here}ingest-capacity.ts`, [], 'INGEST_CAPACITY', client, { INGEST_CAPACITY_ROLE: 'ingest', BATCH_FRAMES: '0', DAYS_BACK: String(200 - r * 10 - (tag === 'kafkajs' ? 0 : 5)) });
        for (const [phase, figures] of Object.entries((f as { phases: Record<string, Record<string, number>> }).phases)) record(`ingest_${phase}_`, figures, ['acked_per_s', 'acked_per_cpu_second', 'ack_p50_ms', 'ack_p99_ms', 'load_start', 'load_end', 'offered_per_s']);
      }
      if (parts.includes('stack')) record('stack_', (await inChild(`${here}../suite-child.ts`, ['ingest-overload'], 'SUITE_FIGURES', client)) as Record<string, number | string>, WHOLE_STACK_KEYS);
    }
  }
  for (const [k, v] of sums) out[`${k}_mean`] = round(v / ROUNDS);
  for (const [k, v] of sums) {
    if (!k.startsWith('platformatic_')) continue;
    const base = sums.get(k.replace('platformatic_', 'kafkajs_'));
    if (base) out[`ratio_platformatic_to_kafkajs_${k.slice('platformatic_'.length)}`] = round(v / base);
  }
  out.setup = `clients alternate over ${ROUNDS} rounds on ${kafka.url}; micro: ${PRODUCE_MESSAGES} messages, ${PER_PUBLISH} per publish, ${PUBLISHERS} concurrent callers, ${PARTITIONS} partitions; ` +
    'rebalance: 2 member processes, 6 partitions, session timeout 15 s; ingest: ingest-capacity.ts (batched), stack: ingest-overload.ts, each a child process per client';
  return out;
}
