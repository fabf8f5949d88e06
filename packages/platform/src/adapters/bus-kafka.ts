import { Admin, compatibilityPartitioner, ProduceAcks, Producer, stringSerializers, type BaseOptions } from '@platformatic/kafka';
import type { Logger } from '../logger';
import { counter } from '../metrics';
import type { Bus, BusMessage, ProducerStatus, SubscribeOptions, Subscription, TopicSpec } from './bus';
import { consumerLag } from './kafka-lag';
import { closeForced, retriable, SupervisedKafkaConsumer, type RestartBackoff } from './kafka-consumer';
import type { KafkaSecurity } from './store-connections';

/** Failed publishes in a row after which the producer is replaced. */
const REPLACE_AFTER_FAILURES = 3;
const producerRestarts = counter('bus_producer_restarts_total', 'Producers replaced after failed publishes', []);

export interface KafkaBusOptions {
  brokers: string[];
  clientId: string;
  logger: Logger;
  /** How long a publish may wait for the broker before it fails (the caller then answers 503). */
  publishTimeoutMs?: number;
  defaultPartitions?: number;
  /** Prefix for every topic and consumer group (test isolation on a shared broker). */
  namespace?: string;
  /** SASL credentials and TLS (kafkaSecurity()); none: plaintext without authentication. */
  security?: KafkaSecurity;
  /** Lag past which a service's /readyz says not ready. */
  maxReadyLag?: number;
  /** Backoff of the supervisor restarting a consumer that crashed (default 500 ms doubling to 30 s). */
  consumerRestart?: RestartBackoff;
  /** Backoff of the producer reconnecting after failed publishes (default 500 ms doubling to 10 s). */
  producerRetry?: RestartBackoff;
  /**
   * How long a consumer group waits for a member that stopped heartbeating (a killed process)
   * before its partitions go to the others: default 15 s; the broker accepts 6 s to 300 s
   * (group.min/max.session.timeout.ms).
   */
  sessionTimeoutMs?: number;
}

type JsonProducer = Producer<string, string, string, string>;

/**
 * Apache Kafka through @platformatic/kafka. Publishes with acks=all from an idempotent producer,
 * keyed messages partitioned as Kafka's Java client (and kafkajs before) partitions them, so a
 * device keeps its partition across the change of client.
 */
export class KafkaBus implements Bus {
  readonly kind = 'kafka' as const;
  /** The client library, for benchmark records. */
  readonly client = '@platformatic/kafka';
  readonly maxReadyLag: number | undefined;
  private readonly base: BaseOptions;
  private producer: JsonProducer | undefined;
  private producerReady: Promise<JsonProducer> | undefined;
  private admin: Admin | undefined;
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
    this.base = {
      clientId: opts.clientId,
      bootstrapBrokers: opts.brokers,
      ...opts.security,
      connectTimeout: 3000,
      requestTimeout: 10_000,
      // the client's own retries stay short: the bus's supervision (a new producer, a new consumer,
      // with backoff) takes over after them, as it did with kafkajs
      retries: 5,
      retryDelay: (_client, _op, attempt) => Math.min(3000, 200 * 2 ** (attempt - 1)),
    };
  }

  private getAdmin(): Admin {
    this.admin ??= new Admin({ ...this.base, clientId: `${this.opts.clientId}-admin` });
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
        const admin = this.getAdmin();
        const existing = new Set(await admin.listTopics());
        for (const s of wanted.filter((w) => !existing.has(w.name))) {
          const configs = s.compacted
            ? [{ name: 'cleanup.policy', value: 'compact' }]
            : s.retentionMs
              ? [{ name: 'retention.ms', value: String(s.retentionMs) }]
              : [];
          await admin
            .createTopics({ topics: [s.name], partitions: s.partitions ?? this.opts.defaultPartitions ?? 4, replicas: -1, configs })
            .catch((err: unknown) => {
              // another process created it meanwhile
              if (!JSON.stringify(describeError(err)).includes('TOPIC_ALREADY_EXISTS')) throw err;
            });
        }
        // every partition has a leader: the topics are served
        const meta = await admin.metadata({ topics: wanted.map((s) => s.name), forceUpdate: true });
        const leaderless = wanted.filter((s) => !meta.topics.get(s.name)?.partitions.every((p) => p.leader >= 0));
        if (leaderless.length) throw new Error(`no leader yet for ${leaderless.map((s) => s.name).join(', ')}`);
        return;
      } catch (err) {
        if (attempt >= 8) throw err;
        this.opts.logger.debug({ err, attempt }, 'topics not ready yet; retrying');
        await new Promise((r) => setTimeout(r, 250 * attempt));
      }
    }
  }

  private getProducer(): Promise<JsonProducer> {
    if (!this.producerReady) {
      const producer: JsonProducer = new Producer({
        ...this.base,
        idempotent: true,
        acks: ProduceAcks.ALL,
        autocreateTopics: true,
        partitioner: compatibilityPartitioner,
        serializers: stringSerializers,
      });
      // a producer is ready once it reached a broker (its producer id comes with the first send)
      const ready: Promise<JsonProducer> = producer.connectToBrokers(null).then(
        () => {
          // replaced while connecting (replaceProducer): this one is not used
          if (this.producerReady !== ready) {
            void producer.close().catch(() => undefined);
            throw new Error('producer replaced while connecting');
          }
          this.producer = producer;
          return producer;
        },
        (err: unknown) => {
          if (this.producerReady === ready) this.producerReady = undefined;
          void producer.close().catch(() => undefined);
          throw err;
        },
      );
      this.producerReady = ready;
    }
    return this.producerReady;
  }

  /**
   * Publishes are gathered while a send is in flight and go out together in one send (sending each
   * call alone would serialize every device's ack behind the previous one). Each caller resolves
   * when its own messages are acknowledged by all in-sync replicas, and rejects if the send failed
   * or its deadline passed.
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
    const timeout = this.opts.publishTimeoutMs ?? 15000;
    try {
      while (this.pending.length) {
        const batch = this.pending.splice(0, this.pending.length);
        try {
          const producer = await this.getProducer();
          const messages = batch.flatMap((p) =>
            p.messages.map((m) => ({ topic: this.ns + p.topic, key: m.key, value: JSON.stringify(m.value), headers: m.headers })),
          );
          // a send the client keeps retrying past the callers' deadline fails here, so the next
          // batch goes to a new producer instead of queueing behind it
          await withDeadline(producer.send({ messages }), timeout, 'send');
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
      base: this.base,
      ns: this.ns,
      opts,
      config: {
        sessionTimeout: this.opts.sessionTimeoutMs ?? 15000,
        heartbeatInterval: 1000,
        rebalanceTimeout: 20000,
        // a short fetch wait keeps flag latency low and lets a consumer stop in well under a second
        maxWaitTime: 500,
        // fetches of at most 1 MiB (the client's default is 50 MiB): a fetch that large is decoded
        // whole before its first message reaches the handler, and its buffers cost the garbage
        // collector more than the messages (bench/results/kafka-clients.json: CPU per consumed
        // message -25 %); one fetch is under way while the handler works (kafka-consumer.ts)
        maxBytes: 1_048_576,
      },
      lag: () => consumerLag(this.getAdmin(), this.ns, opts),
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
    // a producer that keeps failing, failed for good (its idempotence state lost when the broker was
    // killed) or still has a send in flight past the deadline is replaced: the next batch gets a new one
    if (this.failuresInRow % REPLACE_AFTER_FAILURES === 0 || !retriable(err) || err instanceof DeadlineError) this.replaceProducer();
    this.probeProducer();
  }

  private replaceProducer(): void {
    const old = this.producer;
    this.producer = undefined;
    this.producerReady = undefined;
    if (old) {
      void closeForced(old).catch(() => undefined);
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
    await this.getAdmin().metadata({ topics: [], forceUpdate: true });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.consumers].map((c) => c.stop()));
    this.consumers.clear();
    if (this.producer) await closeForced(this.producer).catch(() => undefined);
    if (this.admin) await this.admin.close().catch(() => undefined);
  }
}

class DeadlineError extends Error {
  override name = 'DeadlineError';
}

/** The promise, or a DeadlineError once `ms` passed (the promise's own outcome is then ignored). */
async function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  promise.catch(() => undefined);
  try {
    return await Promise.race([
      promise,
      new Promise<never>(
        (_, reject) => (timer = setTimeout(() => reject(new DeadlineError(`${what} did not finish within ${ms} ms`)), ms)),
      ),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** An error with the errors it aggregates or wraps, for matching protocol error names. */
function describeError(err: unknown): unknown {
  if (!(err instanceof Error)) return String(err);
  const e = err as Error & { errors?: unknown[]; apiId?: string };
  return {
    name: e.name,
    message: e.message,
    apiId: e.apiId,
    errors: e.errors?.map(describeError),
    cause: e.cause ? describeError(e.cause) : undefined,
  };
}
