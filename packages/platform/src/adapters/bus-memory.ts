import { EventEmitter } from 'node:events';
import type { Logger } from '../logger';
import type {
  Bus,
  BusMessage,
  ConsumedMessage,
  ConsumerLag,
  ConsumerStatus,
  ProducerStatus,
  SerializedMessage,
  SubscribeOptions,
  Subscription,
  TopicSpec,
} from './bus';
import { partitionFor } from './bus';
import { consumerRestarts, liveConsumers } from './consumer-metrics';

interface Topic {
  partitions: ConsumedMessage[][];
  compacted: boolean;
}

interface Member {
  id: number;
  opts: SubscribeOptions;
  assigned: Set<string>; // `${topic}/${partition}`
  /** The assigned partitions, resolved when assigned (rebalance replaces the array, never changes it): what each delivery pass walks. */
  slots: { tp: string; part: ConsumedMessage[] }[];
  running: boolean;
  wake: () => void;
  loop: Promise<void>;
  status: ConsumerStatus;
}

interface Group {
  committed: Map<string, number>; // tp → next offset to read
  members: Member[];
}

/**
 * In-process bus with Kafka's semantics that matter to us: topics with partitions chosen by key,
 * consumer groups that split partitions among members and rebalance when members come and go,
 * committed offsets (a member that stops mid-batch leaves the batch to be redelivered), and
 * at-least-once delivery (a handler that throws gets the same messages again after a backoff).
 * Messages live in memory for the life of the process; compacted topics keep every message too
 * (consumers read the latest per key, as they must with Kafka between compactions).
 */
export class MemoryBus implements Bus {
  readonly kind = 'memory' as const;
  private readonly topics = new Map<string, Topic>();
  private readonly groups = new Map<string, Group>();
  private readonly events = new EventEmitter();
  private nextMember = 1;
  private closed = false;
  /** Tests flip this to simulate a broker outage. */
  available = true;
  /**
   * Whether a member lets the event loop turn after each batch (see deliverOnce); `pnpm bench
   * bus-turns` clears it to measure the bus of before.
   */
  turnBetweenBatches = true;
  private failingSince: string | undefined;

  constructor(
    private readonly defaultPartitions = 4,
    private readonly retryDelayMs = 200,
    private readonly logger?: Logger,
    readonly maxReadyLag?: number,
  ) {
    this.events.setMaxListeners(0);
  }

  async ensureTopics(specs: TopicSpec[]): Promise<void> {
    for (const s of specs) this.topic(s.name, s.partitions, s.compacted);
  }

  private topic(name: string, partitions = this.defaultPartitions, compacted = false): Topic {
    let t = this.topics.get(name);
    if (!t) {
      t = { partitions: Array.from({ length: partitions }, () => []), compacted };
      this.topics.set(name, t);
      for (const g of this.groups.values()) this.rebalance(g);
    }
    return t;
  }

  async publish(topicName: string, messages: BusMessage[]): Promise<void> {
    return this.publishSerialized(
      topicName,
      messages.map((m) => ({
        key: m.key,
        value: JSON.stringify(m.value),
        ...(m.headers ? { headers: m.headers } : {}),
        ...(m.validatedAs ? { validatedAs: m.validatedAs } : {}),
      })),
    );
  }

  /** Publishes values already serialized as JSON text (a worker thread's publishes, thread-bridge.ts). */
  async publishSerialized(topicName: string, messages: SerializedMessage[]): Promise<void> {
    if (this.closed || !this.available) {
      this.failingSince ??= new Date().toISOString();
      throw new Error(this.closed ? 'bus closed' : 'bus unavailable');
    }
    this.failingSince = undefined;
    const t = this.topic(topicName);
    const now = Date.now();
    for (const m of messages) {
      const p = partitionFor(m.key, t.partitions.length);
      const part = t.partitions[p]!;
      part.push({
        topic: topicName,
        partition: p,
        offset: String(part.length),
        key: m.key,
        value: m.value,
        headers: m.headers ?? {},
        timestamp: now,
        ...(m.validatedAs ? { validatedAs: m.validatedAs } : {}),
      });
    }
    // only the members reading this topic look for new messages (every member scanned its partitions on every publish)
    this.events.emit(`message:${topicName}`);
  }

  async subscribe(opts: SubscribeOptions): Promise<Subscription> {
    for (const name of opts.topics) this.topic(name);
    let group = this.groups.get(opts.groupId);
    if (!group) {
      group = { committed: new Map(), members: [] };
      this.groups.set(opts.groupId, group);
    }
    const g = group;
    let wake: () => void = () => undefined;
    const status: ConsumerStatus = {
      groupId: opts.groupId,
      topics: opts.topics,
      state: 'running',
      restarts: 0,
      partitions: 0,
      since: new Date().toISOString(),
    };
    const member: Member = {
      id: this.nextMember++,
      opts,
      assigned: new Set(),
      slots: [],
      running: true,
      wake: () => wake(),
      loop: Promise.resolve(),
      status,
    };
    g.members.push(member);
    this.rebalance(g);
    const onMessage = (): void => member.wake();
    for (const name of opts.topics) this.events.on(`message:${name}`, onMessage);
    const idle = (ms: number): Promise<void> =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    // supervised like a Kafka consumer: a failure of the delivery loop itself (handler errors are
    // retried inside it) is counted and logged, and the loop starts again after a backoff
    member.loop = (async () => {
      while (member.running && !this.closed) {
        try {
          const delivered = await this.deliverOnce(g, member);
          if (status.state === 'restarting') Object.assign(status, { state: 'running', since: new Date().toISOString() });
          if (!delivered && member.running) await idle(1000);
        } catch (err) {
          status.restarts++;
          consumerRestarts.inc({ group: opts.groupId, by: 'supervisor' });
          Object.assign(status, {
            state: 'restarting',
            since: new Date().toISOString(),
            lastError: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
          });
          this.logger?.error({ err, consumer: opts.groupId, restarts: status.restarts }, 'consumer loop failed; restarting it');
          await idle(this.retryDelayMs);
        }
      }
    })();
    const subscription: Subscription = {
      groupId: opts.groupId,
      status: () => ({ ...status, partitions: member.assigned.size }),
      lag: async () => this.groupLag(g, opts),
      stop: async () => {
        liveConsumers.delete(subscription);
        Object.assign(status, { state: 'stopped', since: new Date().toISOString() });
        member.running = false;
        member.wake();
        for (const name of opts.topics) this.events.off(`message:${name}`, onMessage);
        await member.loop;
        g.members = g.members.filter((m) => m !== member);
        this.rebalance(g);
      },
    };
    liveConsumers.add(subscription);
    return subscription;
  }

  /** Per topic: messages beyond the group's committed offsets (from the start, or none, for a partition it has not read yet). */
  private groupLag(g: Group, opts: SubscribeOptions): ConsumerLag {
    const out: ConsumerLag = {};
    for (const name of opts.topics) {
      const t = this.topics.get(name);
      out[name] = (t?.partitions ?? []).reduce(
        (n, part, i) => n + part.length - (g.committed.get(`${name}/${i}`) ?? (opts.fromBeginning ? 0 : part.length)),
        0,
      );
    }
    return out;
  }

  /** Failing while the bus is closed or made unavailable (tests), from the first refused publish. */
  producerStatus(): ProducerStatus {
    if (!this.closed && this.available) return { state: 'ok', restarts: 0 };
    return {
      state: 'failing',
      failingSince: this.failingSince ?? new Date().toISOString(),
      lastError: this.closed ? 'bus closed' : 'bus unavailable',
      restarts: 0,
    };
  }

  /**
   * Delivers one batch per assigned partition that has unread messages; true if any was handled.
   * Every publish wakes every member of every group on the topic, and each walks its partitions at
   * least twice (the pass that delivers, the pass that finds none), so the walk uses the slots
   * resolved at assignment: no key split or topic lookup per partition and pass (issue 28's
   * saturation profile had this function at 5 % of the one-process stack's main thread).
   */
  private async deliverOnce(g: Group, member: Member): Promise<boolean> {
    let any = false;
    for (const { tp, part } of member.slots) {
      if (!member.running) break;
      const from = g.committed.get(tp) ?? (member.opts.fromBeginning ? 0 : part.length);
      if (!g.committed.has(tp)) g.committed.set(tp, from);
      if (from >= part.length) continue;
      const batch = part.slice(from, Math.min(part.length, from + 500));
      try {
        await member.opts.handler(batch);
        // commit only if this member still owns the partition (a rebalance may have moved it)
        if (member.assigned.has(tp)) g.committed.set(tp, from + batch.length);
        any = true;
        // let the event loop turn between batches: a handler on memory parts resolves in microtasks,
        // so a member with a backlog would otherwise hold every socket, timer and worker message (an
        // ingest thread's publish, whose ack waits on it) until all its partitions were drained
        if (this.turnBetweenBatches) await yieldToEventLoop();
      } catch {
        await new Promise((r) => setTimeout(r, this.retryDelayMs));
        any = true; // retry soon rather than waiting for new messages
      }
    }
    return any;
  }

  private rebalance(g: Group): void {
    const tps: string[] = [];
    const topicNames = new Set(g.members.flatMap((m) => m.opts.topics));
    for (const name of topicNames) {
      const t = this.topics.get(name);
      if (t) t.partitions.forEach((_, i) => tps.push(`${name}/${i}`));
    }
    for (const m of g.members) m.assigned.clear();
    tps.forEach((tp, i) => {
      const subscribed = g.members.filter((m) => m.opts.topics.includes(splitTp(tp)[0]));
      if (subscribed.length) subscribed[i % subscribed.length]!.assigned.add(tp);
    });
    for (const m of g.members) {
      m.slots = [...m.assigned].map((tp) => {
        const [name, p] = splitTp(tp);
        return { tp, part: this.topics.get(name)!.partitions[p]! };
      });
    }
    for (const m of g.members) m.wake();
  }

  /** Number of messages in a topic (tests and benchmarks). */
  size(topicName: string): number {
    return this.topics.get(topicName)?.partitions.reduce((n, p) => n + p.length, 0) ?? 0;
  }

  /** Committed lag of a group over a topic (tests wait on it reaching 0). */
  lag(groupId: string, topicName: string): number {
    const t = this.topics.get(topicName);
    const g = this.groups.get(groupId);
    if (!t) return 0;
    return t.partitions.reduce((n, part, i) => n + part.length - (g?.committed.get(`${topicName}/${i}`) ?? 0), 0);
  }

  async ping(): Promise<void> {
    if (this.closed || !this.available) throw new Error('bus unavailable');
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const g of this.groups.values()) for (const m of g.members) m.running = false;
    await Promise.all(
      [...this.groups.values()].flatMap((g) =>
        g.members.map((m) => {
          m.wake();
          return m.loop;
        }),
      ),
    );
  }
}

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function splitTp(tp: string): [string, number] {
  const i = tp.lastIndexOf('/');
  return [tp.slice(0, i), Number(tp.slice(i + 1))];
}
