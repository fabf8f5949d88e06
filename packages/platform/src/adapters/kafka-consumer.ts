import { Consumer, MessagesStreamFallbackModes, MessagesStreamModes, stringDeserializers, type BaseOptions, type ConsumerOptions, type Message, type MessagesStream } from '@platformatic/kafka';
import type { Logger } from '../logger';
import type { ConsumedMessage, ConsumerLag, ConsumerState, ConsumerStatus, SubscribeOptions, Subscription } from './bus';
import { consumerRestarts, liveConsumers } from './consumer-metrics';

export interface RestartBackoff {
  initialMs: number;
  maxMs: number;
}

/** The group settings of a consumer (classic protocol; see docs/design-changes.md on KIP-848). */
interface ConsumerConfig {
  sessionTimeout: number;
  heartbeatInterval: number;
  rebalanceTimeout: number;
  /** How long the broker holds a fetch without data. */
  maxWaitTime: number;
  /** Bytes a fetch brings at most (per fetch and per partition); the broker sends one batch even if larger. */
  maxBytes?: number;
  /** Messages the client buffers before it stops fetching ahead. */
  highWaterMark?: number;
}

export interface SupervisedConsumerDeps {
  /** Brokers, client id, security and retries of the bus. */
  base: BaseOptions;
  /** Topic and group prefix of the bus ('' or 'ns.'). */
  ns: string;
  opts: SubscribeOptions;
  config: ConsumerConfig;
  /** The group's lag per topic (kafka-lag.ts), read through the bus's admin client. */
  lag: () => Promise<ConsumerLag>;
  logger: Logger;
  backoff: RestartBackoff;
  /** Makes the client consumer (tests stand a fake in for it; default: @platformatic/kafka's Consumer). */
  createConsumer?: (options: ConsumerOptions<string, string, string, string>) => JsonConsumer;
}

export type JsonConsumer = Consumer<string, string, string, string>;
type JsonStream = MessagesStream<string, string, string, string>;
type JsonMessage = Message<string, string, string, string>;

/** How often a first start is tried on an error the client calls retriable (with the backoff: ~30 s at the defaults). */
const FIRST_START_ATTEMPTS = 6;
/** How long a lag reading is reused (readiness probes and scrapes may come in bursts). */
const LAG_CACHE_MS = 1000;
/** Messages taken from the stream for one round of handler calls (one call per partition). */
const MAX_ROUND = 2000;
/** How long stop() waits for the handler call in progress and its commit, and a crashed client for its close. */
const SETTLE_MS = 20_000;

/**
 * A consumer of one group that stays alive until stop(). @platformatic/kafka keeps a consumer in its
 * group by itself (heartbeats, rejoins after a rebalance, retries of fetches and commits); what it
 * gives up on surfaces as an error of the consumer or of its message stream: a rejoin that kept
 * failing, fetches that kept failing while a broker is down. Those, and an error thrown by the
 * handler, are crashes: the supervisor counts and logs each, closes that client consumer and starts
 * a new one of the same group with backoff (doubling from backoff.initialMs to backoff.maxMs, reset
 * once the group is joined again), which resumes from the group's committed offsets, so the
 * messages in hand at the crash are delivered again (at least once).
 *
 * Messages reach the handler in the bus's shape: those of one partition, in order, and the group's
 * offset is committed only after the handler resolved (autocommit off). A member keeps track of
 * what it handled of each partition it holds, so messages fetched again after a rebalance that left
 * it the partition are not handed over twice; messages of a partition the group gave to another
 * member are dropped unhandled (the new owner reads them from the committed offset).
 */
export class SupervisedKafkaConsumer implements Subscription {
  readonly groupId: string;
  private consumer: JsonConsumer | undefined;
  private state: ConsumerState = 'starting';
  private since = new Date();
  private lastError: string | undefined;
  private restarts = 0;
  private partitions = 0;
  private failedRestarts = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private lagCache: { at: number; value: Promise<ConsumerLag> } | undefined;
  /** The pump of the current client consumer: resolves when it ends (a crash, or stop()). */
  private pumping: Promise<void> | undefined;
  /** Next offset to hand over, per `topic:partition` held without interruption. */
  private readonly handled = new Map<string, bigint>();
  private readonly log: Logger;

  constructor(private readonly deps: SupervisedConsumerDeps) {
    this.groupId = deps.opts.groupId;
    this.log = deps.logger.child({ consumer: this.groupId, topics: deps.opts.topics });
  }

  /**
   * Joins the group and starts consuming. An error the client calls retriable (a topic whose
   * partitions have no leader yet on a fresh broker, a coordinator not available yet) is retried
   * with the backoff, at most FIRST_START_ATTEMPTS times; any other error, or the last one, rejects
   * (the caller decides, and a service does not start).
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
    liveConsumers.add(this);
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

  /** Lets the handler call in progress finish and commit, then leaves the group. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    liveConsumers.delete(this);
    this.setState('stopped');
    const consumer = this.consumer;
    this.wake?.();
    await settle(this.pumping);
    if (consumer) await settle(closeForced(consumer));
  }

  lag(): Promise<ConsumerLag> {
    const now = Date.now();
    if (!this.lagCache || now - this.lagCache.at > LAG_CACHE_MS) {
      const value = this.deps.lag();
      value.catch(() => undefined);
      this.lagCache = { at: now, value };
    }
    return this.lagCache.value;
  }

  private setState(state: ConsumerState, error?: string): void {
    if (this.state === 'stopped') return;
    if (state !== this.state) this.since = new Date();
    this.state = state;
    if (error !== undefined) this.lastError = error;
  }

  /** A client consumer of the group and its message stream; resolves once the group is joined. */
  private async launch(): Promise<void> {
    const { base, ns, opts, config } = this.deps;
    const create = this.deps.createConsumer ?? ((o) => new Consumer(o));
    const consumer = create({ ...base, groupId: ns + opts.groupId, autocommit: false, deserializers: stringDeserializers, ...config });
    this.consumer = consumer;
    this.handled.clear();
    consumer.on('error', (err: Error) => this.crashed(consumer, err));
    consumer.on('consumer:group:join', () => {
      if (this.consumer === consumer) this.joined(consumer);
    });
    let stream: JsonStream;
    try {
      stream = await consumer.consume({
        topics: opts.topics.map((t) => ns + t),
        mode: MessagesStreamModes.COMMITTED,
        fallbackMode: opts.fromBeginning ? MessagesStreamFallbackModes.EARLIEST : MessagesStreamFallbackModes.LATEST,
        autocommit: false,
      });
    } catch (err) {
      await settle(closeForced(consumer));
      throw err;
    }
    // stopped, or crashed, while it joined
    if (this.stopped || this.consumer !== consumer) {
      await settle(closeForced(consumer));
      return;
    }
    this.joined(consumer);
    this.pumping = this.pump(consumer, stream).catch((err: unknown) => this.crashed(consumer, err instanceof Error ? err : new Error(String(err))));
  }

  private joined(consumer: JsonConsumer): void {
    const held = assigned(consumer);
    for (const tp of this.handled.keys()) if (!held.has(tp)) this.handled.delete(tp);
    this.partitions = held.size;
    this.failedRestarts = 0;
    this.setState('running');
  }

  private wake: (() => void) | undefined;

  /**
   * Hands the stream's messages to the handler, partition by partition, and commits after each
   * round. A round's commit goes on while the next round is handled (one commit in flight, in
   * order); the pump ends, on stop() or a crash, only after the last commit settled.
   */
  private async pump(consumer: JsonConsumer, stream: JsonStream): Promise<void> {
    let committing: Promise<void> = Promise.resolve();
    let failure: Error | undefined;
    let ended = false;
    let waiting: (() => void) | undefined;
    const rouse = (): void => {
      const w = waiting;
      waiting = undefined;
      w?.();
    };
    this.wake = rouse;
    stream.on('readable', rouse);
    stream.once('error', (err: Error) => { failure = err; rouse(); });
    stream.once('close', () => { ended = true; rouse(); });
    try {
      for (;;) {
        if (this.stopped || this.consumer !== consumer) return;
        if (failure) throw failure;
        const round: JsonMessage[] = [];
        for (let m: JsonMessage | null; round.length < MAX_ROUND && (m = stream.read() as JsonMessage | null) !== null;) round.push(m);
        if (!round.length) {
          if (ended) throw new Error('the message stream ended');
          await new Promise<void>((resolve) => (waiting = resolve));
          continue;
        }
        committing = (await this.handleRound(consumer, round, committing)).committing;
      }
    } finally {
      stream.off('readable', rouse);
      if (this.wake === rouse) this.wake = undefined;
      await committing;
    }
  }

  /**
   * Hands a round to the handler and starts its commit once the previous round's commit settled.
   * Resolves to the commit under way (wrapped: an async function would wait for a promise it
   * returns); if a handler threw, to that error after the commit of what was handled before it.
   */
  private async handleRound(consumer: JsonConsumer, round: JsonMessage[], previous: Promise<void>): Promise<{ committing: Promise<void> }> {
    const { ns, opts } = this.deps;
    const held = assigned(consumer);
    const byPartition = new Map<string, JsonMessage[]>();
    for (const m of round) {
      const tp = `${m.topic}:${m.partition}`;
      // a partition the group gave away, or messages fetched again that were handled already
      if (!held.has(tp) || m.offset < (this.handled.get(tp) ?? -1n)) continue;
      const list = byPartition.get(tp) ?? [];
      list.push(m);
      byPartition.set(tp, list);
    }
    const commits: { topic: string; partition: number; offset: bigint; leaderEpoch: number }[] = [];
    let thrown: { error: unknown } | undefined;
    try {
      for (const [tp, msgs] of byPartition) {
        await opts.handler(msgs.map((m) => toConsumed(m, ns)));
        const last = msgs[msgs.length - 1]!;
        this.handled.set(tp, last.offset + 1n);
        commits.push({ topic: last.topic, partition: last.partition, offset: last.offset + 1n, leaderEpoch: -1 });
      }
    } catch (error) {
      thrown = { error };
    }
    // what was handled is committed even when a later partition's handler threw
    let committing = previous;
    if (commits.length) {
      await previous;
      committing = consumer.commit({ offsets: commits }).catch((err: unknown) => {
        // a rebalance under way, or the broker gone: the messages are delivered again (at least once)
        this.log.debug({ err }, 'commit failed; the handled messages may be delivered again');
      });
    }
    if (thrown) {
      await committing;
      throw thrown.error;
    }
    return { committing };
  }

  private crashed(consumer: JsonConsumer, error: Error): void {
    if (this.stopped || this.consumer !== consumer) return;
    this.consumer = undefined;
    this.wake?.();
    this.restarts++;
    consumerRestarts.inc({ group: this.groupId, by: 'supervisor' });
    this.setState('restarting', describe(error));
    this.log.error({ err: error, restarts: this.restarts }, 'consumer crashed; the supervisor restarts it');
    void settle(closeForced(consumer));
    this.scheduleRestart();
  }

  private scheduleRestart(): void {
    const { initialMs, maxMs } = this.deps.backoff;
    const delay = Math.min(maxMs, initialMs * 2 ** this.failedRestarts);
    this.failedRestarts++;
    this.timer = setTimeout(() => void this.restart(), delay);
  }

  private async restart(): Promise<void> {
    if (this.stopped) return;
    try {
      await this.launch();
    } catch (err) {
      if (this.stopped) return;
      this.setState('restarting', describe(err));
      this.log.warn({ err, attempt: this.failedRestarts }, 'consumer restart failed; trying again');
      this.scheduleRestart();
    }
  }
}

/** The `topic:partition`s the group gave this member at its last join. */
function assigned(consumer: JsonConsumer): Set<string> {
  return new Set((consumer.assignments ?? []).flatMap((a) => a.partitions.map((p) => `${a.topic}:${p}`)));
}

function toConsumed(m: JsonMessage, ns: string): ConsumedMessage {
  return {
    topic: m.topic.slice(ns.length),
    partition: m.partition,
    offset: m.offset.toString(),
    key: m.key ?? '',
    value: m.value ?? 'null',
    headers: Object.fromEntries(m.headers),
    timestamp: Number(m.timestamp),
  };
}

/**
 * Closes a client, ending its streams (close(true) as a promise: the typings' first overload of
 * close, the one with a callback, returns void).
 */
export const closeForced = (client: { close(force?: boolean): Promise<void> }): Promise<void> => client.close(true);

/** Waits for a promise's end, failed or not, at most SETTLE_MS. */
async function settle(p: Promise<unknown> | undefined): Promise<void> {
  if (!p) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([p.catch(() => undefined), new Promise((r) => (timer = setTimeout(r, SETTLE_MS)))]);
  clearTimeout(timer);
}

/**
 * Whether the client marks the error, one it aggregates or one it wraps as retriable
 * (@platformatic/kafka's GenericError.canRetry: network errors and the protocol errors Kafka calls
 * retriable, such as a partition without a leader yet), or it is a network error of the client's
 * (code PLT_KFK_NETWORK: also its timeouts, a connection or a request that took too long, which
 * the client marks canRetry false; on a busy machine a broker may answer late, and it is worth
 * trying again).
 */
export function retriable(err: unknown): boolean {
  const seen = new Set<unknown>();
  const walk = (e: unknown): boolean => {
    if (!(e instanceof Error) || seen.has(e)) return false;
    seen.add(e);
    if ((e as { canRetry?: unknown }).canRetry === true || (e as { code?: unknown }).code === 'PLT_KFK_NETWORK') return true;
    const nested = (e as { errors?: unknown }).errors;
    return walk(e.cause) || (Array.isArray(nested) && nested.some(walk));
  };
  return walk(err);
}

/** The root cause of an error (the client wraps and aggregates them), as `Name: message`. */
function describe(err: unknown): string {
  let e = err;
  for (;;) {
    if (e instanceof Error && e.cause instanceof Error) e = e.cause;
    else if (e instanceof AggregateError && e.errors[0] instanceof Error) e = e.errors[0];
    else break;
  }
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}
