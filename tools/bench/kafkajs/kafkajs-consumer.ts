/**
 * The supervised kafkajs consumer of before issue 27 (packages/platform's kafka-consumer.ts of
 * commit 2c5cdec^), the consumer half of the benchmark anchor in bus-kafkajs.ts. It commits after
 * each batch its handler resolved (kafkajs' autoCommit without interval or threshold). Unlike the
 * bus's consumers it does not register in the process's consumer metrics (/metrics, /readyz).
 */
import type { Admin, Consumer, ConsumerConfig, EachBatchPayload, Kafka } from 'kafkajs';
import type {
  ConsumedMessage,
  ConsumerLag,
  ConsumerState,
  ConsumerStatus,
  Logger,
  SubscribeOptions,
  Subscription,
} from '@corridor/platform';

export interface RestartBackoff {
  initialMs: number;
  maxMs: number;
}

export interface SupervisedConsumerDeps {
  kafka: Kafka;
  /** Topic and group prefix of the bus ('' or 'ns.'). */
  ns: string;
  opts: SubscribeOptions;
  config: Omit<ConsumerConfig, 'groupId'>;
  admin: () => Promise<Admin>;
  logger: Logger;
  backoff: RestartBackoff;
}

/** How often a first start is tried when kafkajs calls its error retriable (with the backoff: ~30 s at the defaults). */
const FIRST_START_ATTEMPTS = 6;

/** How long a lag reading is reused (readiness probes and scrapes may come in bursts). */
const LAG_CACHE_MS = 1000;

/**
 * A kafkajs consumer that stays alive. kafkajs restarts a consumer itself after a crash it deems
 * retriable (CRASH with restart=true), but not after a non-retriable one: `Failed to find group
 * coordinator` while a broker restarts, or a TypeError thrown by a handler, leave the consumer
 * disconnected for good. This supervisor watches CRASH: it counts and logs every crash, and when
 * kafkajs will not restart, it starts a new consumer of the same group and topics with backoff
 * (doubling from backoff.initialMs to backoff.maxMs, reset once the group is joined again) until
 * stop(). The new consumer resumes from the group's committed offsets, so the batch in hand at the
 * crash is delivered again (at least once, as always).
 */
export class SupervisedKafkaConsumer implements Subscription {
  readonly groupId: string;
  private consumer: Consumer | undefined;
  private state: ConsumerState = 'starting';
  private since = new Date();
  private lastError: string | undefined;
  private restarts = 0;
  private partitions = 0;
  private failedRestarts = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private lagCache: { at: number; value: Promise<ConsumerLag> } | undefined;
  private readonly log: Logger;

  constructor(private readonly deps: SupervisedConsumerDeps) {
    this.groupId = deps.opts.groupId;
    this.log = deps.logger.child({ consumer: this.groupId, topics: deps.opts.topics });
  }

  /**
   * Connects, subscribes and runs the first consumer. An error kafkajs calls retriable (a topic whose
   * partitions have no leader yet on a fresh broker: "This server does not host this topic-partition")
   * is retried with the backoff, at most FIRST_START_ATTEMPTS times; any other error, or the last
   * one, rejects (the caller decides, and a service does not start).
   */
  async start(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.launch();
        break;
      } catch (err) {
        if (this.stopped || attempt >= FIRST_START_ATTEMPTS || !retriable(err)) throw err;
        const { initialMs, maxMs } = this.deps.backoff;
        const delay = Math.min(maxMs, initialMs * 2 ** (attempt - 1));
        this.setState('starting', describe(err));
        this.log.warn({ err, attempt, delayMs: delay }, 'consumer start failed on a retriable error; trying again');
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  status(): ConsumerStatus {
    return {
      groupId: this.groupId,
      topics: this.deps.opts.topics,
      state: this.state,
      restarts: this.restarts,
      partitions: this.partitions,
      since: this.since.toISOString(),
      ...(this.lastError ? { lastError: this.lastError } : {}),
    };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.setState('stopped');
    await this.consumer?.disconnect().catch(() => undefined);
  }

  lag(): Promise<ConsumerLag> {
    const now = Date.now();
    if (!this.lagCache || now - this.lagCache.at > LAG_CACHE_MS) {
      const value = this.readLag();
      value.catch(() => undefined);
      this.lagCache = { at: now, value };
    }
    return this.lagCache.value;
  }

  private async readLag(): Promise<ConsumerLag> {
    const { ns, opts } = this.deps;
    const admin = await this.deps.admin();
    const committed = await admin.fetchOffsets({ groupId: ns + opts.groupId, topics: opts.topics.map((t) => ns + t) });
    const out: ConsumerLag = {};
    await Promise.all(
      opts.topics.map(async (topic) => {
        const ends = await admin.fetchTopicOffsets(ns + topic);
        const mine = new Map((committed.find((c) => c.topic === ns + topic)?.partitions ?? []).map((p) => [p.partition, Number(p.offset)]));
        out[topic] = ends.reduce((sum, p) => {
          const high = Number(p.high);
          const at = mine.get(p.partition) ?? -1;
          // a group without a committed offset starts at the oldest message, or at the newest
          const from = at >= 0 ? at : opts.fromBeginning ? Number(p.low) : high;
          return sum + Math.max(0, high - from);
        }, 0);
      }),
    );
    return out;
  }

  private setState(state: ConsumerState, error?: string): void {
    if (this.state === 'stopped') return;
    if (state !== this.state) this.since = new Date();
    this.state = state;
    if (error !== undefined) this.lastError = error;
  }

  private async launch(): Promise<void> {
    const { kafka, ns, opts, config } = this.deps;
    const consumer = kafka.consumer({ ...config, groupId: ns + opts.groupId });
    this.consumer = consumer;
    consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
      if (this.consumer !== consumer) return;
      this.partitions = Object.values(payload.memberAssignment).reduce((n, ps) => n + ps.length, 0);
      this.failedRestarts = 0;
      this.setState('running');
    });
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      if (this.consumer === consumer) this.crashed(consumer, payload.error, payload.restart);
    });
    try {
      await consumer.connect();
      for (const topic of opts.topics) await consumer.subscribe({ topic: ns + topic, fromBeginning: opts.fromBeginning ?? false });
      await consumer.run({
        autoCommit: true,
        eachBatchAutoResolve: true,
        eachBatch: (payload) => this.eachBatch(payload),
      });
    } catch (err) {
      await consumer.disconnect().catch(() => undefined);
      throw err;
    }
  }

  private async eachBatch({ batch, heartbeat }: EachBatchPayload): Promise<void> {
    const { ns, opts } = this.deps;
    const msgs: ConsumedMessage[] = batch.messages.map((m) => ({
      topic: batch.topic.slice(ns.length),
      partition: batch.partition,
      offset: m.offset,
      key: m.key?.toString() ?? '',
      value: m.value?.toString() ?? 'null',
      headers: Object.fromEntries(Object.entries(m.headers ?? {}).map(([k, v]) => [k, String(v)])),
      timestamp: Number(m.timestamp),
    }));
    await opts.handler(msgs);
    await heartbeat();
  }

  private crashed(consumer: Consumer, error: Error, kafkajsRestarts: boolean): void {
    if (this.stopped) return;
    this.restarts++;
    this.setState('restarting', describe(error));
    if (kafkajsRestarts) {
      this.log.warn({ err: error, restarts: this.restarts }, 'consumer crashed; kafkajs restarts it');
      return;
    }
    this.log.error({ err: error, restarts: this.restarts }, 'consumer crashed and kafkajs gave it up; the supervisor restarts it');
    this.scheduleRestart(consumer);
  }

  private scheduleRestart(old: Consumer): void {
    const { initialMs, maxMs } = this.deps.backoff;
    const delay = Math.min(maxMs, initialMs * 2 ** this.failedRestarts);
    this.failedRestarts++;
    this.timer = setTimeout(() => void this.restart(old), delay);
  }

  private async restart(old: Consumer): Promise<void> {
    if (this.stopped) return;
    await old.disconnect().catch(() => undefined);
    if (this.stopped) return;
    try {
      await this.launch();
      if (this.stopped) await this.consumer?.disconnect().catch(() => undefined);
    } catch (err) {
      if (this.stopped) return;
      this.setState('restarting', describe(err));
      this.log.warn({ err, attempt: this.failedRestarts }, 'consumer restart failed; trying again');
      this.scheduleRestart(this.consumer ?? old);
    }
  }
}

/** Whether kafkajs marks the error, or one it wraps, as retriable (KafkaJSError.retriable). */
function retriable(err: unknown): boolean {
  for (let e = err; e instanceof Error; e = e.cause) {
    if ((e as { retriable?: unknown }).retriable === true) return true;
  }
  return false;
}

/** The root cause of a kafkajs error (it wraps a handler's error in KafkaJSNonRetriableError), as `Name: message`. */
function describe(err: unknown): string {
  let e = err;
  while (e instanceof Error && e.cause instanceof Error) e = e.cause;
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}
