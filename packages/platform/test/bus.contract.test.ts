import { afterAll, describe, expect, it } from 'vitest';
import type { Bus, ConsumedMessage } from '../src/adapters/bus';
import { registry } from '../src/metrics';
import { eventually } from '../src/testing/eventually';
import { busVariants, uniqueName } from './adapter-variants';

const variants = await busVariants();

const MARKER = '__marker';
const isMarker = (m: ConsumedMessage): boolean => MARKER in (JSON.parse(m.value) as object);
const valuesOf = (ms: ConsumedMessage[]): number[] => ms.filter((m) => !isMarker(m)).map((m) => (JSON.parse(m.value) as { i: number }).i);

/**
 * Proves that nothing more arrives without waiting for a while: one marker per key after the
 * messages under test (a key keeps its order, so each marker comes after that key's messages, and
 * after any redelivery of them); resolves once the consumer saw them all.
 */
async function afterMarkers(b: Bus, topic: string, keys: readonly string[], seen: () => readonly ConsumedMessage[]): Promise<void> {
  const id = uniqueName('m');
  await b.publish(
    topic,
    keys.map((key) => ({ key, value: { [MARKER]: id } })),
  );
  await eventually(
    'the markers after the messages',
    () => seen().filter((m) => (JSON.parse(m.value) as Record<string, unknown>)[MARKER] === id).length >= keys.length,
    30_000,
  );
}

describe.each(variants)('Bus contract: $name', ({ create }) => {
  const buses: Bus[] = [];
  const bus = async (): Promise<Bus> => {
    const b = await create();
    buses.push(b);
    return b;
  };
  afterAll(async () => {
    await Promise.all(buses.map((b) => b.close()));
  });

  it('keeps each key in order and delivers every message once to a group', async () => {
    const b = await bus();
    const topic = uniqueName('t_order');
    await b.ensureTopics([{ name: topic, partitions: 3 }]);
    const got: ConsumedMessage[] = [];
    const sub = await b.subscribe({
      groupId: uniqueName('g'),
      topics: [topic],
      fromBeginning: true,
      handler: async (m) => {
        got.push(...m);
      },
    });
    const msgs = Array.from({ length: 60 }, (_, i) => ({ key: `dev${i % 5}`, value: { i } }));
    await b.publish(topic, msgs.slice(0, 30));
    await b.publish(topic, msgs.slice(30));
    await eventually('all 60 messages', () => got.length >= 60);
    await afterMarkers(b, topic, ['dev0', 'dev1', 'dev2', 'dev3', 'dev4'], () => got);
    expect(valuesOf(got)).toHaveLength(60);
    for (let k = 0; k < 5; k++) {
      const seq = valuesOf(got.filter((m) => m.key === `dev${k}`));
      expect(seq).toEqual([...seq].sort((a, b2) => a - b2));
      expect(seq).toHaveLength(12);
    }
    await sub.stop();
  }, 60000);

  it('redelivers a batch whose handler threw (at least once)', async () => {
    const b = await bus();
    const topic = uniqueName('t_retry');
    await b.ensureTopics([{ name: topic, partitions: 1 }]);
    let failures = 1;
    const seen: number[] = [];
    const sub = await b.subscribe({
      groupId: uniqueName('g'),
      topics: [topic],
      fromBeginning: true,
      handler: async (m) => {
        if (failures-- > 0) throw new Error('transient');
        seen.push(...m.map((x) => (JSON.parse(x.value) as { i: number }).i));
      },
    });
    await b.publish(topic, [
      { key: 'a', value: { i: 1 } },
      { key: 'a', value: { i: 2 } },
    ]);
    await eventually('both messages', () => seen.length >= 2, 30_000);
    expect(seen).toEqual([1, 2]);
    await sub.stop();
  }, 60000);

  it('a group resumes from its committed offset after a restart (nothing lost, nothing repeated)', async () => {
    const b = await bus();
    const topic = uniqueName('t_resume');
    const group = uniqueName('g');
    await b.ensureTopics([{ name: topic, partitions: 2 }]);
    const first: number[] = [];
    const sub1 = await b.subscribe({
      groupId: group,
      topics: [topic],
      fromBeginning: true,
      handler: async (m) => {
        first.push(...m.map((x) => (JSON.parse(x.value) as { i: number }).i));
      },
    });
    await b.publish(
      topic,
      Array.from({ length: 10 }, (_, i) => ({ key: `k${i}`, value: { i } })),
    );
    await eventually('the first member to take all 10 messages', () => first.length >= 10);
    await sub1.stop();
    await b.publish(
      topic,
      Array.from({ length: 10 }, (_, i) => ({ key: `k${i}`, value: { i: i + 10 } })),
    );
    const second: ConsumedMessage[] = [];
    const sub2 = await b.subscribe({
      groupId: group,
      topics: [topic],
      fromBeginning: true,
      handler: async (m) => {
        second.push(...m);
      },
    });
    await eventually('the second group to take all 10 messages', () => second.length >= 10, 30_000);
    await afterMarkers(
      b,
      topic,
      Array.from({ length: 10 }, (_, i) => `k${i}`),
      () => second,
    );
    expect(valuesOf(second).sort((x, y) => x - y)).toEqual(Array.from({ length: 10 }, (_, i) => i + 10));
    await sub2.stop();
  }, 90000);

  it('splits partitions between two members of a group; together they see everything once', async () => {
    const b = await bus();
    const topic = uniqueName('t_split');
    const group = uniqueName('g');
    await b.ensureTopics([{ name: topic, partitions: 4 }]);
    const a: ConsumedMessage[] = [];
    const c: ConsumedMessage[] = [];
    const s1 = await b.subscribe({
      groupId: group,
      topics: [topic],
      fromBeginning: true,
      handler: async (m) => {
        a.push(...m);
      },
    });
    const s2 = await b.subscribe({
      groupId: group,
      topics: [topic],
      fromBeginning: true,
      handler: async (m) => {
        c.push(...m);
      },
    });
    // the rebalance is over when both members hold partitions, all four between them
    await eventually(
      'the rebalance (both members holding partitions, four between them)',
      () => s1.status().partitions > 0 && s2.status().partitions > 0 && s1.status().partitions + s2.status().partitions === 4,
      60_000,
    );
    await b.publish(
      topic,
      Array.from({ length: 40 }, (_, i) => ({ key: `dev${i}`, value: { i } })),
    );
    await eventually('all 40 messages between the two members', () => a.length + c.length >= 40, 30_000);
    await afterMarkers(
      b,
      topic,
      Array.from({ length: 40 }, (_, i) => `dev${i}`),
      () => [...a, ...c],
    );
    expect(valuesOf(a).length + valuesOf(c).length).toBe(40);
    const pa = new Set(a.map((m) => m.partition));
    for (const m of c) expect(pa.has(m.partition)).toBe(false);
    await Promise.all([s1.stop(), s2.stop()]);
  }, 90000);

  it('restarts a consumer whose handler threw what the client treats as fatal (a TypeError), and delivers the batch again', async () => {
    const b = await bus();
    const topic = uniqueName('t_crash');
    await b.ensureTopics([{ name: topic, partitions: 1 }]);
    let crashes = 1;
    const seen: number[] = [];
    const groupId = uniqueName('g');
    const sub = await b.subscribe({
      groupId,
      topics: [topic],
      fromBeginning: true,
      handler: async (m) => {
        // a bug in a handler: on Kafka the supervisor closes the client consumer and starts a new
        // one of the group (as after an error the client gave up on), which reads from the committed offset
        if (crashes-- > 0) throw new TypeError('a bug in the handler');
        seen.push(...m.map((x) => (JSON.parse(x.value) as { i: number }).i));
      },
    });
    expect(sub.status()).toMatchObject({ state: 'running', restarts: 0, topics: [topic] });
    await b.publish(topic, [
      { key: 'a', value: { i: 1 } },
      { key: 'a', value: { i: 2 } },
    ]);
    await eventually('both messages after the restart', () => seen.length >= 2, 60_000);
    expect(seen).toEqual([1, 2]);
    await eventually('the subscription running', () => sub.status().state === 'running');
    // the bus started a new client consumer; the in-process bus retries a failed batch without a restart
    if (b.kind === 'kafka') {
      expect(sub.status()).toMatchObject({ restarts: 1, lastError: 'TypeError: a bug in the handler' });
      // and counted for /metrics, by the group (its name may carry the bus's namespace)
      const counted = ((await registry.getSingleMetric('consumer_restarts_total')?.get())?.values ?? []).filter((v) =>
        String(v.labels.group).endsWith(groupId),
      );
      expect(counted.map((v) => [v.labels.by, v.value])).toEqual([['supervisor', 1]]);
    }
    await sub.stop();
    expect(sub.status().state).toBe('stopped');
  }, 90000);

  it("reports a group's lag per topic: what is published and not yet handled, down to 0 once handled", async () => {
    const b = await bus();
    const topic = uniqueName('t_lag');
    await b.ensureTopics([{ name: topic, partitions: 2 }]);
    let release: () => void = () => undefined;
    const released = new Promise<void>((r) => (release = r));
    let handled = 0;
    const sub = await b.subscribe({
      groupId: uniqueName('g'),
      topics: [topic],
      fromBeginning: true,
      handler: async (m) => {
        await released;
        handled += m.length;
      },
    });
    await b.publish(
      topic,
      Array.from({ length: 30 }, (_, i) => ({ key: `k${i}`, value: { i } })),
    );
    await eventually('a lag of 30', async () => (await sub.lag())[topic] === 30);
    release();
    await eventually('all 30 handled', () => handled >= 30, 30_000);
    await eventually('the lag back to 0', async () => (await sub.lag())[topic] === 0);
    await sub.stop();
  }, 90000);

  it('says whether publishing works', async () => {
    const b = await bus();
    const topic = uniqueName('t_prod');
    await b.ensureTopics([{ name: topic, partitions: 1 }]);
    await b.publish(topic, [{ key: 'a', value: 1 }]);
    expect(b.producerStatus().state).toBe('ok');
  }, 30000);

  it('ping answers while the bus is up', async () => {
    const b = await bus();
    await expect(b.ping()).resolves.toBeUndefined();
  }, 30000);
});
