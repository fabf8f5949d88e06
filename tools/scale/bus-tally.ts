import { randomUUID } from 'node:crypto';
import { Kafka, logLevel, type Admin } from 'kafkajs';

/** The end offset of each partition of a topic, now. */
export async function endOffsets(admin: Admin, topic: string): Promise<Map<number, number>> {
  return new Map((await admin.fetchTopicOffsets(topic)).map((p) => [p.partition, Number(p.high)]));
}

/**
 * Every message of a topic from `from` (offsets by partition; default the beginning) up to `to` (default its end offsets at the time of the call),
 * counted by the `id` of its JSON value: how many times each id is on the bus (a fix acknowledged
 * after a producer's crash may be there twice; the stores dedupe it by id).
 */
export async function tallyTopic(brokers: string[], admin: Admin, topic: string, from = new Map<number, number>(), to?: Map<number, number>): Promise<Map<string, number>> {
  const ends = (await admin.fetchTopicOffsets(topic)).map((p) => ({
    partition: p.partition, end: Math.min(Number(p.high), to?.get(p.partition) ?? Infinity), start: Math.max(Number(p.low), from.get(p.partition) ?? 0),
  }));
  const starts = new Map(ends.map((p) => [p.partition, p.start]));
  const remaining = new Map(ends.filter((p) => p.end > p.start).map((p) => [p.partition, p.end]));
  const counts = new Map<string, number>();
  if (!remaining.size) return counts;
  const consumer = new Kafka({ clientId: `scale-tally-${randomUUID()}`, brokers, logLevel: logLevel.NOTHING }).consumer({ groupId: `scale-tally-${randomUUID()}` });
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    let done!: () => void;
    const finished = new Promise<void>((r) => (done = r));
    await consumer.run({
      eachMessage: async ({ partition, message }) => {
        const end = remaining.get(partition);
        if (end === undefined || Number(message.offset) >= end || Number(message.offset) < (starts.get(partition) ?? 0)) return;
        const id = String((JSON.parse(message.value?.toString() ?? 'null') as { id?: unknown } | null)?.id);
        counts.set(id, (counts.get(id) ?? 0) + 1);
        if (Number(message.offset) + 1 >= end) {
          remaining.delete(partition);
          if (!remaining.size) done();
        }
      },
    });
    await finished;
  } finally {
    await consumer.disconnect().catch(() => undefined);
  }
  return counts;
}
