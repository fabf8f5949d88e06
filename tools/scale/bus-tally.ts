import { randomUUID } from 'node:crypto';
import { Consumer, MessagesStreamModes, stringDeserializers, type Admin } from '@platformatic/kafka';
import { closeForced, topicOffsets } from '@corridor/platform';

/** The end offset of each partition of a topic, now. */
export async function endOffsets(admin: Admin, topic: string): Promise<Map<number, number>> {
  return (await topicOffsets(admin, [topic], 'latest')).get(topic) ?? new Map();
}

/**
 * Every message of a topic from `from` (offsets by partition; default the beginning) up to `to` (default its end offsets at the time of the call),
 * counted by the `id` of its JSON value: how many times each id is on the bus (a fix acknowledged
 * after a producer's crash may be there twice; the stores dedupe it by id).
 */
export async function tallyTopic(
  brokers: string[],
  admin: Admin,
  topic: string,
  from = new Map<number, number>(),
  to?: Map<number, number>,
): Promise<Map<string, number>> {
  const [highs, lows] = await Promise.all([
    endOffsets(admin, topic),
    topicOffsets(admin, [topic], 'earliest').then((m) => m.get(topic) ?? new Map<number, number>()),
  ]);
  const ends = [...highs].map(([partition, high]) => ({
    partition,
    end: Math.min(high, to?.get(partition) ?? Infinity),
    start: Math.max(lows.get(partition) ?? 0, from.get(partition) ?? 0),
  }));
  const remaining = new Map(ends.filter((p) => p.end > p.start).map((p) => [p.partition, p.end]));
  const counts = new Map<string, number>();
  if (!remaining.size) return counts;
  // a group of its own reading from given offsets (no commits)
  const consumer = new Consumer({
    clientId: `scale-tally-${randomUUID()}`,
    groupId: `scale-tally-${randomUUID()}`,
    bootstrapBrokers: brokers,
    deserializers: stringDeserializers,
    autocommit: false,
  });
  try {
    const stream = await consumer.consume({
      topics: [topic],
      mode: MessagesStreamModes.MANUAL,
      autocommit: false,
      offsets: ends.map((p) => ({ topic, partition: p.partition, offset: BigInt(p.start) })),
    });
    for await (const message of stream) {
      const end = remaining.get(message.partition);
      const offset = Number(message.offset);
      if (end === undefined || offset >= end) continue;
      const id = String((JSON.parse(message.value ?? 'null') as { id?: unknown } | null)?.id);
      counts.set(id, (counts.get(id) ?? 0) + 1);
      if (offset + 1 >= end) {
        remaining.delete(message.partition);
        if (!remaining.size) break;
      }
    }
    await stream.close();
  } finally {
    await closeForced(consumer).catch(() => undefined);
  }
  return counts;
}
