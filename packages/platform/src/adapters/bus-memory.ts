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

/** A partition's messages from offset `base` on (those before it were dropped once every group had read them). */
interface Partition {
  base: number;
  messages: ConsumedMessage[];
}

interface Topic {
  name: string;
  partitions: Partition[];
  compacted: boolean;
}

/** The end offset of a partition: the offset the next message gets. */
const endOf = (part: Partition): number => part.base + part.messages.length;

interface Member {
  id: number;
  opts: SubscribeOptions;
  assigned: Set<string>; // `${topic}/${partition}`
  /** The assigned partitions, resolved when assigned (rebalance replaces the array, never changes it): what each delivery pass walks. */
  slots: { tp: string; topic: Topic; part: Partition }[];
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
 * Retention: a message of a topic that is not compacted is dropped once every group that reads its
 * partition has committed it, except the partition's last `retainedTail` messages (a group that joins
 * later reads from the earliest kept, as on Kafka after retention); a group keeps its place while it
 * has no member (a consumer restarting), so nothing it has not read is dropped. Without it the
 * embedded stack kept every position for the life of the process (1,354 bytes of heap each: 280 MB
 * a day for 24 trucks, 400 MB a minute at saturation). Compacted topics keep every message
 * (consumers read the latest per key, as they must with Kafka between compactions; they are small).
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
    /** Messages a partition keeps after every group has read them (see Retention above). */
    private readonly retainedTail = 1_000,
  ) {
    this.events.setMaxListeners(0);
  }

  async ensureTopics(specs: TopicSpec[]): Promise<void> {
    for (const s of specs) this.topic(s.name, s.partitions, s.compacted);
  }

  private topic(name: string, partitions = this.defaultPartitions, compacted = false): Topic {
    let t = this.topics.get(name);
    if (!t) {
      t = { name, partitions: Array.from({ length: partitions }, () => ({ base: 0, messages: [] })), compacted };
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
      part.messages.push({
        topic: topicName,
        partition: p,
        offset: String(endOf(part)),
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
        (n, part, i) => n + endOf(part) - Math.max(part.base, g.committed.get(`${name}/${i}`) ?? (opts.fromBeginning ? 0 : endOf(part))),
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
    for (const { tp, topic, part } of member.slots) {
      if (!member.running) break;
      const end = endOf(part);
      const from = Math.max(part.base, g.committed.get(tp) ?? (member.opts.fromBeginning ? 0 : end));
      if (!g.committed.has(tp)) g.committed.set(tp, from);
      if (from >= end) continue;
      const at = from - part.base;
      const batch = part.messages.slice(at, Math.min(part.messages.length, at + 500));
      try {
        await member.opts.handler(batch);
        // commit only if this member still owns the partition (a rebalance may have moved it)
        if (member.assigned.has(tp)) {
          g.committed.set(tp, from + batch.length);
          this.dropRead(topic, tp, part);
        }
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

  /**
   * Drops the messages of a partition that every group reading it has committed, but its last
   * `retainedTail`, in steps of at least a thousand (one splice per step, not per batch).
   */
  private dropRead(topic: Topic, tp: string, part: Partition): void {
    if (topic.compacted) return;
    let upTo = endOf(part) - this.retainedTail;
    if (upTo - part.base < 1_000) return;
    for (const g of this.groups.values()) {
      if (!g.members.some((m) => m.opts.topics.includes(topic.name)) && !g.committed.has(tp)) continue;
      const committed = g.committed.get(tp);
      // a group that reads the topic and has not begun this partition yet starts at its base (or its end)
      if (committed === undefined) {
        if (g.members.some((m) => m.opts.fromBeginning && m.opts.topics.includes(topic.name))) return;
        continue;
      }
      upTo = Math.min(upTo, committed);
    }
    const drop = upTo - part.base;
    if (drop < 1_000) return;
    part.messages.splice(0, drop);
    part.base = upTo;
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
        const topic = this.topics.get(name)!;
        return { tp, topic, part: topic.partitions[p]! };
      });
    }
    for (const m of g.members) m.wake();
  }

  /** Number of messages ever published to a topic (tests and benchmarks). */
  size(topicName: string): number {
    return this.topics.get(topicName)?.partitions.reduce((n, p) => n + endOf(p), 0) ?? 0;
  }

  /** Number of a topic's messages still held (the rest were dropped once read: see Retention). */
  retained(topicName: string): number {
    return this.topics.get(topicName)?.partitions.reduce((n, p) => n + p.messages.length, 0) ?? 0;
  }

  /** Committed lag of a group over a topic (tests wait on it reaching 0). */
  lag(groupId: string, topicName: string): number {
    const t = this.topics.get(topicName);
    const g = this.groups.get(groupId);
    if (!t) return 0;
    return t.partitions.reduce((n, part, i) => n + endOf(part) - Math.max(part.base, g?.committed.get(`${topicName}/${i}`) ?? 0), 0);
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
