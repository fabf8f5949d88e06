import { Kafka, logLevel, type Admin, type Consumer, type Producer, CompressionTypes } from 'kafkajs';
import type { Logger } from '../logger';
import type { Bus, BusMessage, ConsumedMessage, SubscribeOptions, Subscription, TopicSpec } from './bus';

export interface KafkaBusOptions {
  brokers: string[];
  clientId: string;
  logger: Logger;
  /** How long a publish may wait for the broker before it fails (the caller then answers 503). */
  publishTimeoutMs?: number;
  defaultPartitions?: number;
  /** Prefix for every topic and consumer group (test isolation on a shared broker). */
  namespace?: string;
}

const toPino = (level: logLevel): 'error' | 'warn' | 'info' | 'debug' =>
  level === logLevel.ERROR || level === logLevel.NOTHING ? 'error' : level === logLevel.WARN ? 'warn' : level === logLevel.INFO ? 'info' : 'debug';

/** Apache Kafka through kafkajs. Publishes with acks=all and an idempotent producer. */
export class KafkaBus implements Bus {
  readonly kind = 'kafka' as const;
  private readonly kafka: Kafka;
  private producer: Producer | undefined;
  private producerReady: Promise<Producer> | undefined;
  private admin: Admin | undefined;
  private readonly consumers = new Set<Consumer>();
  private readonly ns: string;
  private pending: { topic: string; messages: BusMessage[]; resolve: () => void; reject: (err: Error) => void }[] = [];
  private flushing = false;

  constructor(private readonly opts: KafkaBusOptions) {
    this.ns = opts.namespace ? `${opts.namespace}.` : '';
    const log = opts.logger.child({ component: 'kafkajs' });
    this.kafka = new Kafka({
      clientId: opts.clientId,
      brokers: opts.brokers,
      connectionTimeout: 3000,
      requestTimeout: 10000,
      retry: { initialRetryTime: 200, retries: 5, maxRetryTime: 3000 },
      logLevel: logLevel.WARN,
      logCreator: () => ({ namespace, level, log: entry }) => {
        const { message, ...extra } = entry;
        log[toPino(level)]({ ...extra, namespace }, message);
      },
    });
  }

  private async getAdmin(): Promise<Admin> {
    if (!this.admin) {
      const admin = this.kafka.admin();
      await admin.connect();
      this.admin = admin;
    }
    return this.admin;
  }

  /**
   * Creates missing topics and waits until the broker serves them. Retried: right after a
   * creation the broker may briefly answer "does not host this topic-partition" to metadata
   * requests, and several processes may create the same topics at once.
   */
  async ensureTopics(specs: TopicSpec[]): Promise<void> {
    const wanted = specs.map((s) => ({ ...s, name: this.ns + s.name }));
    for (let attempt = 1; ; attempt++) {
      try {
        const admin = await this.getAdmin();
        const existing = new Set(await admin.listTopics());
        const missing = wanted.filter((s) => !existing.has(s.name));
        if (missing.length) {
          await admin.createTopics({
            waitForLeaders: true,
            topics: missing.map((s) => ({
              topic: s.name,
              numPartitions: s.partitions ?? this.opts.defaultPartitions ?? 4,
              replicationFactor: -1,
              configEntries: s.compacted ? [{ name: 'cleanup.policy', value: 'compact' }] : [],
            })),
          });
        }
        await admin.fetchTopicMetadata({ topics: wanted.map((s) => s.name) });
        return;
      } catch (err) {
        if (attempt >= 8) throw err;
        this.opts.logger.debug({ err, attempt }, 'topics not ready yet; retrying');
        await new Promise((r) => setTimeout(r, 250 * attempt));
      }
    }
  }

  private getProducer(): Promise<Producer> {
    if (!this.producerReady) {
      const producer = this.kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: true });
      this.producerReady = producer.connect().then(
        () => {
          this.producer = producer;
          return producer;
        },
        (err: unknown) => {
          this.producerReady = undefined;
          throw err;
        },
      );
    }
    return this.producerReady;
  }

  /**
   * Publishes are gathered while a send is in flight and go out together in one sendBatch (the
   * idempotent producer allows one request in flight, so sending each call alone would serialize
   * every device's ack behind the previous one). Each caller resolves when its own messages are
   * acknowledged by all in-sync replicas, and rejects if the batch failed or its deadline passed.
   */
  publish(topic: string, messages: BusMessage[]): Promise<void> {
    if (!messages.length) return Promise.resolve();
    const timeout = this.opts.publishTimeoutMs ?? 15000;
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`publish to ${topic} timed out after ${timeout} ms`)), timeout);
      this.pending.push({
        topic,
        messages,
        resolve: () => { clearTimeout(timer); resolve(); },
        reject: (err) => { clearTimeout(timer); reject(err); },
      });
      if (!this.flushing) {
        this.flushing = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    try {
      while (this.pending.length) {
        const batch = this.pending.splice(0, this.pending.length);
        try {
          const producer = await this.getProducer();
          const byTopic = new Map<string, { key: string; value: string; headers?: Record<string, string> }[]>();
          for (const p of batch) {
            const list = byTopic.get(p.topic) ?? [];
            for (const m of p.messages) list.push({ key: m.key, value: JSON.stringify(m.value), headers: m.headers });
            byTopic.set(p.topic, list);
          }
          await producer.sendBatch({
            acks: -1,
            compression: CompressionTypes.None,
            topicMessages: [...byTopic].map(([t, msgs]) => ({ topic: this.ns + t, messages: msgs })),
          });
          for (const p of batch) p.resolve();
        } catch (err) {
          for (const p of batch) p.reject(err instanceof Error ? err : new Error(String(err)));
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  async subscribe(opts: SubscribeOptions): Promise<Subscription> {
    const consumer = this.kafka.consumer({
      groupId: this.ns + opts.groupId,
      sessionTimeout: 15000,
      heartbeatInterval: 1000,
      rebalanceTimeout: 20000,
      // a short fetch wait keeps flag latency low and lets a consumer stop in well under a second
      maxWaitTimeInMs: 500,
      retry: { retries: Number.MAX_SAFE_INTEGER, initialRetryTime: 300, maxRetryTime: 5000 },
    });
    await consumer.connect();
    for (const topic of opts.topics) await consumer.subscribe({ topic: this.ns + topic, fromBeginning: opts.fromBeginning ?? false });
    this.consumers.add(consumer);
    await consumer.run({
      autoCommit: true,
      eachBatchAutoResolve: true,
      eachBatch: async ({ batch, heartbeat }) => {
        const msgs: ConsumedMessage[] = batch.messages.map((m) => ({
          topic: batch.topic.slice(this.ns.length),
          partition: batch.partition,
          offset: m.offset,
          key: m.key?.toString() ?? '',
          value: m.value?.toString() ?? 'null',
          headers: Object.fromEntries(Object.entries(m.headers ?? {}).map(([k, v]) => [k, String(v)])),
          timestamp: Number(m.timestamp),
        }));
        await opts.handler(msgs);
        await heartbeat();
      },
    });
    return {
      stop: async () => {
        this.consumers.delete(consumer);
        await consumer.disconnect();
      },
    };
  }

  async ping(): Promise<void> {
    const admin = await this.getAdmin();
    await admin.describeCluster();
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.consumers].map((c) => c.disconnect()));
    this.consumers.clear();
    if (this.producer) await this.producer.disconnect().catch(() => undefined);
    if (this.admin) await this.admin.disconnect().catch(() => undefined);
  }
}
