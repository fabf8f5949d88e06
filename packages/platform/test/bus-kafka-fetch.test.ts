import { Admin } from '@platformatic/kafka';
import { afterAll, describe, expect, it } from 'vitest';
import type { ConsumedMessage } from '../src/adapters/bus';
import { KafkaBus } from '../src/adapters/bus-kafka';
import { createLogger } from '../src/logger';
import { eventually } from '../src/testing/eventually';
import { inCI, realPart } from '../src/testing/real-parts';
import { uniqueName } from './adapter-variants';

/**
 * What the bus's own fetch loop (src/adapters/kafka-fetcher.ts) does that the bus contract suite
 * does not reach: a group whose committed offset the broker no longer has (retention deleted the
 * records while the group was away) goes on from the earliest offset the broker has, without a
 * crash; messages arrive with their headers, key, partition, offset and timestamp.
 */
const kafka = await realPart('kafka');
if (kafka) describe('the Kafka bus reading through the fetch API', suite);
else {
  describe('the Kafka bus reading through the fetch API (no Kafka here)', () => {
    it('runs where KAFKA_BROKERS names a broker (always in CI)', () => {
      expect(inCI()).toBe(false);
    });
  });
}

function suite(): void {
  const brokers = kafka!.url.split(',');
  const logger = createLogger('test', 'silent');
  const bus = new KafkaBus({ brokers, clientId: uniqueName('fetch'), logger });
  const admin = new Admin({ clientId: uniqueName('fetch-admin'), bootstrapBrokers: brokers });
  afterAll(async () => {
    await bus.close();
    await admin.close();
  });

  it('goes on from the earliest offset the broker still has when retention deleted the committed one', async () => {
    const topic = uniqueName('t_retention');
    const groupId = uniqueName('g');
    await bus.ensureTopics([{ name: topic, partitions: 1 }]);
    await bus.publish(
      topic,
      Array.from({ length: 5 }, (_, i) => ({ key: 'dev', value: { i } })),
    );
    const first: ConsumedMessage[] = [];
    const sub1 = await bus.subscribe({
      groupId,
      topics: [topic],
      fromBeginning: true,
      handler: async (m) => {
        first.push(...m);
      },
    });
    await eventually('the first 5 messages', () => first.length >= 5);
    await eventually('their offsets committed', async () => (await sub1.lag())[topic] === 0);
    await sub1.stop();

    // while the group is away: 10 more messages, and the first 12 of all deleted (as retention would)
    await bus.publish(
      topic,
      Array.from({ length: 10 }, (_, i) => ({ key: 'dev', value: { i: 5 + i } })),
    );
    await admin.deleteRecords({ topics: [{ name: topic, partitions: [{ partition: 0, offset: 12n }] }] });

    const second: ConsumedMessage[] = [];
    const sub2 = await bus.subscribe({
      groupId,
      topics: [topic],
      fromBeginning: true,
      handler: async (m) => {
        second.push(...m);
      },
    });
    await eventually('the messages the broker still has', () => second.length >= 3);
    await bus.publish(topic, [{ key: 'dev', value: { i: 15 } }]);
    await eventually('one published after', () => second.length >= 4);
    expect(second.map((m) => (JSON.parse(m.value) as { i: number }).i)).toEqual([12, 13, 14, 15]);
    expect(second.map((m) => m.offset)).toEqual(['12', '13', '14', '15']);
    expect(sub2.status()).toMatchObject({ state: 'running', restarts: 0 });
    await sub2.stop();
  }, 120_000);

  it('hands over each message with its key, headers, partition, offset and timestamp', async () => {
    const topic = uniqueName('t_shape');
    await bus.ensureTopics([{ name: topic, partitions: 2 }]);
    const before = Date.now();
    await bus.publish(topic, [
      { key: 'dev-a', value: { n: 1 }, headers: { 'trace-id': 'abc', empty: '' } },
      { key: 'dev-a', value: { n: 2 } },
    ]);
    const got: ConsumedMessage[] = [];
    const sub = await bus.subscribe({
      groupId: uniqueName('g'),
      topics: [topic],
      fromBeginning: true,
      handler: async (m) => {
        got.push(...m);
      },
    });
    await eventually('both messages', () => got.length >= 2);
    await sub.stop();
    expect(got.map((m) => [m.topic, m.key, JSON.parse(m.value)])).toEqual([
      [topic, 'dev-a', { n: 1 }],
      [topic, 'dev-a', { n: 2 }],
    ]);
    expect(got[0]!.headers).toMatchObject({ 'trace-id': 'abc', empty: '' });
    expect(got[0]!.partition).toBe(got[1]!.partition);
    expect(Number(got[1]!.offset)).toBe(Number(got[0]!.offset) + 1);
    for (const m of got) expect(m.timestamp).toBeGreaterThanOrEqual(before - 1000);
  }, 60_000);
}
