/**
 * Issue 27's comparison of Kafka clients, in one run, through the bus adapters built on them: the
 * KafkaBus of packages/platform on @platformatic/kafka 2.x (`platformatic2`, the bus) and on 1.x
 * (`platformatic1`: the same code, the 1.x package through kafka-1x-hooks.ts), and kafkajs 2.2.4
 * (`kafkajs`: tools/bench/kafkajs, the bus of before, kept as the benchmark anchor). kafkajs is a
 * dependency of no package: a run with a kafkajs client installs it outside the workspace first
 * (kafkajs/obtain-kafkajs.ts, from the npm registry, checked against its pinned sha512) and its
 * child processes resolve it there (kafkajs/kafkajs-hooks.ts). @confluentinc/kafka-javascript does
 * not install here (its install downloads a prebuilt librdkafka from GitHub, its fallback build
 * zlib, OpenSSL and others from their sites: only the package registries are reachable), so it is
 * not measured.
 *
 * KAFKA_CLIENTS names the clients (default `kafkajs,platformatic1,platformatic2`), each either
 * alone, on the broker KAFKA_BROKERS names (the shared Kafka 4.2.1: kafkajs 2.2.4 still produces
 * and consumes with commits on it), or with a Kafka version (`kafkajs@3.9.2,platformatic2@4.2.1`):
 * then on a broker of that version of this run's own (kafka-brokers.ts), all alike but for the
 * version, so kafkajs runs on the Kafka 3.9 it was deployed with and the bus on 4.x.
 *
 * Every client runs in child processes of its own; rounds rotate the order of the clients (A B C,
 * then C B A, ...) so a change of the machine's load hits all of them:
 * - micro (kafka-micro.ts): produce (acks=all, idempotent) and consume with commits: messages/s,
 *   publish latency, messages per CPU-second;
 * - rebalance on a member's SIGKILL: two member processes of one group (kafka-member.ts), one
 *   killed while messages flow: the time until the survivor handles the victim's partitions (the
 *   session timeout is 15 s for all);
 * - ingest alone (ingest-capacity.ts's ingest process, batched, as deployed) and the whole stack
 *   (ingest-overload.ts): acked fixes/s, fixes per CPU-second, ack p50/p99 at capacity and at
 *   50/100/150 % of it.
 * KAFKA_CLIENTS_PARTS picks parts (default micro,stack; also rebalance, ingest), KAFKA_CLIENTS_ROUNDS
 * the rounds (default 2). Figures are keyed `<client>#<round>_...` per round, `<client>_..._mean`
 * and `_median` over the rounds, `ratio_<client>_to_<first client>_...` (of the means) and
 * `ratio_median_<client>_to_<first client>_...` (of the medians, the one to quote). The load average is recorded with
 * each figure.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createLogger, KafkaBus } from '@corridor/platform';
import { realPart } from '@corridor/platform/testing/real-parts';
import type { BusClient } from '../bench-bus';
import { ownBrokers } from '../kafka-brokers';
import { kafkajsDir, obtainKafkajs } from '../kafkajs/obtain-kafkajs';
import { load1m } from '../parts';
import { mean, median, round } from '../stats';

const ALL_CLIENTS: BusClient[] = ['kafkajs', 'platformatic1', 'platformatic2'];

/** A client of the comparison, on the shared broker or (`client@version`) on a broker of that Kafka version of the run's own. */
interface Variant {
  label: string;
  client: BusClient;
  kafka?: string;
}

function parseVariant(label: string): Variant {
  const [client, kafka] = label.split('@') as [BusClient, string | undefined];
  if (!ALL_CLIENTS.includes(client) || (kafka !== undefined && !/^\d+\.\d+\.\d+$/.test(kafka))) {
    throw new Error(`KAFKA_CLIENTS: "${label}" is not one of ${ALL_CLIENTS.join(', ')}, alone or with @<Kafka version>`);
  }
  return { label, client, ...(kafka ? { kafka } : {}) };
}

const VARIANTS = (process.env.KAFKA_CLIENTS?.split(',') ?? ALL_CLIENTS).map(parseVariant);
const ROUNDS = Number(process.env.KAFKA_CLIENTS_ROUNDS ?? 2);
const logger = createLogger('bench', 'error');
const here = fileURLToPath(new URL('.', import.meta.url));
const bench = fileURLToPath(new URL('..', import.meta.url));

/**
 * Node's arguments for a child of the client: the 1.x package through its resolve hook for
 * platformatic1, kafkajs from outside the workspace through its own for kafkajs.
 */
const nodeArgs = (client: BusClient): string[] => [
  '--import',
  'tsx',
  ...(client === 'platformatic1'
    ? ['--import', `${bench}kafka-1x-hooks.ts`]
    : client === 'kafkajs'
      ? ['--import', `${bench}kafkajs/kafkajs-hooks.ts`]
      : []),
];
/** The environment a child of the client needs besides BUS_CLIENT. */
const clientEnv = (client: BusClient): Record<string, string> => (client === 'kafkajs' ? { BENCH_KAFKAJS_DIR: kafkajsDir() } : {});

/** Two member processes of one group; one SIGKILLed while messages flow: ms until the survivor handles the victim's partitions. */
async function rebalanceAfterKill(client: BusClient, brokers: string[], round_: number): Promise<Record<string, number>> {
  const ns = `benchrb${Date.now().toString(36)}${round_}`;
  const topic = `${ns}.t`;
  const publisher = new KafkaBus({ brokers, clientId: `${ns}-pub`, logger });
  await publisher.ensureTopics([{ name: topic, partitions: 6 }]);
  const handled: { member: string; partition: number; at: number }[] = [];
  const status = new Map<string, { state: string; n: number }>();
  const spawnMember = (name: string): ChildProcess => {
    const child = spawn(process.execPath, [...nodeArgs(client), `${bench}kafka-member.ts`], {
      env: {
        ...process.env,
        ...clientEnv(client),
        BUS_CLIENT: client,
        MEMBER_BROKERS: brokers.join(','),
        MEMBER_TOPIC: topic,
        MEMBER_GROUP: `${ns}.g`,
        MEMBER_NAME: name,
      },
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
      await publisher.publish(
        topic,
        Array.from({ length: 12 }, () => ({ key: `k${i++}`, value: { i } })),
      );
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  try {
    await waitFor(
      () =>
        status.get('a')?.n !== undefined &&
        status.get('b')?.n !== undefined &&
        status.get('a')!.n + status.get('b')!.n === 6 &&
        status.get('a')!.n > 0 &&
        status.get('b')!.n > 0 &&
        handled.some((h) => h.member === 'b'),
    );
    const victimPartitions = new Set(handled.filter((h) => h.member === 'b').map((h) => h.partition));
    const killedAt = Date.now();
    b.kill('SIGKILL');
    await waitFor(() => [...victimPartitions].every((p) => handled.some((h) => h.member === 'a' && h.partition === p && h.at > killedAt)));
    const takenAt = Math.max(
      ...[...victimPartitions].map((p) => handled.find((h) => h.member === 'a' && h.partition === p && h.at > killedAt)!.at),
    );
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
 * Figures from a child process with BUS_CLIENT set: kafka-micro.ts (`KAFKA_MICRO` line), a suite
 * run by tools/bench/suite-child.ts (`SUITE_FIGURES` line), or ingest-capacity.ts's own ingest
 * process (`INGEST_CAPACITY` line).
 */
function inChild(
  file: string,
  args: string[],
  marker: string,
  client: BusClient,
  env: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  const child = spawn(process.execPath, [...nodeArgs(client), file, ...args], {
    env: { ...process.env, ...clientEnv(client), BUS_CLIENT: client, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let figures: Record<string, unknown> | undefined;
    createInterface({ input: child.stdout! }).on('line', (l) => {
      if (l.startsWith(`${marker} `)) figures = JSON.parse(l.slice(marker.length + 1)) as Record<string, unknown>;
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      figures ? resolve(figures) : reject(new Error(`${file} (${client}) exited with ${code} without figures`)),
    );
  });
}

const WHOLE_STACK_KEYS = [
  'capacity_fixes_per_s',
  'acked_fixes_per_cpu_second',
  'capacity_ack_p50_ms',
  'capacity_ack_p99_ms',
  'capacity_ingest_ack_p50_ms',
  'capacity_ingest_ack_p99_ms',
  ...[50, 100, 150].flatMap((p) =>
    [
      'acked_per_s',
      'ack_p50_ms',
      'ack_p99_ms',
      'ingest_ack_p50_ms',
      'ingest_ack_p99_ms',
      'event_loop_delay_p50_ms',
      'event_loop_delay_p99_ms',
      'pending_max',
      'pending_limit_at_end',
    ].map((k) => `at_${p}pct_${k}`),
  ),
  'capacity_load_start',
  'at_150pct_load_end',
];

export default async function run(): Promise<Record<string, number | string>> {
  const shared = await realPart('kafka');
  if (!shared && VARIANTS.some((v) => !v.kafka))
    throw new Error('kafka-clients needs KAFKA_BROKERS for a client named without a Kafka version');
  if (VARIANTS.some((v) => v.client === 'kafkajs')) {
    process.stdout.write(`  kafkajs from the registry, outside the workspace: ${await obtainKafkajs()}\n`);
  }
  const own = await ownBrokers(VARIANTS.flatMap((v) => (v.kafka ? [v.kafka] : [])));
  try {
    return await rounds((v) => (v.kafka ? own.brokers.get(v.kafka)! : shared!.url.split(',')));
  } finally {
    await own.close();
  }
}

async function rounds(brokersOf: (v: Variant) => string[]): Promise<Record<string, number | string>> {
  const out: Record<string, number | string> = {
    brokers: VARIANTS.map(
      (v) => `${v.label}: ${brokersOf(v).join(',')} (${v.kafka ? `Kafka ${v.kafka}, the run's own` : 'KAFKA_BROKERS'})`,
    ).join('; '),
  };
  const parts = (process.env.KAFKA_CLIENTS_PARTS ?? 'micro,stack').split(',');
  /** Per client label, each figure's value in every round. */
  const values = new Map<string, Map<string, number[]>>(VARIANTS.map((v) => [v.label, new Map()]));
  for (let r = 1; r <= ROUNDS; r++) {
    const order = r % 2 ? VARIANTS : [...VARIANTS].reverse();
    for (const variant of order) {
      const { client, label } = variant;
      const brokers = brokersOf(variant);
      const kafkaEnv = { KAFKA_BROKERS: brokers.join(',') };
      const record = (prefix: string, figures: Record<string, number | string>, keys?: string[]): void => {
        for (const [k, v] of Object.entries(figures)) {
          if (keys && !keys.includes(k)) continue;
          out[`${label}#${r}_${prefix}${k}`] = v;
          const seen = values.get(label)!;
          if (typeof v === 'number') seen.set(`${prefix}${k}`, [...(seen.get(`${prefix}${k}`) ?? []), v]);
        }
      };
      process.stdout.write(`  round ${r}: ${label} (load ${load1m()})\n`);
      if (parts.includes('micro')) {
        const ns = `benchkc${Date.now().toString(36)}${r}${client}`;
        record(
          '',
          (await inChild(`${bench}kafka-micro.ts`, [], 'KAFKA_MICRO', client, {
            MICRO_BROKERS: brokers.join(','),
            MICRO_NAMESPACE: ns,
          })) as Record<string, number>,
        );
      }
      if (parts.includes('rebalance')) record('', await rebalanceAfterKill(client, brokers, r));
      if (parts.includes('ingest')) {
        const f = await inChild(`${here}ingest-capacity.ts`, [], 'INGEST_CAPACITY', client, {
          ...kafkaEnv,
          INGEST_CAPACITY_ROLE: 'ingest',
          BATCH_FRAMES: '0',
          DAYS_BACK: String(200 - r * 15 - VARIANTS.indexOf(variant) * 5),
        });
        for (const [phase, figures] of Object.entries((f as { phases: Record<string, Record<string, number>> }).phases))
          record(`ingest_${phase}_`, figures, [
            'acked_per_s',
            'acked_per_cpu_second',
            'ack_p50_ms',
            'ack_p99_ms',
            'load_start',
            'load_end',
            'offered_per_s',
          ]);
      }
      if (parts.includes('stack'))
        record(
          'stack_',
          (await inChild(`${bench}suite-child.ts`, ['ingest-overload'], 'SUITE_FIGURES', client, kafkaEnv)) as Record<
            string,
            number | string
          >,
          WHOLE_STACK_KEYS,
        );
    }
  }
  // Means and medians over the rounds, and each client's ratio to the first client for both. The
  // median is the figure to quote: one round disturbed by the machine's load (its load_start says
  // so) moves a mean of two or three rounds a long way, and a median hardly at all.
  for (const [label, figures] of values)
    for (const [k, vs] of figures) {
      out[`${label}_${k}_mean`] = round(mean(vs));
      out[`${label}_${k}_median`] = round(median(vs));
    }
  const [base, ...others] = VARIANTS;
  for (const v of others) {
    for (const [k, vs] of values.get(v.label)!) {
      const baseVs = values.get(base!.label)!.get(k);
      if (!baseVs) continue;
      if (mean(baseVs)) out[`ratio_${v.label}_to_${base!.label}_${k}`] = round(mean(vs) / mean(baseVs));
      if (median(baseVs)) out[`ratio_median_${v.label}_to_${base!.label}_${k}`] = round(median(vs) / median(baseVs));
    }
  }
  out.setup =
    `clients ${VARIANTS.map((v) => v.label).join(', ')} rotate over ${ROUNDS} rounds, Node ${process.version}, each in child processes of its own; ` +
    `kafkajs 2.2.4 installed outside the workspace at ${kafkajsDir()}; own brokers (client@version): single-node KRaft, 384 MB heap, serial GC; ` +
    'micro: kafka-micro.ts (40,000 messages, 20 per publish, 16 concurrent callers, 12 partitions); rebalance: 2 member processes, 6 partitions, session timeout 15 s; ' +
    'ingest: ingest-capacity.ts (batched); stack: ingest-overload.ts';
  return out;
}
