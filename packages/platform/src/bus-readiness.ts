import type { Bus, ConsumerLag, ConsumerStatus, ProducerStatus, SubscribeOptions, Subscription } from './adapters/bus';

/** What a readiness check may resolve to: not ready with a reason, and details for /readyz?verbose. */
export interface ReadinessReport {
  ready: boolean;
  reason?: string;
  detail?: unknown;
}

/** A group this far behind on a topic (messages) makes its service not ready. */
export const DEFAULT_MAX_READY_LAG = 100_000;

/** The bus as one service sees it: the consumers subscribed through it are the ones it needs. */
export interface ScopedBus extends Bus {
  subscriptions(): Subscription[];
}

/**
 * Wraps a bus for one service's build(): everything goes to `bus`, and the subscriptions made
 * through the wrapper (until stopped) are remembered, so the service's /readyz looks at its own
 * consumers even when several services share one bus (the one-process stack, tests).
 */
export function scopeBus(bus: Bus): ScopedBus {
  const subs = new Set<Subscription>();
  return {
    get kind() {
      return bus.kind;
    },
    get maxReadyLag() {
      return bus.maxReadyLag;
    },
    ensureTopics: (topics) => bus.ensureTopics(topics),
    publish: (topic, messages) => bus.publish(topic, messages),
    producerStatus: () => bus.producerStatus(),
    ping: () => bus.ping(),
    close: () => bus.close(),
    subscriptions: () => [...subs],
    async subscribe(opts: SubscribeOptions): Promise<Subscription> {
      const sub = await bus.subscribe(opts);
      const scoped: Subscription = {
        groupId: sub.groupId,
        status: () => sub.status(),
        lag: () => sub.lag(),
        stop: async () => {
          subs.delete(scoped);
          await sub.stop();
        },
      };
      subs.add(scoped);
      return scoped;
    },
  };
}

export interface BusReadinessOptions {
  /** Lag (messages of one group on one topic) past which the service is not ready (default: the bus's maxReadyLag, else 100,000). */
  maxLag?: number;
  /** How long to wait for one group's lag (the bus may be slow to answer while it recovers). */
  lagTimeoutMs?: number;
}

interface ConsumerReport extends ConsumerStatus {
  lag: ConsumerLag | 'unknown';
}

/**
 * /readyz's `bus` check: not ready while the broker does not answer, while publishing fails, while
 * a consumer of this service is not running (starting, or restarting after a crash), or while a
 * group lags past maxLag on a topic. Details (producer, each consumer's state, restarts and lag)
 * are shown by /readyz?verbose.
 */
export function busReadiness(bus: ScopedBus, opts: BusReadinessOptions = {}): () => Promise<ReadinessReport> {
  const maxLag = opts.maxLag ?? bus.maxReadyLag ?? DEFAULT_MAX_READY_LAG;
  const lagTimeoutMs = opts.lagTimeoutMs ?? 2000;
  return async () => {
    const [pinged, consumers] = await Promise.all([
      within(bus.ping(), lagTimeoutMs, 'no answer'),
      Promise.all(
        bus.subscriptions().map(async (sub): Promise<ConsumerReport> => {
          const read = await within(sub.lag(), lagTimeoutMs, 'unknown');
          return { ...sub.status(), lag: typeof read === 'string' ? 'unknown' : read };
        }),
      ),
    ]);
    const problems: string[] = [];
    if (pinged !== undefined) problems.push(`broker unreachable: ${pinged}`);
    const producer: ProducerStatus = bus.producerStatus();
    if (producer.state === 'failing') problems.push(`publishing fails since ${producer.failingSince ?? '?'}: ${producer.lastError ?? ''}`);
    for (const c of consumers) {
      if (c.state !== 'running') problems.push(`consumer ${c.groupId} is ${c.state}${c.lastError ? ` (${c.lastError})` : ''}`);
      if (c.lag === 'unknown') continue;
      for (const [topic, n] of Object.entries(c.lag))
        if (n > maxLag) problems.push(`consumer ${c.groupId} lags ${n} messages on ${topic} (more than ${maxLag})`);
    }
    return {
      ready: problems.length === 0,
      ...(problems.length ? { reason: problems.join('; ') } : {}),
      detail: { producer, consumers, maxLag },
    };
  };
}

/** The value of `p`, or a string: `timeout` when it took longer than `ms`, the message when it failed. */
async function within<T>(p: Promise<T>, ms: number, timeout: string): Promise<T | string> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p, new Promise<string>((resolve) => (timer = setTimeout(() => resolve(timeout), ms)))]);
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  } finally {
    clearTimeout(timer);
  }
}
