/** The event bus: Kafka in production, an in-process bus with the same semantics by default. */
export interface BusMessage {
  /** Partition key (device id for positions/events). Same key → same partition → ordered. */
  key: string;
  /** Serialized as JSON. */
  value: unknown;
  headers?: Record<string, string>;
  /**
   * The id of the contract schema `value` was parsed with in this process (publishValidated sets
   * it). Only the in-process bus carries it, to the consumers of this process (its threads
   * included); Kafka never does, so whatever comes from outside the process is validated.
   */
  validatedAs?: string;
}

/** A message whose value is already JSON text (the in-process bus's publishSerialized, the thread bridge). */
export interface SerializedMessage extends Omit<BusMessage, 'value'> {
  value: string;
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
  /** In-process bus only: the schema a producer of this process parsed the value with (BusMessage.validatedAs). */
  validatedAs?: string;
}

export interface TopicSpec {
  name: string;
  partitions?: number;
  compacted?: boolean;
  /** retention.ms of a new (non-compacted) topic; the broker's default when unset. */
  retentionMs?: number | null;
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

/**
 * A consumer's life: `starting` until it first joined its group, `running` while it consumes,
 * `restarting` after a crash until it joined again (the bus restarts it with backoff), `stopped`
 * once stop() was called.
 */
export type ConsumerState = 'starting' | 'running' | 'restarting' | 'stopped';

export interface ConsumerStatus {
  groupId: string;
  topics: string[];
  state: ConsumerState;
  /** Restarts after a crash since subscribe(). */
  restarts: number;
  /** Partitions assigned to this member at its last join (0 when the group gave it none). */
  partitions: number;
  /** When the consumer entered its state (ISO 8601). */
  since: string;
  /** The error of the last crash, if any. */
  lastError?: string;
}

/** Messages a group still has to consume, per topic: the newest offsets minus its committed ones. */
export type ConsumerLag = Record<string, number>;

export interface Subscription {
  readonly groupId: string;
  stop(): Promise<void>;
  status(): ConsumerStatus;
  /** The group's lag per topic (rejects when the bus cannot tell, e.g. the broker is down). */
  lag(): Promise<ConsumerLag>;
}

/**
 * Whether publishing works: `ok` after a confirmed publish (or a reconnect after failures),
 * `failing` from a failed publish until then, `idle` before the first publish.
 */
export interface ProducerStatus {
  state: 'idle' | 'ok' | 'failing';
  /** When publishing started failing (ISO 8601). */
  failingSince?: string;
  lastError?: string;
  /** Times the producer was replaced after failures. */
  restarts: number;
}

export interface Bus {
  readonly kind: 'kafka' | 'memory';
  /** Lag (messages of a group on a topic) past which a service's /readyz says not ready (CONSUMER_MAX_READY_LAG). */
  readonly maxReadyLag?: number;
  ensureTopics(topics: TopicSpec[]): Promise<void>;
  /** Resolves only once the messages are durable (Kafka: acks=all). Rejects when the bus is down. */
  publish(topic: string, messages: BusMessage[]): Promise<void>;
  /** Starts a supervised consumer: restarted with backoff after any crash, until stop(). */
  subscribe(opts: SubscribeOptions): Promise<Subscription>;
  producerStatus(): ProducerStatus;
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
