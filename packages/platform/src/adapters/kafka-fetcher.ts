import { ListOffsetTimestamps, type ConnectionPool, type Consumer, type GroupAssignment } from '@platformatic/kafka';
import type { ConsumedMessage } from './bus';

/** The client's consumer as the bus uses it: group membership, fetches and commits; records stay bytes until decoded here. */
export type BusConsumer = Consumer;
type FetchResponse = Awaited<ReturnType<BusConsumer['fetch']>>;

/** What one fetch brought of one partition, decoded in the bus's shape, and where the next fetch starts. */
export interface FetchedPartition {
  /** `topic:partition`, the topic with the bus's prefix. */
  tp: string;
  topic: string;
  partition: number;
  messages: ConsumedMessage[];
  /** The offset of the first message. */
  first: bigint;
  next: bigint;
}

export interface FetchLimits {
  /** Bytes a fetch brings at most (per fetch and per partition); the broker sends one batch even if larger. */
  maxBytes: number;
  /** How long the broker holds a fetch without data. */
  maxWaitTime: number;
}

/** A record batch of transaction markers (attributes bit 5), not messages. */
const IS_CONTROL = 0x20;
const OFFSET_OUT_OF_RANGE = 1;

/**
 * The partitions the group gave a member and where it reads each, fetched through the client's
 * fetch API (the client keeps the member in its group, finds each partition's leader, retries a
 * fetch and keeps a fetch session with the broker); the records are decoded straight into the
 * bus's messages. This replaces the client's message stream, which made a message object per
 * record with its own commit function, header Map, diagnostics context and metadata and passed it
 * through a Node Readable: 0.6x kafkajs' messages per CPU-second (docs/design-changes.md).
 *
 * Positions come from the group's committed offsets at each join (reset()); a partition without a
 * committed offset starts at its earliest or latest offset; an offset the broker no longer has
 * (retention deleted it) moves to the earliest or latest it has, as the subscription asks.
 */
export class PartitionFetcher {
  private positions = new Map<string, { topic: string; partition: number; offset: bigint }>();

  constructor(
    private readonly consumer: BusConsumer,
    /** A connection pool of its own: a fetch the broker holds for maxWaitTime does not delay the group's heartbeats and commits. */
    private readonly pool: ConnectionPool,
    /** The topics, with the bus's prefix. */
    private readonly topics: string[],
    private readonly ns: string,
    private readonly fromBeginning: boolean,
    private readonly limits: FetchLimits,
  ) {}

  /** How many partitions it reads. */
  get size(): number {
    return this.positions.size;
  }

  /** Reads the partitions the group gave this member at its last join from the group's committed offsets. */
  async reset(): Promise<void> {
    const wanted = new Set(this.topics);
    const mine: GroupAssignment[] = (this.consumer.assignments ?? []).filter((a) => wanted.has(a.topic) && a.partitions.length);
    const positions = new Map<string, { topic: string; partition: number; offset: bigint }>();
    if (mine.length) {
      const committed = await this.consumer.listCommittedOffsets({ topics: mine });
      let fallback: Map<string, bigint[]> | undefined;
      for (const { topic, partitions } of mine) {
        for (const partition of partitions) {
          let offset = committed.get(topic)?.[partition] ?? -1n;
          if (offset < 0n) {
            fallback ??= await this.consumer.listOffsets({
              topics: mine.map((a) => a.topic),
              timestamp: this.fromBeginning ? ListOffsetTimestamps.EARLIEST : ListOffsetTimestamps.LATEST,
            });
            offset = fallback.get(topic)?.[partition] ?? 0n;
          }
          positions.set(`${topic}:${partition}`, { topic, partition, offset });
        }
      }
    }
    this.positions = positions;
  }

  /** Whether it reads this partition (the group gave it to this member at the last join). */
  holds(tp: string): boolean {
    return this.positions.has(tp);
  }

  /**
   * Fetches what follows the current positions (one request per leader broker) and moves them past
   * what came. Resolves to the partitions that brought messages. A reset() while the fetch was
   * under way wins: its positions stay, and what came is still returned (the caller drops it).
   */
  async fetch(): Promise<FetchedPartition[]> {
    if (!this.positions.size) return [];
    const metadata = await this.consumer.metadata({ topics: this.topics });
    const byNode = new Map<
      number,
      Map<
        string,
        {
          topicId: string;
          partitions: {
            partition: number;
            fetchOffset: bigint;
            partitionMaxBytes: number;
            currentLeaderEpoch: number;
            lastFetchedEpoch: number;
          }[];
        }
      >
    >();
    const names = new Map<string, string>();
    const positions = this.positions;
    for (const { topic, partition, offset } of positions.values()) {
      const t = metadata.topics.get(topic);
      if (!t) throw new Error(`topic ${topic} is not in the cluster's metadata`);
      names.set(t.id, topic);
      const node = t.partitions[partition]?.leader ?? -1;
      const topics = byNode.get(node) ?? new Map();
      byNode.set(node, topics);
      const entry = topics.get(t.id) ?? { topicId: t.id, partitions: [] };
      topics.set(t.id, entry);
      entry.partitions.push({
        partition,
        fetchOffset: offset,
        partitionMaxBytes: this.limits.maxBytes,
        currentLeaderEpoch: -1,
        lastFetchedEpoch: -1,
      });
    }
    const responses = await Promise.all(
      [...byNode].map(([node, topics]) =>
        this.consumer
          .fetch({
            node,
            topics: [...topics.values()],
            maxBytes: this.limits.maxBytes,
            maxWaitTime: this.limits.maxWaitTime,
            minBytes: 1,
            connectionPool: this.pool,
          })
          .catch((err: unknown) => this.outOfRange(err, names, positions)),
      ),
    );
    const fetched: FetchedPartition[] = [];
    for (const response of responses) if (response) this.decode(response, names, positions, fetched);
    return fetched;
  }

  private decode(response: FetchResponse, names: Map<string, string>, positions: typeof this.positions, into: FetchedPartition[]): void {
    const ns = this.ns;
    for (const { topicId, partitions } of response.responses) {
      const topic = names.get(topicId);
      if (topic === undefined) continue;
      const busTopic = topic.slice(ns.length);
      for (const { partitionIndex: partition, records: batches } of partitions) {
        const tp = `${topic}:${partition}`;
        const position = positions.get(tp);
        // a partition the broker keeps serving from an earlier fetch session
        if (!position || !batches?.length) continue;
        const from = position.offset;
        const messages: ConsumedMessage[] = [];
        let first = -1n;
        let next = from;
        for (const batch of batches) {
          next = batch.firstOffset + BigInt(batch.lastOffsetDelta) + 1n;
          if (batch.attributes & IS_CONTROL) continue;
          for (const r of batch.records) {
            const offset = batch.firstOffset + BigInt(r.offsetDelta);
            // a batch read whole from its start (compressed batches begin before the position)
            if (offset < from) continue;
            if (first < 0n) first = offset;
            let headers: Record<string, string> = {};
            if (r.headers.length) {
              headers = {};
              for (const [k, v] of r.headers) if (k) headers[k.toString()] = v ? v.toString() : '';
            }
            messages.push({
              topic: busTopic,
              partition,
              offset: offset.toString(),
              key: r.key ? r.key.toString() : '',
              value: r.value ? r.value.toString() : 'null',
              headers,
              timestamp: Number(batch.firstTimestamp + r.timestampDelta),
            });
          }
        }
        if (next <= from) continue;
        if (this.positions === positions) position.offset = next;
        if (messages.length) into.push({ tp, topic, partition, messages, first, next });
      }
    }
  }

  /**
   * A fetch whose offset the broker no longer has (retention deleted it while the group was away)
   * moves those partitions to the earliest offset the broker has (or its latest, for a subscription
   * that starts at the latest): from the fetch's answer, or asked for when the answer does not say
   * (Kafka answers -1 there); any other error is the caller's.
   */
  private async outOfRange(err: unknown, names: Map<string, string>, positions: typeof this.positions): Promise<undefined> {
    const response = (err as { response?: FetchResponse }).response;
    if (!response) throw err;
    const moved: { tp: string; topic: string; partition: number; offset: bigint }[] = [];
    for (const { topicId, partitions } of response.responses) {
      const topic = names.get(topicId);
      for (const p of partitions) {
        if (p.errorCode === 0) continue;
        if (p.errorCode !== OFFSET_OUT_OF_RANGE || topic === undefined) throw err;
        const offset = this.fromBeginning ? p.logStartOffset : p.highWatermark;
        moved.push({ tp: `${topic}:${p.partitionIndex}`, topic, partition: p.partitionIndex, offset });
      }
    }
    if (!moved.length) throw err;
    const unknown = moved.filter((m) => m.offset < 0n);
    if (unknown.length) {
      const topics = [...new Set(unknown.map((m) => m.topic))];
      const offsets = await this.consumer.listOffsets({
        topics,
        timestamp: this.fromBeginning ? ListOffsetTimestamps.EARLIEST : ListOffsetTimestamps.LATEST,
      });
      for (const m of unknown) m.offset = offsets.get(m.topic)?.[m.partition] ?? -1n;
    }
    for (const { tp, offset } of moved) {
      const position = positions.get(tp);
      if (offset >= 0n && position && this.positions === positions) position.offset = offset;
    }
    return undefined;
  }
}
