/**
 * One member of a consumer group in a process of its own, for bus-rebalance.test.ts (run with
 * `node --import tsx`). It consumes REBALANCE_TOPIC in REBALANCE_GROUP through the KafkaBus and
 * writes one JSON line to stdout per handler call, before the call returns (and so before the bus
 * commits): the partition, and the offset and `i` of each message. Writes to a pipe are synchronous
 * on Linux, so the parent has every line of a handled batch even when this process is killed right
 * after. A commit line (`c`) follows each commit the broker accepted (from the client's
 * diagnostics channel), and a status line (`s`) says the state and partition count when they change.
 */
import { consumerCommitsChannel } from '@platformatic/kafka';
import { createLogger } from '../src/logger';
import { KafkaBus } from '../src/adapters/bus-kafka';

const { REBALANCE_BROKERS, REBALANCE_TOPIC, REBALANCE_GROUP, REBALANCE_MEMBER, REBALANCE_SESSION_TIMEOUT_MS } = process.env;
if (!REBALANCE_BROKERS || !REBALANCE_TOPIC || !REBALANCE_GROUP || !REBALANCE_MEMBER || !REBALANCE_SESSION_TIMEOUT_MS)
  throw new Error('REBALANCE_BROKERS, REBALANCE_TOPIC, REBALANCE_GROUP, REBALANCE_MEMBER and REBALANCE_SESSION_TIMEOUT_MS are required');

/** How long handling a batch takes. */
const WORK_MS = 25;

const write = (line: object): void => void process.stdout.write(JSON.stringify({ m: REBALANCE_MEMBER, ...line }) + '\n');

const ignore = (): void => undefined;
consumerCommitsChannel.subscribe({
  start: ignore,
  end: ignore,
  asyncEnd: ignore,
  error: ignore,
  asyncStart(ctx) {
    const { error, options } = ctx as { error?: unknown; options?: { offsets?: { partition: number; offset: bigint }[] } };
    if (!error && options?.offsets) write({ c: options.offsets.map((o) => [o.partition, Number(o.offset)]) });
  },
});

const bus = new KafkaBus({
  brokers: REBALANCE_BROKERS.split(','),
  clientId: REBALANCE_MEMBER,
  logger: createLogger('rebalance-member', 'warn'),
  // the test's (REBALANCE_SESSION_TIMEOUT_MS): how long the group waits for the member it SIGKILLs
  sessionTimeoutMs: Number(REBALANCE_SESSION_TIMEOUT_MS),
});
const sub = await bus.subscribe({
  groupId: REBALANCE_GROUP,
  topics: [REBALANCE_TOPIC],
  fromBeginning: true,
  handler: async (msgs) => {
    write({ p: msgs[0]!.partition, o: msgs.map((x) => Number(x.offset)), i: msgs.map((x) => (JSON.parse(x.value) as { i: number }).i) });
    // the work a writer does with a batch (a database insert): a kill often lands between the
    // handling and the commit, as it would in a service
    await new Promise((r) => setTimeout(r, WORK_MS));
  },
});

let last = '';
const report = (): void => {
  const { state, partitions } = sub.status();
  const now = `${state}/${partitions}`;
  if (now !== last) write({ s: state, n: partitions });
  last = now;
};
report();
const timer = setInterval(report, 50);

process.once('SIGTERM', () => {
  clearInterval(timer);
  void sub
    .stop()
    .then(() => bus.close())
    .then(() => {
      write({ s: 'closed', n: 0 });
      process.exit(0);
    });
});
