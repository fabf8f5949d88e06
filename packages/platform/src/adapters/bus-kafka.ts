import { Admin, compatibilityPartitioner, ProduceAcks, Producer, stringSerializers, type BaseOptions } from '@platformatic/kafka';
import type { Logger } from '../logger';
import { counter, histogram } from '../metrics';
import type { Bus, BusMessage, ProducerStatus, SubscribeOptions, Subscription, TopicSpec } from './bus';
import { consumerLag } from './kafka-lag';
import { closeForced, retriable, SupervisedKafkaConsumer, type RestartBackoff } from './kafka-consumer';
import type { KafkaSecurity } from './store-connections';

/** Failed publishes in a row after which the producer is replaced. */
const REPLACE_AFTER_FAILURES = 3;
const producerRestarts = counter('bus_producer_restarts_total', 'Producers replaced after failed publishes', []);
/** Where a publish's time goes (issue 28, the ack latency on real parts): waiting for a send, then the send. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
const publishWait = histogram(
  'bus_publish_wait_seconds',
  'Time from a publish to the start of the send that carries it (gathered while earlier sends were in flight)',
  [],
  LATENCY_BUCKETS,
);
const sendSeconds = histogram(
  'bus_send_seconds',
  "A producer send's round trip, until every in-sync replica has it (acks=all)",
  [],
  LATENCY_BUCKETS,
);
const sendMessages = histogram('bus_send_messages', 'Messages per producer send', [], [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]);

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
  /**
   * Sends in flight at once (KAFKA_SENDS_IN_FLIGHT, default 1): that many idempotent producers
   * ("lanes"), each with one send in flight as the client allows an idempotent producer; a key
   * always takes the same lane (its murmur2 hash, as its partition), so a key's messages go out in
   * publish order through one producer. See publish().
   */
  sendsInFlight?: number;
}

interface PendingPublish {
  topic: string;
  messages: BusMessage[];
  /** performance.now() at publish: the wait before its send (bus_publish_wait_seconds) */
  at: number;
  settle: (err?: Error) => void;
}

/** One idempotent producer with the publishes gathered for its next send. */
class Lane {
  producer: JsonProducer | undefined;
  producerReady: Promise<JsonProducer> | undefined;
  pending: PendingPublish[] = [];
  flushing = false;
  /** this lane's failed sends in a row (its producer is replaced after REPLACE_AFTER_FAILURES) */
  failuresInRow = 0;
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
  private readonly lanes: Lane[];
  private admin: Admin | undefined;
  private readonly consumers = new Set<SupervisedKafkaConsumer>();
  private producerState: ProducerStatus = { state: 'idle', restarts: 0 };
  private probing = false;
  private closed = false;
  private readonly ns: string;

  constructor(private readonly opts: KafkaBusOptions) {
    this.ns = opts.namespace ? `${opts.namespace}.` : '';
    this.maxReadyLag = opts.maxReadyLag;
    this.lanes = Array.from({ length: Math.max(1, Math.floor(opts.sendsInFlight ?? 1)) }, () => new Lane());
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

  private getProducer(lane: Lane): Promise<JsonProducer> {
    if (!lane.producerReady) {
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
          if (lane.producerReady !== ready) {
            void producer.close().catch(() => undefined);
            throw new Error('producer replaced while connecting');
          }
          lane.producer = producer;
          return producer;
        },
        (err: unknown) => {
          if (lane.producerReady === ready) lane.producerReady = undefined;
          void producer.close().catch(() => undefined);
          throw err;
        },
      );
      lane.producerReady = ready;
    }
    return lane.producerReady;
  }

  /**
   * Publishes are gathered while a send is in flight and go out together in one send (sending each
   * call alone would serialize every device's ack behind the previous one). Each caller resolves
   * when its own messages are acknowledged by all in-sync replicas, and rejects if a send failed or
   * its deadline passed. With several lanes (sendsInFlight) a publish's messages go to their keys'
   * lanes, whose sends are in flight side by side: a fix no longer waits for a send of other
   * devices' fixes and the one after it; the publish resolves once every lane it used confirmed.
   */
  publish(topic: string, messages: BusMessage[]): Promise<void> {
    if (!messages.length) return Promise.resolve();
    const timeout = this.opts.publishTimeoutMs ?? 15000;
    return new Promise<void>((resolve, reject) => {
      const byLane = this.splitByLane(messages);
      let outstanding = byLane.size;
      let done = false;
      const finish = (err?: Error): void => {
        if (done) return;
        if (err || --outstanding === 0) {
          done = true;
          clearTimeout(timer);
          if (err) reject(err);
          else resolve();
        }
      };
      const timer = setTimeout(() => finish(new Error(`publish to ${topic} timed out after ${timeout} ms`)), timeout);
      const at = performance.now();
      for (const [lane, part] of byLane) {
        lane.pending.push({ topic, messages: part, at, settle: finish });
        if (!lane.flushing) {
          lane.flushing = true;
          setImmediate(() => void this.flush(lane));
        }
      }
    });
  }

  /** Each lane's share of the messages, in their order; a key always maps to the same lane. */
  private splitByLane(messages: BusMessage[]): Map<Lane, BusMessage[]> {
    if (this.lanes.length === 1) return new Map([[this.lanes[0]!, messages]]);
    const byLane = new Map<Lane, BusMessage[]>();
    for (const m of messages) {
      const lane = this.lanes[compatibilityPartitioner(undefined as never, Buffer.from(m.key)) % this.lanes.length]!;
      const part = byLane.get(lane);
      if (part) part.push(m);
      else byLane.set(lane, [m]);
    }
    return byLane;
  }

  private async flush(lane: Lane): Promise<void> {
    const timeout = this.opts.publishTimeoutMs ?? 15000;
    try {
      while (lane.pending.length) {
        const batch = lane.pending.splice(0, lane.pending.length);
        try {
          const producer = await this.getProducer(lane);
          const messages = batch.flatMap((p) =>
            p.messages.map((m) => ({ topic: this.ns + p.topic, key: m.key, value: JSON.stringify(m.value), headers: m.headers })),
          );
          const start = performance.now();
          for (const p of batch) publishWait.observe((start - p.at) / 1000);
          sendMessages.observe(messages.length);
          // a send the client keeps retrying past the callers' deadline fails here, so the next
          // batch goes to a new producer instead of queueing behind it
          await withDeadline(producer.send({ messages }), timeout, 'send');
          sendSeconds.observe((performance.now() - start) / 1000);
          this.published(lane);
          for (const p of batch) p.settle();
        } catch (err) {
          const error = err instanceof Error ? err : new Error(String(err));
          this.publishFailed(lane, error);
          for (const p of batch) p.settle(error);
        }
      }
    } finally {
      lane.flushing = false;
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

  private published(lane: Lane): void {
    lane.failuresInRow = 0;
    // ok once no lane's last send failed (a broker that is down fails every lane)
    if (this.producerState.state !== 'ok' && this.lanes.every((l) => l.failuresInRow === 0))
      this.producerState = { state: 'ok', restarts: this.producerState.restarts };
  }

  private publishFailed(lane: Lane, err: Error): void {
    lane.failuresInRow++;
    const since = this.producerState.state === 'failing' ? this.producerState.failingSince : new Date().toISOString();
    this.producerState = {
      state: 'failing',
      failingSince: since,
      lastError: `${err.name}: ${err.message}`,
      restarts: this.producerState.restarts,
    };
    if (lane.failuresInRow === 1 || lane.failuresInRow % 20 === 0)
      this.opts.logger.warn({ err, failuresInRow: lane.failuresInRow, lane: this.lanes.indexOf(lane) }, 'publish failed');
    // a producer that keeps failing, failed for good (its idempotence state lost when the broker was
    // killed) or still has a send in flight past the deadline is replaced: the next batch gets a new one
    if (lane.failuresInRow % REPLACE_AFTER_FAILURES === 0 || !retriable(err) || err instanceof DeadlineError) this.replaceProducer(lane);
    this.probeProducer();
  }

  private replaceProducer(lane: Lane): void {
    const old = lane.producer;
    lane.producer = undefined;
    lane.producerReady = undefined;
    if (old) {
      void closeForced(old).catch(() => undefined);
      producerRestarts.inc();
      this.producerState = { ...this.producerState, restarts: this.producerState.restarts + 1 };
    }
  }

  /**
   * While publishes fail, a probe replaces the producer of each lane whose last send failed with a
   * new one and connects it, with backoff, whenever that lane has no send in flight. A connected new producer ends the failing state even
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
        // the lanes whose last send failed and that have none in flight
        const failed = this.lanes.filter((l) => l.failuresInRow > 0 && !l.flushing);
        if (this.closed || this.producerState.state !== 'failing' || !failed.length) continue;
        for (const lane of failed) this.replaceProducer(lane);
        try {
          await Promise.all(failed.map((lane) => this.getProducer(lane)));
        } catch (err) {
          this.opts.logger.debug({ err, attempt }, 'producer reconnect failed; trying again');
          continue;
        }
        this.opts.logger.info(
          { failingSince: this.producerState.failingSince },
          'producer replaced and reconnected after failed publishes',
        );
        for (const lane of failed) lane.failuresInRow = 0;
        if (this.producerState.state === 'failing' && this.lanes.every((l) => l.failuresInRow === 0))
          this.producerState = { state: 'ok', restarts: this.producerState.restarts };
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
    await Promise.allSettled(this.lanes.map((lane) => (lane.producer ? closeForced(lane.producer) : undefined)));
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
