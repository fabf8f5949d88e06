/** The event bus: Kafka in production, an in-process bus with the same semantics by default. */
export interface BusMessage {
  /** Partition key (device id for positions/events). Same key → same partition → ordered. */
  key: string;
  /** Serialized as JSON. */
  value: unknown;
  headers?: Record<string, string>;
}

export interface ConsumedMessage {
  topic: string;
  partition: number;
  offset: string;
  key: string;
  /** The JSON text as published. */
  value: string;
  headers: Record<string, string>;
  timestamp: number;
}

export interface TopicSpec {
  name: string;
  partitions?: number;
  compacted?: boolean;
}

export interface SubscribeOptions {
  groupId: string;
  topics: string[];
  /** Start from the oldest retained message when the group has no committed offset. */
  fromBeginning?: boolean;
  /**
   * Called with messages of one partition, in order. Offsets are committed only after it resolves;
   * if it throws, the same messages are delivered again (at least once).
   */
  handler: (messages: ConsumedMessage[]) => Promise<void>;
}

export interface Subscription {
  stop(): Promise<void>;
}

export interface Bus {
  readonly kind: 'kafka' | 'memory';
  ensureTopics(topics: TopicSpec[]): Promise<void>;
  /** Resolves only once the messages are durable (Kafka: acks=all). Rejects when the bus is down. */
  publish(topic: string, messages: BusMessage[]): Promise<void>;
  subscribe(opts: SubscribeOptions): Promise<Subscription>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Stable partitioner shared by the in-process bus (FNV-1a); Kafka uses its own murmur2. */
export function partitionFor(key: string, partitions: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % partitions;
}
