import { MessageChannel } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../testing/eventually';
import { MemoryBus } from './bus-memory';
import { MemoryCache } from './cache-memory';
import type { ConsumedMessage } from './bus';
import { absentDb, bridgedParts, serveBridge } from './thread-bridge';

/**
 * The bridge between a thread that owns the embedded bus and cache and a worker thread that uses
 * them. Both ends run in this thread here (a MessageChannel works within one thread): what crosses
 * is the same messages a worker thread's port carries.
 */
let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

function bridged() {
  const bus = new MemoryBus(2, 20);
  const cache = new MemoryCache();
  const { port1, port2 } = new MessageChannel();
  stop = serveBridge({ bus, cache }, port1);
  const far = bridgedParts(port2, { bus: 'memory', cache: 'memory' });
  return { bus, cache, far };
}

describe('thread bridge', () => {
  it('publishes to the owning bus as the same JSON and reports the producer state', async () => {
    const { bus, far } = bridged();
    expect(far.bus.producerStatus().state).toBe('idle');
    await far.bus.publish('t.v1', [
      { key: '7', value: { id: 1, at: '2025-01-01T00:00:00.000Z' } },
      { key: '8', value: { id: 2 } },
    ]);
    expect(bus.size('t.v1')).toBe(2);
    expect(far.bus.producerStatus().state).toBe('ok');
    bus.available = false;
    await expect(far.bus.publish('t.v1', [{ key: '7', value: 1 }])).rejects.toThrow('bus unavailable');
    expect(far.bus.producerStatus().state).toBe('failing');
  });

  it('delivers a subscription on the far side, commits after its handler, redelivers after a failure, and stops', async () => {
    const { bus, far } = bridged();
    const seen: string[] = [];
    let failOnce = true;
    const sub = await far.bus.subscribe({
      groupId: 'g',
      topics: ['t.v1'],
      fromBeginning: true,
      handler: async (messages: ConsumedMessage[]) => {
        if (failOnce && messages.some((m) => m.value === '"boom"')) {
          failOnce = false;
          throw new Error('handler failed');
        }
        seen.push(...messages.map((m) => m.value));
      },
    });
    await bus.publish('t.v1', [
      { key: 'a', value: 'one' },
      { key: 'a', value: 'boom' },
      { key: 'a', value: 'marker' },
    ]);
    await eventually('the marker handled', async () => expect(seen).toContain('"marker"'));
    expect(seen.filter((v) => v === '"boom"')).toHaveLength(1); // delivered again after the failure, handled once
    await eventually('nothing left to consume', async () => expect(await sub.lag()).toEqual({ 't.v1': 0 }));
    expect(sub.status().groupId).toBe('g');
    await sub.stop();
    expect(sub.status().state).toBe('stopped');
  });

  it('answers every cache call from the owning cache', async () => {
    const { cache, far } = bridged();
    await far.cache.set('k', 'v');
    expect(await cache.get('k')).toBe('v');
    expect(await far.cache.mget(['k', 'none'])).toEqual(['v', null]);
    expect(await far.cache.setIfAbsent('k', 'w')).toBe(false);
    expect(await far.cache.setJsonIfHigher('j', JSON.stringify({ id: 5 }), 'id', 5)).toBe(true);
    expect(await far.cache.setJsonIfHigher('j', JSON.stringify({ id: 4 }), 'id', 4)).toBe(false);
    expect(await far.cache.incr('n')).toBe(1);
    await far.cache.hset('h', { a: '1', b: '2' });
    expect(await far.cache.hgetall('h')).toEqual({ a: '1', b: '2' });
    expect(await far.cache.hdel('h', 'a')).toBe(1);
    expect(await far.cache.hget('h', 'b')).toBe('2');
    expect(await far.cache.del('k', 'n')).toBe(2);
    await far.cache.ping();
  });

  it('sends what one turn of the event loop issues as one message each way, in order', async () => {
    const bus = new MemoryBus(2, 20);
    const cache = new MemoryCache();
    const { port1, port2 } = new MessageChannel();
    const posted = { near: 0, far: 0 };
    const count = (port: typeof port1, side: keyof typeof posted) => {
      const post = port.postMessage.bind(port);
      port.postMessage = (m: unknown) => {
        posted[side]++;
        post(m);
      };
    };
    count(port1, 'near');
    count(port2, 'far');
    stop = serveBridge({ bus, cache }, port1);
    const far = bridgedParts(port2, { bus: 'memory', cache: 'memory' });
    const answers = await Promise.all([
      ...Array.from({ length: 50 }, (_, i) => far.cache.set(`k${i}`, String(i))),
      far.bus.publish('t.v1', [{ key: '1', value: { n: 1 } }]),
      far.cache.get('k49'), // issued after the set of k49: reads it
    ]);
    expect(answers.at(-1)).toBe('49');
    expect(posted).toEqual({ near: 1, far: 1 });
    expect(bus.size('t.v1')).toBe(1);
    // one at a time, each call still gets its own answer
    expect(await far.cache.get('k3')).toBe('3');
    expect(await far.cache.incr('n')).toBe(1);
    expect(posted).toEqual({ near: 3, far: 3 });
  });

  it("answers a far publish between the owning thread's consumer batches, not after its whole backlog", async () => {
    const { bus, far } = bridged();
    // a backlog of 2 partitions x 2,000 messages: 8 batches of 500 for a consumer whose handler
    // resolves in microtasks (memory parts), as the one-process stack's consumers mostly do
    await bus.publish(
      'backlog.v1',
      Array.from({ length: 4000 }, (_, i) => ({ key: String(i % 2), value: i })),
    );
    let batches = 0;
    let answeredAfter: number | undefined;
    let published: Promise<void> | undefined;
    const sub = await bus.subscribe({
      groupId: 'busy',
      topics: ['backlog.v1'],
      fromBeginning: true,
      handler: async () => {
        batches++;
        published ??= far.bus.publish('t.v1', [{ key: '1', value: 'fix' }]).then(() => {
          answeredAfter = batches;
        });
      },
    });
    await eventually('the backlog handled', () => expect(batches).toBe(8));
    await published;
    await sub.stop();
    // the publish crossed, was stored and answered while the consumer still had batches to handle
    expect(answeredAfter).toBeLessThan(8);
    expect(bus.size('t.v1')).toBe(1);
  });

  it('gives a thread without a relational store one that refuses every use', async () => {
    const db = absentDb('ingest thread 1');
    expect(() => db.orm).toThrow('no relational store in ingest thread 1');
    await expect(db.rows({} as never)).rejects.toThrow('no relational store');
  });
});
