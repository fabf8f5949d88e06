/**
 * One member of a consumer group in a process of its own, for the rebalance round of
 * suites/kafka-clients.ts (run with `node --import tsx`): it consumes MEMBER_TOPIC in MEMBER_GROUP
 * through the bus BUS_CLIENT names (bench-bus.ts) and
 * writes a JSON line to stdout per handler call (`p`: the partition), and one when its state or
 * partition count changes (`s`, `n`). Like packages/platform/test/rebalance-member.ts, with a
 * client switch the platform's test cannot have.
 */
import { createLogger } from '@corridor/platform';
import { benchBus } from './bench-bus';

const { MEMBER_BROKERS, MEMBER_TOPIC, MEMBER_GROUP, MEMBER_NAME } = process.env;
if (!MEMBER_BROKERS || !MEMBER_TOPIC || !MEMBER_GROUP || !MEMBER_NAME)
  throw new Error('MEMBER_BROKERS, MEMBER_TOPIC, MEMBER_GROUP and MEMBER_NAME are required');

const write = (line: object): void => void process.stdout.write(JSON.stringify({ m: MEMBER_NAME, ...line }) + '\n');

const options = { brokers: MEMBER_BROKERS.split(','), clientId: MEMBER_NAME, logger: createLogger('kafka-member', 'warn') };
const bus = await benchBus(options);
const sub = await bus.subscribe({
  groupId: MEMBER_GROUP,
  topics: [MEMBER_TOPIC],
  fromBeginning: true,
  handler: async (msgs) => {
    write({ p: msgs[0]!.partition });
    // the work a writer does with a batch (a database insert)
    await new Promise((r) => setTimeout(r, 25));
  },
});

let last = '';
setInterval(() => {
  const { state, partitions } = sub.status();
  const now = `${state}/${partitions}`;
  if (now !== last) write({ s: state, n: partitions });
  last = now;
}, 50);
