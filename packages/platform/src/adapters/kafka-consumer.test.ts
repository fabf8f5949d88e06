import { KafkaJSNonRetriableError, KafkaJSNumberOfRetriesExceeded, KafkaJSProtocolError, type Kafka } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger';
import { retriable, SupervisedKafkaConsumer } from './kafka-consumer';

// a fresh broker answers a subscription before its partitions have leaders with this error (seen in
// the multi-instance run: ops-api exited at start)
const noLeaderYet = () =>
  new KafkaJSProtocolError(Object.assign(new Error('This server does not host this topic-partition'), { type: 'UNKNOWN_TOPIC_OR_PARTITION', code: 3, retriable: true }));

/** A stand-in for kafkajs's client whose subscriptions fail with the given errors first (no broker needed). */
function kafkaFailing(errors: Error[]) {
  const made = { consumers: 0, subscribes: 0, runs: 0 };
  const kafka = {
    consumer: () => {
      made.consumers++;
      return {
        events: { GROUP_JOIN: 'join', CRASH: 'crash' },
        on: () => undefined,
        connect: async () => undefined,
        disconnect: async () => undefined,
        subscribe: async () => {
          made.subscribes++;
          const e = errors.shift();
          if (e) throw e;
        },
        run: async () => { made.runs++; },
      };
    },
  } as unknown as Kafka;
  return { kafka, made };
}

function supervised(kafka: Kafka) {
  return new SupervisedKafkaConsumer({
    kafka, ns: '', config: {}, admin: () => Promise.reject(new Error('no admin here')),
    opts: { groupId: 'g', topics: ['positions.v1'], handler: async () => undefined },
    logger: createLogger('test', 'silent'), backoff: { initialMs: 1, maxMs: 4 },
  });
}

describe('SupervisedKafkaConsumer first start', () => {
  it('tries again after a retriable error and then runs', async () => {
    const { kafka, made } = kafkaFailing([noLeaderYet(), noLeaderYet()]);
    const c = supervised(kafka);
    await c.start();
    expect(made).toEqual({ consumers: 3, subscribes: 3, runs: 1 });
    await c.stop();
  });

  it('rejects at once on an error kafkajs does not call retriable', async () => {
    const { kafka, made } = kafkaFailing([new KafkaJSNonRetriableError('bad config')]);
    await expect(supervised(kafka).start()).rejects.toThrow('bad config');
    expect(made.subscribes).toBe(1);
  });

  it('gives up after a bounded number of retriable failures', async () => {
    const { kafka, made } = kafkaFailing(Array.from({ length: 20 }, noLeaderYet));
    await expect(supervised(kafka).start()).rejects.toThrow('does not host');
    expect(made.subscribes).toBe(6);
  });
});

describe('retriable', () => {
  it('reads kafkajs\'s flag on the error or on one it wraps', () => {
    expect(retriable(noLeaderYet())).toBe(true);
    // kafkajs's retrier gives up with KafkaJSNumberOfRetriesExceeded, its cause the last error
    expect(retriable(new (KafkaJSNumberOfRetriesExceeded as unknown as new (e: Error, o: object) => Error)(noLeaderYet(), { retryCount: 5, retryTime: 100 }))).toBe(true);
    expect(retriable(new KafkaJSNonRetriableError('no'))).toBe(false);
    expect(retriable(new Error('plain'))).toBe(false);
    expect(retriable('text')).toBe(false);
  });
});
