import { MessageChannel, Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../testing/eventually';
import { MemoryBus } from './bus-memory';
import { MemoryCache } from './cache-memory';
import type { ConsumedMessage } from './bus';
import { absentDb, bridgedParts, serveBridge, type BridgeOptions } from './thread-bridge';

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

/** A bridge whose worker end counts the calls it sends (a read answered in the worker sends none). */
function counted(options: BridgeOptions, cache = new MemoryCache()) {
  const { port1, port2 } = new MessageChannel();
  const calls = { n: 0 };
  const post = port2.postMessage.bind(port2);
  port2.postMessage = (m: unknown) => {
    calls.n += (m as unknown[]).length;
    post(m);
  };
  stop = serveBridge({ bus: new MemoryBus(2, 20), cache }, port1);
  return { cache, calls, far: bridgedParts(port2, { bus: 'memory', cache: 'memory' }, options) };
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

  it('keeps mirrored keys in the worker, told when another writer changes them', async () => {
    const { cache, far, calls } = counted({ mirrored: ['m:'] });
    await cache.set('m:1', 'one');
    expect(await far.cache.mget(['m:1', 'm:2', 'other'])).toEqual(['one', null, null]);
    const after = calls.n;
    expect(await far.cache.mget(['m:1', 'm:2'])).toEqual(['one', null]); // answered in the worker
    expect(await far.cache.get('m:1')).toBe('one');
    expect(calls.n).toBe(after);
    await cache.set('m:2', 'two'); // another writer: the worker is told
    await eventually('the worker reads the new value', async () => expect(await far.cache.get('m:2')).toBe('two'));
    await far.cache.set('m:1', 'mine', 60); // its own write: kept at once, and at the owner
    expect(await far.cache.get('m:1')).toBe('mine');
    await eventually('the write at the owner', async () => expect(await cache.get('m:1')).toBe('mine'));
    await cache.del('m:1');
    await eventually('the delete told', async () => expect(await far.cache.get('m:1')).toBeNull());
    await cache.set('m:3', 'short', 1); // expires with the owner's copy
    expect(await far.cache.get('m:3')).toBe('short');
    await eventually('expired in the worker too', async () => expect(await far.cache.get('m:3')).toBeNull(), { ceilingMs: 5000 });
  });

  it('mirrors a prefix whole: an absent key answered in the worker, every other writer told, its own claim kept', async () => {
    const cache = new MemoryCache();
    await cache.set('w:1', 'one');
    await cache.set('other:1', 'x');
    const { far, calls } = counted({ mirroredWhole: ['w:'] }, cache);
    await far.cache.ping(); // answered after the prefix's keys (in order)
    const after = calls.n;
    // keys never read: the one set before the worker started, and one nobody set
    expect(await far.cache.mget(['w:1', 'w:2'])).toEqual(['one', null]);
    expect(calls.n).toBe(after);
    await cache.set('w:2', 'two'); // another writer, on a key the worker never read: told
    await eventually('the worker reads the new value', async () => expect(await far.cache.get('w:2')).toBe('two'));
    await cache.del('w:1');
    await eventually('the delete told', async () => expect(await far.cache.get('w:1')).toBeNull());
    // its own claim: granted, then answered in the worker; a refused one reads the winner
    expect(await far.cache.setIfAbsent('w:3', 'mine')).toBe(true);
    expect(await far.cache.setIfAbsent('w:2', 'mine')).toBe(false);
    const before = calls.n;
    expect(await far.cache.mget(['w:3', 'w:4'])).toEqual(['mine', null]);
    expect(calls.n).toBe(before);
    expect(await far.cache.get('w:2')).toBe('two');
    expect(await cache.get('w:3')).toBe('mine');
  });

  it("acks a worker's publishes while the owning thread is blocked, within its window, and the bus gets each once", async () => {
    const bus = new MemoryBus(2, 20);
    const cache = new MemoryCache();
    await cache.set('m:track', 'state');
    const { port1, port2 } = new MessageChannel();
    stop = serveBridge({ bus, cache }, port1);
    // the worker (thread-bridge.worker-fixture.ts): reads a mirrored key once, then on `go` publishes
    // a window's worth one by one and 10 more beyond it, noting when each publish and read resolved
    const worker = new Worker(new URL('./thread-bridge.worker-fixture.ts', import.meta.url), {
      workerData: { port: port2, window: 50 },
      transferList: [port2],
      execArgv: [...process.execArgv, '--import', 'tsx'],
    });
    const messages: Record<string, unknown>[] = [];
    worker.on('message', (m: Record<string, unknown>) => messages.push(m));
    try {
      await eventually('the worker ready', () => expect(messages).toContainEqual({ ready: true }));
      worker.postMessage('go');
      // the owning thread busy for 1.5 s (a consumer's long batch): nothing of the bridge runs here meanwhile
      const blockedUntil = Date.now() + 1500;
      while (Date.now() < blockedUntil);
      await eventually('the window acked', () => expect(messages.some((m) => 'acked' in m)).toBe(true));
      const within = messages.find((m) => 'acked' in m) as { acked: number[]; reads: [string, number][]; pending: number };
      expect(within.acked).toHaveLength(50);
      // every publish of the window and every mirrored read answered while this thread was blocked
      expect(Math.max(...within.acked)).toBeLessThan(blockedUntil);
      expect(within.reads.every(([v, at]) => v === 'state' && at < blockedUntil)).toBe(true);
      expect(within.pending).toBe(50);
      // beyond the window a publish waited for this thread to take the posted ones
      await eventually('the ones beyond the window acked', () => expect(messages.some((m) => 'beyond' in m)).toBe(true));
      const beyond = (messages.find((m) => 'beyond' in m) as { beyond: number[] }).beyond;
      expect(Math.min(...beyond)).toBeGreaterThanOrEqual(blockedUntil);
      // every acked message reached the bus once, in order per key
      const seen: number[] = [];
      const sub = await bus.subscribe({
        groupId: 'check',
        topics: ['fixes.v1'],
        fromBeginning: true,
        handler: async (ms) => void seen.push(...ms.map((m) => (JSON.parse(m.value) as { i: number }).i)),
      });
      await eventually('all 60 consumed', () => expect(seen).toHaveLength(60));
      await sub.stop();
      expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, i) => i));
      for (const key of [0, 1, 2, 3, 4, 5, 6]) {
        const ofKey = seen.filter((i) => (i < 50 ? i % 7 : (i - 50) % 7) === key);
        expect(ofKey).toEqual([...ofKey].sort((a, b) => a - b));
      }
      worker.postMessage('close');
      await eventually('the worker closed', () => expect(messages.some((m) => 'closed' in m)).toBe(true));
      expect(messages.find((m) => 'closed' in m)).toMatchObject({ pending: 0 });
    } finally {
      await worker.terminate();
    }
  });

  it('holds a posted publish the bus refused and publishes it, in order, once the bus is back', async () => {
    const bus = new MemoryBus(1, 20);
    const cache = new MemoryCache();
    const { port1, port2 } = new MessageChannel();
    stop = serveBridge({ bus, cache }, port1);
    const far = bridgedParts(port2, { bus: 'memory', cache: 'memory' }, { postedWindow: 100 });
    bus.available = false;
    await far.bus.publish('t.v1', [{ key: '1', value: 1 }]); // posted: acked, held by the owner
    await eventually('the worker told', () => expect(far.bus.producerStatus().state).toBe('failing'));
    // while one is held, a publish waits for the bus's answer, and is refused (not overtaking it)
    await expect(far.bus.publish('t.v1', [{ key: '1', value: 2 }])).rejects.toThrow('bus unavailable');
    expect(far.bus.postedPending).toBe(1);
    bus.available = true;
    await eventually('the held one published', () => expect(bus.size('t.v1')).toBe(1));
    await far.bus.drained();
    expect(far.bus.producerStatus().state).toBe('ok');
    await far.bus.publish('t.v1', [{ key: '1', value: 3 }]);
    await far.bus.drained();
    const values: string[] = [];
    const sub = await bus.subscribe({
      groupId: 'g',
      topics: ['t.v1'],
      fromBeginning: true,
      handler: async (ms) => void values.push(...ms.map((m) => m.value)),
    });
    await eventually('both consumed', () => expect(values).toEqual(['1', '3']));
    await sub.stop();
  });

  it('gives a thread without a relational store one that refuses every use', async () => {
    const db = absentDb('ingest thread 1');
    expect(() => db.orm).toThrow('no relational store in ingest thread 1');
    await expect(db.rows({} as never)).rejects.toThrow('no relational store');
  });
});
