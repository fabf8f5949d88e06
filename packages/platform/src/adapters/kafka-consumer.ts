import { ConnectionPool, Consumer, type BaseOptions, type ConsumerOptions } from '@platformatic/kafka';
import type { Logger } from '../logger';
import type { ConsumerLag, ConsumerState, ConsumerStatus, SubscribeOptions, Subscription } from './bus';
import { consumerRestarts, liveConsumers } from './consumer-metrics';
import { PartitionFetcher, type BusConsumer, type FetchedPartition } from './kafka-fetcher';

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
  createConsumer?: (options: ConsumerOptions<Buffer, Buffer, Buffer, Buffer>) => BusConsumer;
}

/** How often a first start is tried on an error the client calls retriable (with the backoff: ~30 s at the defaults). */
const FIRST_START_ATTEMPTS = 6;
/** How long a lag reading is reused (readiness probes and scrapes may come in bursts). */
const LAG_CACHE_MS = 1000;
/** Bytes a fetch brings at most unless the bus says otherwise (the client's default, 50 MiB, is decoded whole before the first handler call). */
const DEFAULT_MAX_BYTES = 1_048_576;
/** How long stop() waits for the handler call in progress and its commit, and a crashed client for its close. */
const SETTLE_MS = 20_000;

/**
 * A consumer of one group that stays alive until stop(). @platformatic/kafka keeps a consumer in its
 * group by itself (heartbeats, rejoins after a rebalance, retries of fetches and commits); what it
 * gives up on surfaces as an error of the consumer or of a fetch (kafka-fetcher.ts): a rejoin that
 * kept failing, fetches that kept failing while a broker is down. Those, and an error thrown by the
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
  private consumer: BusConsumer | undefined;
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

  /** A client consumer of the group and its fetcher; resolves once the group is joined and the positions are read. */
  private async launch(): Promise<void> {
    const { base, ns, opts, config } = this.deps;
    const { maxBytes = DEFAULT_MAX_BYTES, ...group } = config;
    const create = this.deps.createConsumer ?? ((o) => new Consumer(o));
    const consumer = create({ ...base, groupId: ns + opts.groupId, autocommit: false, ...group, maxBytes });
    this.consumer = consumer;
    this.handled.clear();
    const topics = opts.topics.map((t) => ns + t);
    let seen = this.joins;
    const pool = new ConnectionPool(base.clientId, { ...base });
    const fetcher = new PartitionFetcher(consumer, pool, topics, ns, opts.fromBeginning ?? false, {
      maxBytes,
      maxWaitTime: config.maxWaitTime,
    });
    consumer.on('error', (err: Error) => this.crashed(consumer, err));
    consumer.on('consumer:group:join', () => {
      if (this.consumer !== consumer) return;
      this.joins++;
      this.joined(consumer);
      this.wake?.();
    });
    try {
      consumer.topics.trackAll(...topics);
      await consumer.joinGroup({});
      seen = this.joins;
      await fetcher.reset();
    } catch (err) {
      await settle(closeForced(consumer));
      await settle(pool.close());
      throw err;
    }
    // stopped, or crashed, while it joined
    if (this.stopped || this.consumer !== consumer) {
      await settle(closeForced(consumer));
      await settle(pool.close());
      return;
    }
    this.joined(consumer);
    this.pumping = this.pump(consumer, fetcher, seen)
      .catch((err: unknown) => this.crashed(consumer, err instanceof Error ? err : new Error(String(err))))
      .finally(() => settle(pool.close()));
  }

  private joined(consumer: BusConsumer): void {
    const held = assigned(consumer);
    for (const tp of this.handled.keys()) if (!held.has(tp)) this.handled.delete(tp);
    this.partitions = held.size;
    this.failedRestarts = 0;
    this.setState('running');
  }

  private wake: (() => void) | undefined;
  /** Joins of the group the current client consumer completed after its first (rebalances). */
  private joins = 0;

  /**
   * Fetches, hands what came to the handler partition by partition, and commits after each round.
   * The next fetch is under way while the handler works on a round (at most one ahead: the
   * buffered bytes stay under twice maxBytes), and a round's commit goes on while the next round
   * is handled (one commit in flight, in order). After a rebalance the positions are read again
   * from the committed offsets and a fetch made before it is dropped. The pump ends, on stop() or
   * a crash, only after the last commit settled.
   */
  private async pump(consumer: BusConsumer, fetcher: PartitionFetcher, joinsAtReset: number): Promise<void> {
    let committing: Promise<void> = Promise.resolve();
    let ahead: { joins: number; fetched: Promise<FetchedPartition[]> } | undefined;
    let seen = joinsAtReset;
    const rouse = (): void => {
      const w = this.waiting;
      this.waiting = undefined;
      w?.();
    };
    this.wake = rouse;
    try {
      for (;;) {
        if (this.stopped || this.consumer !== consumer) return;
        if (seen !== this.joins) {
          seen = this.joins;
          await fetcher.reset();
          continue;
        }
        if (!fetcher.size) {
          await new Promise<void>((resolve) => (this.waiting = resolve));
          continue;
        }
        const fetch = ahead?.joins === seen ? ahead.fetched : fetcher.fetch();
        ahead = undefined;
        const round = await fetch;
        if (seen !== this.joins || this.stopped || this.consumer !== consumer) continue;
        if (!round.length) continue;
        ahead = { joins: seen, fetched: fetcher.fetch() };
        // an error of the fetch ahead is met when it is awaited
        ahead.fetched.catch(() => undefined);
        committing = (await this.handleRound(consumer, fetcher, round, committing)).committing;
      }
    } finally {
      if (this.wake === rouse) this.wake = undefined;
      await committing;
      if (ahead) await ahead.fetched.catch(() => undefined);
    }
  }

  private waiting: (() => void) | undefined;

  /**
   * Hands a round to the handler and starts its commit once the previous round's commit settled.
   * Resolves to the commit under way (wrapped: an async function would wait for a promise it
   * returns); if a handler threw, to that error after the commit of what was handled before it.
   */
  private async handleRound(
    consumer: BusConsumer,
    fetcher: PartitionFetcher,
    round: FetchedPartition[],
    previous: Promise<void>,
  ): Promise<{ committing: Promise<void> }> {
    const { opts } = this.deps;
    const commits: { topic: string; partition: number; offset: bigint; leaderEpoch: number }[] = [];
    let thrown: { error: unknown } | undefined;
    // the partitions the group gives this member now (a rebalance may have moved some since the fetch)
    const held = assigned(consumer);
    try {
      for (const part of round) {
        // a partition the group gave away meanwhile: its new owner reads it from the committed offset
        if (!held.has(part.tp) || !fetcher.holds(part.tp)) continue;
        // messages fetched again after a rebalance that left this member the partition, handled already
        const done = this.handled.get(part.tp);
        const msgs = done === undefined || part.first >= done ? part.messages : part.messages.filter((m) => BigInt(m.offset) >= done);
        if (msgs.length) await opts.handler(msgs);
        this.handled.set(part.tp, part.next);
        commits.push({ topic: part.topic, partition: part.partition, offset: part.next, leaderEpoch: -1 });
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

  private crashed(consumer: BusConsumer, error: Error): void {
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
function assigned(consumer: BusConsumer): Set<string> {
  return new Set((consumer.assignments ?? []).flatMap((a) => a.partitions.map((p) => `${a.topic}:${p}`)));
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
