/**
 * The benchmark anchor of issue 27: the bus on kafkajs 2.2.4 as it was before the change of client
 * (packages/platform's bus-kafka.ts of commit 2c5cdec^), so tools/bench/suites/kafka-clients.ts can
 * compare the bus on @platformatic/kafka with it in one run (BUS_CLIENT=kafkajs in a bench child).
 * kafkajs is a dependency of no package: the suite installs it outside the workspace when it runs
 * (obtain-kafkajs.ts) and its child processes resolve it there (kafkajs-hooks.ts); kafkajs.d.ts
 * declares what this folder uses of it. Nothing else may import it (eslint's
 * no-restricted-imports says so), and nothing here runs in production.
 */
import { Kafka, logLevel, type Admin, type Producer, CompressionTypes } from 'kafkajs';
import type { Bus, BusMessage, Logger, ProducerStatus, SubscribeOptions, Subscription, TopicSpec } from '@corridor/platform';
import { SupervisedKafkaConsumer, type RestartBackoff } from './kafkajs-consumer';

/** Failed publishes in a row after which the producer is replaced. */
const REPLACE_AFTER_FAILURES = 3;
const producerRestarts = { inc: (): void => undefined };

export interface KafkaBusOptions {
  brokers: string[];
  clientId: string;
  logger: Logger;
  /** How long a publish may wait for the broker before it fails (the caller then answers 503). */
  publishTimeoutMs?: number;
  defaultPartitions?: number;
  /** Prefix for every topic and consumer group (test isolation on a shared broker). */
  namespace?: string;
  /** Lag past which a service's /readyz says not ready. */
  maxReadyLag?: number;
  /** Backoff of the supervisor restarting a consumer kafkajs gave up on (default 500 ms doubling to 30 s). */
  consumerRestart?: RestartBackoff;
  /** Backoff of the producer reconnecting after failed publishes (default 500 ms doubling to 10 s). */
  producerRetry?: RestartBackoff;
}

const toPino = (level: logLevel): 'error' | 'warn' | 'info' | 'debug' =>
  level === logLevel.ERROR || level === logLevel.NOTHING
    ? 'error'
    : level === logLevel.WARN
      ? 'warn'
      : level === logLevel.INFO
        ? 'info'
        : 'debug';

/** Apache Kafka through kafkajs. Publishes with acks=all and an idempotent producer. */
export class KafkajsBus implements Bus {
  readonly kind = 'kafka' as const;
  readonly client = 'kafkajs';
  readonly maxReadyLag: number | undefined;
  private readonly kafka: Kafka;
  private producer: Producer | undefined;
  private producerReady: Promise<Producer> | undefined;
  private admin: Admin | undefined;
  private adminReady: Promise<Admin> | undefined;
  private readonly consumers = new Set<SupervisedKafkaConsumer>();
  private producerState: ProducerStatus = { state: 'idle', restarts: 0 };
  private failuresInRow = 0;
  private probing = false;
  private closed = false;
  private readonly ns: string;
  private pending: { topic: string; messages: BusMessage[]; resolve: () => void; reject: (err: Error) => void }[] = [];
  private flushing = false;

  constructor(private readonly opts: KafkaBusOptions) {
    this.ns = opts.namespace ? `${opts.namespace}.` : '';
    this.maxReadyLag = opts.maxReadyLag;
    const log = opts.logger.child({ component: 'kafkajs' });
    this.kafka = new Kafka({
      clientId: opts.clientId,
      brokers: opts.brokers,
      connectionTimeout: 3000,
      requestTimeout: 10000,
      retry: { initialRetryTime: 200, retries: 5, maxRetryTime: 3000 },
      logLevel: logLevel.WARN,
      logCreator:
        () =>
        ({ namespace, level, log: entry }) => {
          const { message, ...extra } = entry;
          log[toPino(level)]({ ...extra, namespace }, message);
        },
    });
  }

  private getAdmin(): Promise<Admin> {
    if (!this.adminReady) {
      const admin = this.kafka.admin();
      this.adminReady = admin.connect().then(
        () => {
          this.admin = admin;
          return admin;
        },
        (err: unknown) => {
          this.adminReady = undefined;
          throw err;
        },
      );
    }
    return this.adminReady;
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
              configEntries: s.compacted
                ? [{ name: 'cleanup.policy', value: 'compact' }]
                : s.retentionMs
                  ? [{ name: 'retention.ms', value: String(s.retentionMs) }]
                  : [],
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
      const ready: Promise<Producer> = producer.connect().then(
        () => {
          // replaced while connecting (replaceProducer): this one is not used
          if (this.producerReady !== ready) {
            void producer.disconnect().catch(() => undefined);
            throw new Error('producer replaced while connecting');
          }
          this.producer = producer;
          return producer;
        },
        (err: unknown) => {
          if (this.producerReady === ready) this.producerReady = undefined;
          void producer.disconnect().catch(() => undefined);
          throw err;
        },
      );
      this.producerReady = ready;
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
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
        reject: (err) => {
          clearTimeout(timer);
          reject(err);
        },
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
          this.published();
          for (const p of batch) p.resolve();
        } catch (err) {
          const error = err instanceof Error ? err : new Error(String(err));
          this.publishFailed(error);
          for (const p of batch) p.reject(error);
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  /** A supervised consumer (kafka-consumer.ts): restarted after any crash until stop(). */
  async subscribe(opts: SubscribeOptions): Promise<Subscription> {
    const consumer = new SupervisedKafkaConsumer({
      kafka: this.kafka,
      ns: this.ns,
      opts,
      config: {
        sessionTimeout: 15000,
        heartbeatInterval: 1000,
        rebalanceTimeout: 20000,
        // a short fetch wait keeps flag latency low and lets a consumer stop in well under a second
        maxWaitTimeInMs: 500,
        retry: { retries: Number.MAX_SAFE_INTEGER, initialRetryTime: 300, maxRetryTime: 5000 },
      },
      admin: () => this.getAdmin(),
      logger: this.opts.logger,
      backoff: this.opts.consumerRestart ?? { initialMs: 500, maxMs: 30_000 },
    });
    await consumer.start();
    this.consumers.add(consumer);
    return {
      groupId: consumer.groupId,
      status: () => consumer.status(),
      lag: () => consumer.lag(),
      stop: async () => {
        this.consumers.delete(consumer);
        await consumer.stop();
      },
    };
  }

  producerStatus(): ProducerStatus {
    return { ...this.producerState };
  }

  private published(): void {
    this.failuresInRow = 0;
    if (this.producerState.state !== 'ok') this.producerState = { state: 'ok', restarts: this.producerState.restarts };
  }

  private publishFailed(err: Error): void {
    this.failuresInRow++;
    const since = this.producerState.state === 'failing' ? this.producerState.failingSince : new Date().toISOString();
    this.producerState = {
      state: 'failing',
      failingSince: since,
      lastError: `${err.name}: ${err.message}`,
      restarts: this.producerState.restarts,
    };
    if (this.failuresInRow === 1 || this.failuresInRow % 20 === 0)
      this.opts.logger.warn({ err, failuresInRow: this.failuresInRow }, 'publish failed');
    // a producer that keeps failing (or failed for good, e.g. its idempotence state lost when the
    // broker was killed) is replaced: the next batch gets a new one (no other send is in flight here)
    if (this.failuresInRow % REPLACE_AFTER_FAILURES === 0 || (err as { retriable?: boolean }).retriable === false) this.replaceProducer();
    this.probeProducer();
  }

  private replaceProducer(): void {
    const old = this.producer;
    this.producer = undefined;
    this.producerReady = undefined;
    if (old) {
      void old.disconnect().catch(() => undefined);
      producerRestarts.inc();
      this.producerState = { ...this.producerState, restarts: this.producerState.restarts + 1 };
    }
  }

  /**
   * While publishes fail, a probe replaces the producer with a new one and connects it, with
   * backoff, whenever no publish is in flight. A connected new producer ends the failing state even
   * when nothing is being published: a service that publishes rarely must not stay unready for
   * want of a publish to prove the bus is back (the next publish that fails makes it failing again).
   */
  private probeProducer(): void {
    if (this.probing || this.closed) return;
    this.probing = true;
    const { initialMs, maxMs } = this.opts.producerRetry ?? { initialMs: 500, maxMs: 10_000 };
    void (async () => {
      for (let attempt = 0; !this.closed && this.producerState.state === 'failing'; attempt++) {
        await new Promise((r) => setTimeout(r, Math.min(maxMs, initialMs * 2 ** attempt)).unref());
        if (this.closed || this.producerState.state !== 'failing' || this.flushing) continue;
        this.replaceProducer();
        try {
          await this.getProducer();
        } catch (err) {
          this.opts.logger.debug({ err, attempt }, 'producer reconnect failed; trying again');
          continue;
        }
        this.opts.logger.info(
          { failingSince: this.producerState.failingSince },
          'producer replaced and reconnected after failed publishes',
        );
        this.failuresInRow = 0;
        if (this.producerState.state === 'failing') this.producerState = { state: 'ok', restarts: this.producerState.restarts };
      }
    })().finally(() => {
      this.probing = false;
    });
  }

  async ping(): Promise<void> {
    const admin = await this.getAdmin();
    await admin.describeCluster();
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.consumers].map((c) => c.stop()));
    this.consumers.clear();
    if (this.producer) await this.producer.disconnect().catch(() => undefined);
    if (this.admin) await this.admin.disconnect().catch(() => undefined);
  }
}

/** The anchor bus with the options the tests' and benchmarks' adapters give a bus. */
export const kafkajsBus = (o: { brokers: string[]; clientId: string; logger: Logger; namespace: string }): KafkajsBus => new KafkajsBus(o);
