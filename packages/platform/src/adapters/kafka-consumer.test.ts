import { EventEmitter } from 'node:events';
import { MultipleErrors, NetworkError, ProtocolError, TimeoutError, UserError } from '@platformatic/kafka';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger';
import type { ConsumedMessage, SubscribeOptions } from './bus';
import { eventually } from '../testing/eventually';
import { retriable, SupervisedKafkaConsumer } from './kafka-consumer';
import type { BusConsumer } from './kafka-fetcher';

// a fresh broker answers a subscription before its partitions have leaders with this error (seen in
// the multi-instance run: ops-api exited at start)
const noLeaderYet = (): Error => new ProtocolError('UNKNOWN_TOPIC_OR_PARTITION');

/**
 * A stand-in for the client's consumer whose joinGroup() fails with the given errors first (no
 * broker needed); once it joins, the group has no committed offsets and its fetches bring nothing.
 */
function consumerFailing(errors: Error[]) {
  const made = { consumers: 0, joins: 0, joined: 0, fetches: 0, closes: 0 };
  const create = (): BusConsumer => {
    made.consumers++;
    const c = Object.assign(new EventEmitter(), {
      assignments: [{ topic: 'positions.v1', partitions: [0, 1] }],
      topics: { trackAll: () => [] },
      joinGroup: async () => {
        made.joins++;
        const e = errors.shift();
        if (e) throw e;
        made.joined++;
        return 'member';
      },
      listCommittedOffsets: async () => new Map([['positions.v1', [-1n, -1n]]]),
      listOffsets: async () => new Map([['positions.v1', [0n, 0n]]]),
      metadata: async () => ({ topics: new Map([['positions.v1', { id: 't1', partitions: [{ leader: 1 }, { leader: 1 }] }]]) }),
      // a broker holds an empty fetch for maxWaitTime; the stand-in for a moment
      fetch: () => {
        made.fetches++;
        return new Promise((resolve) => setImmediate(() => resolve({ responses: [] })));
      },
      close: async () => {
        made.closes++;
      },
    });
    return c as unknown as BusConsumer;
  };
  return { create, made };
}

function supervised(create: () => BusConsumer, handler: SubscribeOptions['handler'] = async () => undefined) {
  return new SupervisedKafkaConsumer({
    base: { clientId: 'test', bootstrapBrokers: ['127.0.0.1:9'] },
    ns: '',
    config: { sessionTimeout: 15000, heartbeatInterval: 1000, rebalanceTimeout: 20000, maxWaitTime: 500 },
    lag: () => Promise.reject(new Error('no admin here')),
    opts: { groupId: 'g', topics: ['positions.v1'], handler },
    logger: createLogger('test', 'silent'),
    backoff: { initialMs: 1, maxMs: 4 },
    createConsumer: create,
  });
}

describe('SupervisedKafkaConsumer first start', () => {
  it('tries again after a retriable error and then runs, with the partitions the group gave it', async () => {
    const { create, made } = consumerFailing([noLeaderYet(), new NetworkError('Connection closed')]);
    const c = supervised(create);
    await c.start();
    expect(made).toMatchObject({ consumers: 3, joins: 3, joined: 1, closes: 2 });
    expect(c.status()).toMatchObject({ state: 'running', partitions: 2, restarts: 0 });
    // it reads: fetches go on while it runs
    const before = made.fetches;
    await eventually('fetches after the join', () => made.fetches > before + 2);
    await c.stop();
    expect(made.closes).toBe(3);
    expect(c.status().state).toBe('stopped');
  });

  it('rejects at once on an error the client does not call retriable', async () => {
    const { create, made } = consumerFailing([new UserError('bad config')]);
    await expect(supervised(create).start()).rejects.toThrow('bad config');
    expect(made.joins).toBe(1);
  });

  it('gives up after a bounded number of retriable failures', async () => {
    const { create, made } = consumerFailing(Array.from({ length: 20 }, noLeaderYet));
    await expect(supervised(create).start()).rejects.toThrow('does not host this topic-partition');
    expect(made.joins).toBe(6);
  });
});

/** A fetch answer of the client: the given offsets of each partition, one record batch each, as the broker sends them. */
function answer(parts: Record<number, number[]>) {
  return {
    responses: [
      {
        topicId: 't1',
        partitions: Object.entries(parts).map(([p, offsets]) => ({
          partitionIndex: Number(p),
          errorCode: 0,
          records: [
            {
              firstOffset: BigInt(offsets[0]!),
              lastOffsetDelta: offsets.length - 1,
              attributes: 0,
              firstTimestamp: 1_700_000_000_000n,
              records: offsets.map((o, i) => ({
                offsetDelta: i,
                timestampDelta: 0n,
                key: Buffer.from(`dev${p}`),
                value: Buffer.from(JSON.stringify({ p: Number(p), o })),
                headers: [],
              })),
            },
          ],
        })),
      },
    ],
  };
}

/**
 * A stand-in for the client's consumer that joins at once, with no committed offsets, and answers
 * its fetches in the order the test says (each fetch waits for the test's answer); commits fail
 * (a rebalance under way), so the group's committed offsets stay where they were.
 */
function consumerScripted() {
  const fetches: { resolve: (a: unknown) => void }[] = [];
  const state = { fetches, consumer: undefined as (EventEmitter & { assignments: { topic: string; partitions: number[] }[] }) | undefined };
  const create = (): BusConsumer => {
    const c = Object.assign(new EventEmitter(), {
      assignments: [{ topic: 'positions.v1', partitions: [0, 1] }],
      topics: { trackAll: () => [] },
      joinGroup: async () => 'member',
      listCommittedOffsets: async () => new Map([['positions.v1', [-1n, -1n]]]),
      listOffsets: async () => new Map([['positions.v1', [0n, 0n]]]),
      metadata: async () => ({ topics: new Map([['positions.v1', { id: 't1', partitions: [{ leader: 1 }, { leader: 1 }] }]]) }),
      fetch: () => new Promise((resolve) => fetches.push({ resolve })),
      commit: async () => {
        throw new Error('REBALANCE_IN_PROGRESS');
      },
      close: async () => undefined,
    });
    state.consumer = c;
    return c as unknown as BusConsumer;
  };
  return { create, state };
}

describe('SupervisedKafkaConsumer across a rebalance', () => {
  it('hands over nothing of a partition the group took away during a fetch, and nothing twice of one it kept', async () => {
    const { create, state } = consumerScripted();
    const got: ConsumedMessage[] = [];
    const c = supervised(create, async (m) => {
      got.push(...m);
    });
    await c.start();
    const nextFetch = async (n: number) => eventually(`fetch ${n}`, () => state.fetches[n - 1]);
    // offsets 0-1 of both partitions handled; their commit fails, so the group still has none
    (await nextFetch(1)).resolve(answer({ 0: [0, 1], 1: [0, 1] }));
    await eventually('the first round handled', () => got.length === 4);
    // the fetch ahead is under way when the group takes partition 1 away
    const ahead = await nextFetch(2);
    state.consumer!.assignments = [{ topic: 'positions.v1', partitions: [0] }];
    state.consumer!.emit('consumer:group:join', {});
    ahead.resolve(answer({ 0: [2], 1: [2] }));
    // the positions are read again (none committed: offset 0); the broker sends partition 0 from 0
    (await nextFetch(3)).resolve(answer({ 0: [0, 1, 2, 3] }));
    await eventually('partition 0 past what it had', () => got.length >= 6);
    (await nextFetch(4)).resolve(answer({ 0: [4] }));
    await eventually('the marker offset 4', () => got.some((m) => m.partition === 0 && m.offset === '4'));
    // a broker answers a fetch with nothing after maxWaitTime: stop() waits for the one under way
    const stopping = c.stop();
    for (const f of state.fetches.slice(4)) f.resolve({ responses: [] });
    await stopping;
    const seen = got.map((m) => `${m.partition}:${m.offset}`);
    expect(seen).toEqual(['0:0', '0:1', '1:0', '1:1', '0:2', '0:3', '0:4']);
    expect(got[0]).toEqual({
      topic: 'positions.v1',
      partition: 0,
      offset: '0',
      key: 'dev0',
      value: '{"p":0,"o":0}',
      headers: {},
      timestamp: 1_700_000_000_000,
    });
    expect(c.status()).toMatchObject({ restarts: 0, partitions: 1 });
  });
});

describe('retriable', () => {
  it("reads the client's canRetry on the error, on one it aggregates or on its cause", () => {
    expect(retriable(noLeaderYet())).toBe(true);
    expect(retriable(new NetworkError('Connection closed'))).toBe(true);
    // the client's retry loop gives up with a MultipleErrors of the attempts
    expect(retriable(new MultipleErrors('Performing fetch failed 6 times.', [noLeaderYet(), noLeaderYet()]))).toBe(true);
    expect(retriable(new Error('wrapped', { cause: noLeaderYet() }))).toBe(true);
    // a connection that timed out on a busy machine (the client says canRetry: false)
    expect(retriable(new TimeoutError('Connection to 127.0.0.1:9092 timed out.'))).toBe(true);
    expect(retriable(new ProtocolError('TOPIC_AUTHORIZATION_FAILED'))).toBe(false);
    expect(retriable(new UserError('no'))).toBe(false);
    expect(retriable(new Error('plain'))).toBe(false);
    expect(retriable('text')).toBe(false);
  });
});
