/**
 * What an ingest thread's publish waits for while the main thread's consumers work off a backlog
 * (issue 28: the embedded stack's ack p99 at 50 % of Traccar's saturation). The main thread owns
 * the in-process bus; GROUPS consumer groups read positions.v1's 12 partitions with handlers that
 * spend WORK_US of CPU per message and resolve in microtasks (memory parts, as journey, geofence and
 * the device state mostly do); a far end of the thread bridge (a MessageChannel in this thread: its
 * messages are the same event-loop tasks a worker's are) publishes one position after another and
 * times each answer. Two ways, alternated in one run: `turn` (a member lets the event loop turn after
 * each batch, now) and `drain` (a member handles batch after batch while it has any, before).
 * Figures: the publish round trip's p50/p99/max over each round (BACKLOG messages to work off), the
 * time to work off the backlog, medians of ROUNDS rounds per way.
 */
import { MessageChannel } from 'node:worker_threads';
import { MemoryBus, MemoryCache, bridgedParts, serveBridge } from '@corridor/platform';
import { load1m } from '../parts';
import { median, quantile, round } from '../stats';

const GROUPS = Number(process.env.BUS_TURNS_GROUPS ?? 5);
const BACKLOG = Number(process.env.BUS_TURNS_BACKLOG ?? 12_000);
const WORK_US = Number(process.env.BUS_TURNS_WORK_US ?? 10);
const ROUNDS = Number(process.env.BUS_TURNS_ROUNDS ?? 6);

const spin = (us: number): void => {
  const end = process.hrtime.bigint() + BigInt(Math.round(us * 1000));
  while (process.hrtime.bigint() < end);
};

type Way = 'turn' | 'drain';

async function once(way: Way): Promise<{ p50: number; p99: number; max: number; drainMs: number }> {
  const bus = new MemoryBus(12);
  bus.turnBetweenBatches = way === 'turn';
  await bus.ensureTopics([{ name: 'positions.v1', partitions: 12 }, { name: 'publish.v1' }]);
  const { port1, port2 } = new MessageChannel();
  const stop = serveBridge({ bus, cache: new MemoryCache() }, port1);
  const far = bridgedParts(port2, { bus: 'memory', cache: 'memory' });
  await bus.publish(
    'positions.v1',
    Array.from({ length: BACKLOG }, (_, i) => ({ key: String(i % 200), value: { n: i } })),
  );
  let handled = 0;
  const started = performance.now();
  let drained = 0;
  const subs = await Promise.all(
    Array.from({ length: GROUPS }, (_, g) =>
      bus.subscribe({
        groupId: `g${g}`,
        topics: ['positions.v1'],
        fromBeginning: true,
        handler: async (messages) => {
          spin(WORK_US * messages.length);
          handled += messages.length;
          if (handled === BACKLOG * GROUPS) drained = performance.now() - started;
        },
      }),
    ),
  );
  // one publish at a time, the next as soon as the last is answered, until the backlog is worked off
  const trips: number[] = [];
  while (!drained) {
    const t = performance.now();
    await far.bus.publish('publish.v1', [{ key: '1', value: { t } }]);
    trips.push(performance.now() - t);
  }
  await Promise.all(subs.map((s) => s.stop()));
  await stop();
  await bus.close();
  const sorted = trips.sort((a, b) => a - b);
  return { p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), max: sorted.at(-1) ?? NaN, drainMs: drained };
}

export default async function run(): Promise<Record<string, number | string>> {
  const out: Record<string, number | string> = { load_start: load1m() };
  const ways: Record<Way, { p50: number[]; p99: number[]; max: number[]; drainMs: number[] }> = {
    drain: { p50: [], p99: [], max: [], drainMs: [] },
    turn: { p50: [], p99: [], max: [], drainMs: [] },
  };
  await once('turn'); // warm-up
  for (let r = 0; r < ROUNDS; r++) {
    for (const way of (r % 2 ? ['turn', 'drain'] : ['drain', 'turn']) as Way[]) {
      const x = await once(way);
      for (const k of ['p50', 'p99', 'max', 'drainMs'] as const) ways[way][k].push(x[k]);
    }
  }
  for (const way of ['drain', 'turn'] as Way[]) {
    out[`${way}.publish_p50_ms`] = round(median(ways[way].p50));
    out[`${way}.publish_p99_ms`] = round(median(ways[way].p99));
    out[`${way}.publish_max_ms`] = round(median(ways[way].max));
    out[`${way}.backlog_ms`] = round(median(ways[way].drainMs));
  }
  out['turn_over_drain.publish_p99'] = round(median(ways.turn.p99) / median(ways.drain.p99));
  out['turn_over_drain.backlog_time'] = round(median(ways.turn.drainMs) / median(ways.drain.drainMs));
  out.setup = `${GROUPS} groups on 12 partitions, ${BACKLOG} messages of backlog each, ${WORK_US} µs of CPU per message in handlers resolved in microtasks; bridged publishes one after another timed until the backlog is worked off; ${ROUNDS} rounds per way alternated, medians`;
  out.load_end = load1m();
  return out;
}
