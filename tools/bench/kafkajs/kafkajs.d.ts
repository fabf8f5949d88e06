/**
 * The part of kafkajs 2.2.4's API the benchmark anchor calls (bus-kafkajs.ts, kafkajs-consumer.ts),
 * declared here because kafkajs is a dependency of no package: the kafka-clients suite installs it
 * outside the workspace when it runs (obtain-kafkajs.ts). Written from kafkajs' documentation
 * (https://kafka.js.org/docs: client, producing, consuming, admin, instrumentation events); only
 * what the anchor uses, so typecheck and lint work without kafkajs installed.
 */
declare module 'kafkajs' {
  export enum logLevel {
    NOTHING = 0,
    ERROR = 1,
    WARN = 2,
    INFO = 4,
    DEBUG = 5,
  }

  export enum CompressionTypes {
    None = 0,
    GZIP = 1,
    Snappy = 2,
    LZ4 = 3,
    ZSTD = 4,
  }

  export interface RetryOptions {
    initialRetryTime?: number;
    maxRetryTime?: number;
    retries?: number;
  }

  export interface LogEntry {
    namespace: string;
    level: logLevel;
    label: string;
    log: { message: string; timestamp: string; [extra: string]: unknown };
  }

  export interface KafkaConfig {
    clientId: string;
    brokers: string[];
    connectionTimeout?: number;
    requestTimeout?: number;
    retry?: RetryOptions;
    logLevel?: logLevel;
    logCreator?: (level: logLevel) => (entry: LogEntry) => void;
  }

  export interface ProducerConfig {
    idempotent?: boolean;
    maxInFlightRequests?: number;
    allowAutoTopicCreation?: boolean;
  }

  export interface ConsumerConfig {
    groupId: string;
    sessionTimeout?: number;
    heartbeatInterval?: number;
    rebalanceTimeout?: number;
    maxWaitTimeInMs?: number;
    retry?: RetryOptions;
  }

  export interface Message {
    key?: string | Buffer | null;
    value: string | Buffer | null;
    headers?: Record<string, string | Buffer | undefined>;
  }

  export interface Producer {
    connect(): Promise<void>;
    disconnect(): Promise<void>;
    sendBatch(batch: {
      acks?: number;
      compression?: CompressionTypes;
      topicMessages: { topic: string; messages: Message[] }[];
    }): Promise<unknown[]>;
  }

  export interface Admin {
    connect(): Promise<void>;
    disconnect(): Promise<void>;
    listTopics(): Promise<string[]>;
    createTopics(options: {
      waitForLeaders?: boolean;
      topics: { topic: string; numPartitions?: number; replicationFactor?: number; configEntries?: { name: string; value: string }[] }[];
    }): Promise<boolean>;
    fetchTopicMetadata(options: { topics: string[] }): Promise<unknown>;
    describeCluster(): Promise<unknown>;
    /** The group's committed offsets ('-1' where it has none). */
    fetchOffsets(options: {
      groupId: string;
      topics: string[];
    }): Promise<{ topic: string; partitions: { partition: number; offset: string }[] }[]>;
    /** Each partition's earliest (`low`) and next (`high`, `offset`) offsets. */
    fetchTopicOffsets(topic: string): Promise<{ partition: number; offset: string; high: string; low: string }[]>;
  }

  export interface KafkaMessage {
    offset: string;
    key: Buffer | null;
    value: Buffer | null;
    timestamp: string;
    headers?: Record<string, Buffer | string | (Buffer | string)[] | undefined>;
  }

  export interface EachBatchPayload {
    batch: { topic: string; partition: number; messages: KafkaMessage[] };
    heartbeat(): Promise<void>;
  }

  export interface Consumer {
    readonly events: { readonly GROUP_JOIN: 'consumer.group_join'; readonly CRASH: 'consumer.crash' };
    connect(): Promise<void>;
    disconnect(): Promise<void>;
    subscribe(options: { topic: string; fromBeginning?: boolean }): Promise<void>;
    run(options: {
      autoCommit?: boolean;
      eachBatchAutoResolve?: boolean;
      eachBatch: (payload: EachBatchPayload) => Promise<void>;
    }): Promise<void>;
    on(event: 'consumer.group_join', listener: (event: { payload: { memberAssignment: Record<string, number[]> } }) => void): () => void;
    on(event: 'consumer.crash', listener: (event: { payload: { error: Error; restart: boolean } }) => void): () => void;
  }

  export class Kafka {
    constructor(config: KafkaConfig);
    admin(): Admin;
    producer(config?: ProducerConfig): Producer;
    consumer(config: ConsumerConfig): Consumer;
  }
}
