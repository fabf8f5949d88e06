import { ListOffsetTimestamps, type Admin } from '@platformatic/kafka';
import type { ConsumerLag, SubscribeOptions } from './bus';

/** Offsets by partition of one topic. */
export type PartitionOffsets = Map<number, number>;

/** The number of partitions of each topic, from the cluster's metadata (fresh, not cached). */
async function partitionCounts(admin: Admin, topics: string[]): Promise<Map<string, number>> {
  const meta = await admin.metadata({ topics, forceUpdate: true });
  return new Map(topics.map((t) => [t, meta.topics.get(t)?.partitionsCount ?? 0]));
}

/** The newest (`latest`) or oldest retained (`earliest`) offset of every partition of each topic. */
export async function topicOffsets(
  admin: Admin,
  topics: string[],
  which: 'latest' | 'earliest' = 'latest',
): Promise<Map<string, PartitionOffsets>> {
  const counts = await partitionCounts(admin, topics);
  const timestamp = which === 'latest' ? ListOffsetTimestamps.LATEST : ListOffsetTimestamps.EARLIEST;
  const listed = await admin.listOffsets({
    topics: topics.map((name) => ({
      name,
      partitions: Array.from({ length: counts.get(name) ?? 0 }, (_, partitionIndex) => ({ partitionIndex, timestamp })),
    })),
  });
  return new Map(
    topics.map((t) => [t, new Map((listed.find((l) => l.name === t)?.partitions ?? []).map((p) => [p.partitionIndex, Number(p.offset)]))]),
  );
}

/** A group's committed offsets (the next offset it will read) per partition of each topic; a partition without one is absent. */
export async function committedOffsets(admin: Admin, groupId: string, topics: string[]): Promise<Map<string, PartitionOffsets>> {
  const counts = await partitionCounts(admin, topics);
  const [group] = await admin.listConsumerGroupOffsets({
    groups: [
      { groupId, topics: topics.map((name) => ({ name, partitionIndexes: Array.from({ length: counts.get(name) ?? 0 }, (_, i) => i) })) },
    ],
  });
  return new Map(
    topics.map((t) => [
      t,
      new Map(
        (group?.topics.find((g) => g.name === t)?.partitions ?? [])
          .filter((p) => p.committedOffset >= 0n)
          .map((p) => [p.partitionIndex, Number(p.committedOffset)]),
      ),
    ]),
  );
}

/**
 * A group's lag per topic: the newest offsets minus its committed ones. A partition the group has
 * not committed on counts from where the group will start reading it: the oldest retained message
 * (fromBeginning) or the newest.
 */
export async function consumerLag(
  admin: Admin,
  ns: string,
  opts: Pick<SubscribeOptions, 'groupId' | 'topics' | 'fromBeginning'>,
): Promise<ConsumerLag> {
  const topics = opts.topics.map((t) => ns + t);
  const [ends, starts, committed] = await Promise.all([
    topicOffsets(admin, topics, 'latest'),
    opts.fromBeginning ? topicOffsets(admin, topics, 'earliest') : undefined,
    committedOffsets(admin, ns + opts.groupId, topics),
  ]);
  const out: ConsumerLag = {};
  for (const topic of opts.topics) {
    let sum = 0;
    for (const [partition, high] of ends.get(ns + topic) ?? []) {
      const from =
        committed.get(ns + topic)?.get(partition) ?? (opts.fromBeginning ? (starts?.get(ns + topic)?.get(partition) ?? 0) : high);
      sum += Math.max(0, high - from);
    }
    out[topic] = sum;
  }
  return out;
}
