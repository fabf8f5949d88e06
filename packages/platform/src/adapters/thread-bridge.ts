import type { MessagePort } from 'node:worker_threads';
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
import type { Cache } from './cache';
import type { Db } from './db';
import { liveConsumers } from './consumer-metrics';

/**
 * The embedded parts of one process shared with its worker threads: the in-process bus and the
 * memory cache live in the thread that made them (they are plain objects of one V8 isolate), and a
 * worker thread reaches them through a MessagePort with the same Bus and Cache interfaces. The
 * one-process stack runs ingest's device ports in worker threads this way (tools/stack), so that
 * decoding and intake use another core than the evaluators and stores.
 *
 * Messages travel as JSON text (what the bus stores anyway), so a publish costs one structured
 * clone of strings. What one end sends in one turn of its event loop crosses as one postMessage
 * (Outbox): an ingest thread issues a cache read, a publish and a cache write per device batch,
 * and the owning thread answers each, so one message per call was thousands of clones and
 * wake-ups a second on the thread that runs every consumer. A subscription's batches are handed
 * to the worker and committed once its handler resolved there (at least once, as on the bus itself). Not bridged: the relational and
 * analytics stores (the stack serves chDB to its workers over the ClickHouse HTTP interface).
 *
 * So that a worker's ack never waits for the owning thread's event loop (busy with every consumer
 * of the one-process stack), a worker may (BridgeOptions):
 * - post its publishes (`postedWindow`): a publish resolves once its message is posted to the
 *   owning thread's port, whose queue is part of the in-process bus (one process: what is posted is
 *   taken by the owner as long as the process lives). At most `postedWindow` messages are posted and
 *   not yet taken; above it a publish waits for room (back-pressure reaches the intake gate). The
 *   owner publishes each as it takes it; a posted publish the bus refuses is held by the owner and
 *   retried in order (never lost), and the worker publishes the confirmed way until the owner has
 *   caught up again. BridgedBus.close() waits until every posted message was taken.
 * - mirror cache keys (`mirrored`, by prefix): their values are kept in the worker after a read or
 *   its own write, and the owner tells the worker when any other writer changes one (the memory
 *   cache's watchWrites), so a read of a mirrored key is answered in the worker.
 * - mirror every key of a prefix (`mirroredWhole`): the owner sends all of them once and tells the
 *   worker of every other writer's change to any key of the prefix, so the worker also answers that
 *   a key it holds no copy of is absent (a device's protocol binding before its first login).
 */
type Target = 'bus' | 'cache' | 'sub';
interface Call {
  kind: 'call';
  id: number;
  target: Target;
  method: string;
  args: unknown[];
  subId?: number;
  /** A posted publish: answered once the bus took it (the worker did not wait for the answer). */
  posted?: true;
  /** A read or write of keys the worker mirrors: the owner tells it when another writer changes them. */
  watch?: true;
}
/** Keys a worker mirrors were changed by another writer (or expired there). */
interface Invalidate {
  kind: 'invalidate';
  key: string;
}
/** The bus refused a posted publish: the owner holds it and retries, in order. */
interface Held {
  kind: 'held';
  id: number;
  error: SerializedError;
}
/** What a mirrored read answers: the values, when each expires, and whether the owner watches them (a memory cache) */
interface MirrorRead {
  values: (string | null)[];
  expiries: (number | undefined)[];
  watched: boolean;
}
/** What a whole prefix's mirror answers: every key of the prefixes, and whether the owner watches them (else the worker reads them one by one). */
interface WholeRead extends MirrorRead {
  keys: string[];
}
interface Reply {
  kind: 'reply';
  id: number;
  ok: boolean;
  value?: unknown;
  error?: SerializedError;
}
interface Deliver {
  kind: 'deliver';
  id: number;
  subId: number;
  messages: ConsumedMessage[];
  status: ConsumerStatus;
}
interface Delivered {
  kind: 'delivered';
  id: number;
  error?: SerializedError;
}
interface SerializedError {
  name: string;
  message: string;
}

/** How a bridge end sends: together once per event-loop turn (default), or each at once (`each`: the bridge of before, for benchmarks). */
export type BridgeSending = 'turn' | 'each';

/** What a worker's end of the bridge does without waiting for the owning thread (see the comment at the top). */
export interface BridgeOptions {
  sending?: BridgeSending;
  /** Messages posted and not yet taken by the owner, at most; 0 (default): each publish waits for the owner's answer. */
  postedWindow?: number;
  /** Cache key prefixes whose values the worker keeps, told by the owner when another writer changes them. */
  mirrored?: string[];
  /** Cache key prefixes mirrored whole: the worker holds every key of them (a key it has no copy of is absent). */
  mirroredWhole?: string[];
}

/**
 * The messages one end sends, in order, as arrays: queued and posted together once per turn of
 * the event loop (setImmediate runs after the turn's I/O callbacks), so every call issued while
 * the turn's sockets were read crosses in one structured clone and one wake-up of the other thread.
 */
class Outbox<T> {
  private queue: T[] = [];
  private scheduled = false;
  constructor(
    private readonly port: MessagePort,
    private readonly sending: BridgeSending,
  ) {}
  send(m: T): void {
    if (this.sending === 'each') return this.port.postMessage([m]);
    this.queue.push(m);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.flush);
  }
  private readonly flush = (): void => {
    this.scheduled = false;
    const q = this.queue;
    this.queue = [];
    if (q.length) this.port.postMessage(q);
  };
}

const serializeError = (err: unknown): SerializedError =>
  err instanceof Error ? { name: err.name, message: err.message } : { name: 'Error', message: String(err) };
function toError(e: SerializedError): Error {
  const err = new Error(e.message);
  err.name = e.name;
  return err;
}

/** What a bus may offer beyond the interface: publishing text already serialized (MemoryBus). */
interface RawPublisher {
  publishSerialized?(topic: string, messages: SerializedMessage[]): Promise<void>;
}
/** What a cache may offer beyond the interface: telling who mirrors its keys about writes (MemoryCache). */
interface WatchedCache {
  watchWrites?(listener: (key: string) => void): () => void;
  expiries?(keys: string[]): (number | undefined)[];
  entriesWithPrefix?(prefix: string): { key: string; value: string; expiresAt: number | undefined }[];
}

/** How long the owner waits before publishing a held posted publish again. */
const HELD_RETRY_MS = 200;

const CACHE_METHODS = new Set([
  'get',
  'mget',
  'set',
  'setIfAbsent',
  'setJsonIfHigher',
  'del',
  'incr',
  'hset',
  'hget',
  'hgetall',
  'hdel',
  'ping',
]);

/**
 * Serves `bus` and `cache` to the worker thread at the other end of `port` (call in the thread that
 * owns them). Returns a function that stops the worker's subscriptions and closes the port.
 */
export function serveBridge(
  parts: { bus: Bus & RawPublisher; cache: Cache & WatchedCache },
  port: MessagePort,
  sending: BridgeSending = 'turn',
): () => Promise<void> {
  const out = new Outbox<Reply | Deliver | Invalidate | Held>(port, sending);
  const subs = new Map<number, Subscription>();
  const deliveries = new Map<number, { resolve: () => void; reject: (e: Error) => void }>();
  let nextDelivery = 1;
  let stopped = false;
  const reply = (id: number, p: Promise<unknown>): void => {
    p.then(
      (value) => out.send({ kind: 'reply', id, ok: true, value }),
      (err: unknown) => out.send({ kind: 'reply', id, ok: false, error: serializeError(err) }),
    );
  };
  const publish = (c: Call): Promise<void> => {
    const [topic, messages] = c.args as [string, SerializedMessage[]];
    if (parts.bus.publishSerialized) return parts.bus.publishSerialized(topic, messages);
    return parts.bus.publish(
      topic,
      messages.map((m) => ({ ...m, value: JSON.parse(m.value) as unknown })),
    );
  };
  // posted publishes the bus refused, oldest first: retried in order, and every later posted
  // publish waits behind them (a device's fixes stay in order)
  const held: Call[] = [];
  const retryHeld = async (): Promise<void> => {
    while (held.length && !stopped) {
      const next = held[0]!;
      const ok = await publish(next).then(
        () => true,
        () => false,
      );
      if (!ok) {
        await new Promise((r) => setTimeout(r, HELD_RETRY_MS));
        continue;
      }
      held.shift();
      out.send({ kind: 'reply', id: next.id, ok: true });
    }
  };
  const hold = (c: Call, err: unknown): void => {
    held.push(c);
    out.send({ kind: 'held', id: c.id, error: serializeError(err) });
    if (held.length === 1) setTimeout(() => void retryHeld(), HELD_RETRY_MS);
  };
  const takePosted = (c: Call): void => {
    if (held.length) return hold(c, new Error('earlier publishes are held'));
    publish(c).then(
      () => out.send({ kind: 'reply', id: c.id, ok: true }),
      (err: unknown) => hold(c, err),
    );
  };
  // the keys the worker mirrors: a write by anyone else tells it, once (it reads the key again);
  // a key of a prefix it mirrors whole, every time
  const watched = new Set<string>();
  const wholePrefixes: string[] = [];
  let serving = false;
  const stopWatching = parts.cache.watchWrites?.((key) => {
    if (serving) return;
    if (!watched.delete(key) && !wholePrefixes.some((p) => key.startsWith(p))) return;
    out.send({ kind: 'invalidate', key });
  });
  const cacheCall = (c: Call): Promise<unknown> => {
    if (c.method === 'mirrorWhole') {
      const entries = parts.cache.entriesWithPrefix;
      if (!stopWatching || !entries) return Promise.resolve({ keys: [], values: [], expiries: [], watched: false } satisfies WholeRead);
      // read at once with the watch starting: every later change is told after this answer
      const read: WholeRead = { keys: [], values: [], expiries: [], watched: true };
      for (const prefix of c.args[0] as string[]) {
        wholePrefixes.push(prefix);
        for (const e of entries.call(parts.cache, prefix)) {
          read.keys.push(e.key);
          read.values.push(e.value);
          read.expiries.push(e.expiresAt);
        }
      }
      return Promise.resolve(read);
    }
    if (c.method === 'mirror') {
      const keys = c.args[0] as string[];
      if (stopWatching) for (const k of keys) watched.add(k);
      const read: MirrorRead = {
        values: [],
        expiries: parts.cache.expiries?.(keys) ?? [],
        watched: stopWatching !== undefined,
      };
      return parts.cache.mget(keys).then((values) => ({ ...read, values }));
    }
    if (!CACHE_METHODS.has(c.method)) throw new Error(`cache.${c.method} is not bridged`);
    if (c.watch && stopWatching) {
      if (c.method === 'del') for (const k of c.args as string[]) watched.add(k);
      else watched.add(c.args[0] as string);
    }
    // a write of this worker's own is not told back to it (it applied it already)
    serving = true;
    try {
      return (parts.cache[c.method as 'get'] as (...a: unknown[]) => Promise<unknown>).apply(parts.cache, c.args);
    } finally {
      serving = false;
    }
  };
  const call = async (c: Call): Promise<unknown> => {
    if (c.target === 'cache') return cacheCall(c);
    if (c.target === 'sub') {
      const sub = subs.get(c.subId!);
      if (!sub) throw new Error(`no subscription ${c.subId}`);
      if (c.method === 'lag') return sub.lag();
      if (c.method === 'status') return sub.status();
      if (c.method === 'stop') {
        subs.delete(c.subId!);
        return sub.stop();
      }
      throw new Error(`subscription.${c.method} is not bridged`);
    }
    switch (c.method) {
      case 'publish':
        // behind held posted publishes, a confirmed one is refused (the worker retries it): it must not overtake them
        if (held.length) throw new Error('bus unavailable: earlier publishes are held');
        return publish(c);
      case 'ensureTopics':
        return parts.bus.ensureTopics(c.args[0] as TopicSpec[]);
      case 'ping':
        return parts.bus.ping();
      case 'producerStatus':
        return parts.bus.producerStatus();
      case 'subscribe': {
        const [opts, subId] = c.args as [Omit<SubscribeOptions, 'handler'>, number];
        const own: { sub?: Subscription } = {};
        const sub = await parts.bus.subscribe({
          ...opts,
          handler: (messages) =>
            new Promise<void>((resolve, reject) => {
              const id = nextDelivery++;
              deliveries.set(id, { resolve, reject });
              out.send({
                kind: 'deliver',
                id,
                subId,
                messages,
                status: own.sub?.status() ?? initialStatus(opts),
              });
            }),
        });
        own.sub = sub;
        subs.set(subId, sub);
        // the worker's side of it is the one the consumer metrics and /readyz there count
        liveConsumers.delete(sub);
        return sub.status();
      }
      default:
        throw new Error(`bus.${c.method} is not bridged`);
    }
  };
  port.on('message', (ms: (Call | Delivered)[]) => {
    for (const m of ms) {
      if (m.kind === 'delivered') {
        const d = deliveries.get(m.id);
        deliveries.delete(m.id);
        if (m.error) d?.reject(toError(m.error));
        else d?.resolve();
        continue;
      }
      if (m.posted) takePosted(m);
      else reply(m.id, call(m));
    }
  });
  return async () => {
    stopped = true;
    stopWatching?.();
    for (const d of deliveries.values()) d.reject(new Error('the worker thread is gone'));
    deliveries.clear();
    await Promise.allSettled([...subs.values()].map((s) => s.stop()));
    subs.clear();
    port.close();
  };
}

const initialStatus = (opts: { groupId: string; topics: string[] }): ConsumerStatus => ({
  groupId: opts.groupId,
  topics: opts.topics,
  state: 'starting',
  restarts: 0,
  partitions: 0,
  since: new Date().toISOString(),
});

/** The worker thread's end: RPC over the port. */
class Channel {
  private nextId = 1;
  private readonly calls = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  readonly handlers = new Map<number, { opts: SubscribeOptions; status: ConsumerStatus }>();
  private readonly out: Outbox<Call | Delivered>;
  /** A mirrored key changed at the owner (BridgedCache). */
  onInvalidate: (key: string) => void = () => undefined;
  /** A posted publish is held by the owner: the bus refused it (BridgedBus). */
  onHeld: (id: number, error: Error) => void = () => undefined;

  constructor(port: MessagePort, sending: BridgeSending) {
    const out = (this.out = new Outbox<Call | Delivered>(port, sending));
    port.on('message', (ms: (Reply | Deliver | Invalidate | Held)[]) => {
      for (const m of ms) {
        if (m.kind === 'invalidate') {
          this.onInvalidate(m.key);
          continue;
        }
        if (m.kind === 'held') {
          this.onHeld(m.id, toError(m.error));
          continue;
        }
        if (m.kind === 'reply') {
          const c = this.calls.get(m.id);
          this.calls.delete(m.id);
          if (m.ok) c?.resolve(m.value);
          else c?.reject(toError(m.error!));
          continue;
        }
        const h = this.handlers.get(m.subId);
        if (!h) {
          out.send({ kind: 'delivered', id: m.id, error: { name: 'Error', message: 'subscription stopped' } });
          continue;
        }
        h.status = m.status;
        h.opts.handler(m.messages).then(
          () => out.send({ kind: 'delivered', id: m.id }),
          (err: unknown) => out.send({ kind: 'delivered', id: m.id, error: serializeError(err) }),
        );
      }
    });
  }

  call<T>(target: Target, method: string, args: unknown[], subId?: number, flags: Pick<Call, 'posted' | 'watch'> = {}): Promise<T> {
    return this.issue<T>(target, method, args, subId, flags).answer;
  }

  /** A call and its id (a posted publish is known by it when the owner holds it). */
  issue<T>(
    target: Target,
    method: string,
    args: unknown[],
    subId?: number,
    flags: Pick<Call, 'posted' | 'watch'> = {},
  ): { id: number; answer: Promise<T> } {
    const id = this.nextId++;
    const answer = new Promise<T>((resolve, reject) => {
      this.calls.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.out.send({ kind: 'call', id, target, method, args, ...(subId !== undefined ? { subId } : {}), ...flags });
    });
    return { id, answer };
  }

  fail(reason: string): void {
    for (const c of this.calls.values()) c.reject(new Error(reason));
    this.calls.clear();
  }
}

/** The bus of the thread at the other end of the port (serveBridge), as this worker thread's Bus. */
export class BridgedBus implements Bus {
  readonly kind: Bus['kind'];
  private nextSub = 1;
  private producer: ProducerStatus = { state: 'idle', restarts: 0 };
  /** Messages posted and not yet taken by the owner (postedWindow). */
  private posted = 0;
  /** Posted publishes the owner holds (its bus refused them): publishes wait for confirmation meanwhile. */
  private readonly held = new Set<number>();
  private readonly roomWaiters: (() => void)[] = [];

  constructor(
    private readonly channel: Channel,
    kind: Bus['kind'],
    readonly maxReadyLag?: number,
    private readonly postedWindow = 0,
  ) {
    this.kind = kind;
    channel.onHeld = (id, err) => {
      this.held.add(id);
      this.failing(err);
    };
  }

  /** Messages posted to the owner and not yet taken (tests, metrics). */
  get postedPending(): number {
    return this.posted;
  }

  private failing(err: Error): void {
    if (this.producer.state !== 'failing')
      this.producer = { state: 'failing', failingSince: new Date().toISOString(), lastError: err.message, restarts: 0 };
  }

  ensureTopics(topics: TopicSpec[]): Promise<void> {
    return this.channel.call('bus', 'ensureTopics', [topics]);
  }

  async publish(topic: string, messages: BusMessage[]): Promise<void> {
    const texts: SerializedMessage[] = messages.map((m) => ({
      key: m.key,
      value: JSON.stringify(m.value),
      ...(m.headers ? { headers: m.headers } : {}),
      ...(m.validatedAs ? { validatedAs: m.validatedAs } : {}),
    }));
    if (this.postedWindow > 0) {
      // within the window: posted, resolved without the owner's answer (a publish larger than the window goes alone)
      while (this.held.size === 0 && this.posted > 0 && this.posted + texts.length > this.postedWindow)
        await new Promise<void>((r) => this.roomWaiters.push(r));
      if (this.held.size === 0) return this.post(topic, texts);
    }
    try {
      await this.channel.call('bus', 'publish', [topic, texts]);
      this.producer = { state: 'ok', restarts: 0 };
    } catch (err) {
      this.failing(err as Error);
      throw err;
    }
  }

  /** Posts the messages to the owner; its answer (the bus took them) frees their room in the window. */
  private post(topic: string, texts: SerializedMessage[]): void {
    const n = texts.length;
    this.posted += n;
    const { id, answer } = this.channel.issue('bus', 'publish', [topic, texts], undefined, { posted: true });
    const taken = (): void => {
      this.posted -= n;
      this.held.delete(id);
      for (const wake of this.roomWaiters.splice(0)) wake();
    };
    answer.then(
      () => {
        taken();
        if (this.held.size === 0) this.producer = { state: 'ok', restarts: 0 };
      },
      taken, // the channel failed: the owning thread is gone
    );
  }

  /** Every posted message was taken by the owner (its bus holds it), or the channel failed. */
  async drained(): Promise<void> {
    while (this.posted > 0) await new Promise<void>((r) => this.roomWaiters.push(r));
  }

  async subscribe(opts: SubscribeOptions): Promise<Subscription> {
    const subId = this.nextSub++;
    const entry = { opts, status: initialStatus(opts) };
    this.channel.handlers.set(subId, entry);
    const { handler: _handler, ...plain } = opts;
    entry.status = await this.channel.call<ConsumerStatus>('bus', 'subscribe', [plain, subId]);
    const channel = this.channel;
    const subscription: Subscription = {
      groupId: opts.groupId,
      status: () => entry.status,
      lag: () => channel.call<ConsumerLag>('sub', 'lag', [], subId),
      async stop() {
        liveConsumers.delete(subscription);
        await channel.call('sub', 'stop', [], subId);
        channel.handlers.delete(subId);
        entry.status = { ...entry.status, state: 'stopped', since: new Date().toISOString() };
      },
    };
    liveConsumers.add(subscription);
    return subscription;
  }

  producerStatus(): ProducerStatus {
    return this.producer;
  }

  ping(): Promise<void> {
    return this.channel.call('bus', 'ping', []);
  }

  /** The bus itself belongs to the other thread: closing here waits for the posted messages to be taken and stops this thread's subscriptions. */
  async close(): Promise<void> {
    await this.drained();
    await Promise.allSettled([...this.channel.handlers.keys()].map((subId) => this.channel.call('sub', 'stop', [], subId)));
    this.channel.handlers.clear();
  }
}

/** The cache of the thread at the other end of the port, as this worker thread's Cache. */
export class BridgedCache implements Cache {
  readonly kind: Cache['kind'];
  /** Mirrored keys' values (null: absent), each until its expiry or until the owner says it changed. */
  private readonly copies = new Map<string, { value: string | null; expiresAt: number | undefined }>();
  /** Per mirrored key, how often it changed here or was invalidated: a read answered after a change is not kept. */
  private readonly changes = new Map<string, number>();
  /**
   * The prefixes mirrored whole, once the owner sent their keys: a key of them with no copy here is
   * absent, unless it is `unsure` (changed since, and not read again yet).
   */
  private wholeKnown = false;
  private readonly unsure = new Set<string>();
  /** Keys of a whole prefix changed while the owner's list was on its way (that list may predate the change). */
  private inFlight: Set<string> | undefined;

  constructor(
    private readonly channel: Channel,
    kind: Cache['kind'],
    private readonly mirrored: readonly string[] = [],
    private readonly whole: readonly string[] = [],
  ) {
    this.kind = kind;
    channel.onInvalidate = (key) => this.changed(key);
    if (whole.length) this.mirrorWhole();
  }
  /** Asks the owner for every key of the whole prefixes (once, at start). */
  private mirrorWhole(): void {
    const inFlight = (this.inFlight = new Set());
    void this.channel.call<WholeRead>('cache', 'mirrorWhole', [this.whole], undefined, { watch: true }).then(
      (read) => {
        this.inFlight = undefined;
        if (!read.watched) return;
        read.keys.forEach((k, j) => {
          if (!inFlight.has(k)) this.copies.set(k, { value: read.values[j]!, expiresAt: read.expiries[j] });
        });
        for (const k of inFlight) if (!this.copies.has(k)) this.unsure.add(k);
        this.wholeKnown = true;
      },
      () => (this.inFlight = undefined), // the channel failed: keys are read one by one
    );
  }
  private inWhole(key: string): boolean {
    return this.whole.length > 0 && this.whole.some((p) => key.startsWith(p));
  }
  /** A key of a whole prefix that no writer has set: absent, known without asking the owner. */
  private knownAbsent(key: string): boolean {
    return this.wholeKnown && !this.unsure.has(key) && this.inWhole(key);
  }
  private c<T>(method: string, args: unknown[]): Promise<T> {
    return this.channel.call<T>('cache', method, args);
  }
  private mirrors(key: string): boolean {
    return this.mirrored.length > 0 && this.mirrored.some((p) => key.startsWith(p));
  }
  private changed(key: string): void {
    this.copies.delete(key);
    this.changes.set(key, (this.changes.get(key) ?? 0) + 1);
    if (this.inWhole(key)) {
      this.inFlight?.add(key);
      this.unsure.add(key);
    }
  }
  /** A write of a mirrored key: kept here at once, sent for the owner to watch. */
  private wrote(key: string, value: string | null, ttlSeconds?: number): void {
    this.changed(key);
    this.copies.set(key, { value, expiresAt: ttlSeconds ? Date.now() + ttlSeconds * 1000 : undefined });
  }
  async get(key: string) {
    return (await this.mget([key]))[0]!;
  }
  async mget(keys: string[]) {
    if (!this.mirrored.length) return this.c<(string | null)[]>('mget', [keys]);
    const now = Date.now();
    const out: (string | null)[] = new Array<string | null>(keys.length);
    const far: number[] = [];
    const mirror: number[] = [];
    keys.forEach((k, i) => {
      if (!this.mirrors(k)) return far.push(i);
      const copy = this.copies.get(k);
      if (copy && (copy.expiresAt === undefined || copy.expiresAt > now)) out[i] = copy.value;
      else if (!copy && this.knownAbsent(k)) out[i] = null;
      else mirror.push(i);
    });
    const farRead = far.length ? this.c<(string | null)[]>('mget', [far.map((i) => keys[i]!)]) : undefined;
    if (mirror.length) {
      const wanted = mirror.map((i) => keys[i]!);
      const before = wanted.map((k) => this.changes.get(k) ?? 0);
      const read = await this.channel.call<MirrorRead>('cache', 'mirror', [wanted], undefined, { watch: true });
      wanted.forEach((k, j) => {
        out[mirror[j]!] = read.values[j]!;
        // kept unless it changed since the read was sent (the answer may predate that change)
        if (read.watched && (this.changes.get(k) ?? 0) === before[j]) {
          this.copies.set(k, { value: read.values[j]!, expiresAt: read.expiries[j] });
          this.unsure.delete(k);
        }
      });
    }
    if (farRead) (await farRead).forEach((v, j) => (out[far[j]!] = v));
    return out;
  }
  set(key: string, value: string, ttlSeconds?: number) {
    if (!this.mirrors(key)) return this.c<void>('set', [key, value, ttlSeconds]);
    this.wrote(key, value, ttlSeconds);
    return this.channel.call<void>('cache', 'set', [key, value, ttlSeconds], undefined, { watch: true });
  }
  async setIfAbsent(key: string, value: string, ttlSeconds?: number) {
    if (!this.mirrors(key)) return this.c<boolean>('setIfAbsent', [key, value, ttlSeconds]);
    this.changed(key);
    const before = this.changes.get(key);
    const expiresAt = ttlSeconds ? Date.now() + ttlSeconds * 1000 : undefined;
    const set = await this.channel.call<boolean>('cache', 'setIfAbsent', [key, value, ttlSeconds], undefined, { watch: true });
    // the value is known here when this write set it and nothing changed it since (else it is read again)
    if (set && this.changes.get(key) === before) {
      this.copies.set(key, { value, expiresAt });
      this.unsure.delete(key);
    }
    return set;
  }
  setJsonIfHigher(key: string, value: string, rankField: string, rank: number) {
    if (this.mirrors(key)) this.changed(key);
    return this.c<boolean>('setJsonIfHigher', [key, value, rankField, rank]);
  }
  del(...keys: string[]) {
    if (!keys.some((k) => this.mirrors(k))) return this.c<number>('del', keys);
    for (const k of keys) if (this.mirrors(k)) this.changed(k);
    return this.c<number>('del', keys);
  }
  incr(key: string, ttlSeconds?: number) {
    if (this.mirrors(key)) this.changed(key);
    return this.c<number>('incr', [key, ttlSeconds]);
  }
  hset(key: string, values: Record<string, string>) {
    return this.c<void>('hset', [key, values]);
  }
  hget(key: string, field: string) {
    return this.c<string | null>('hget', [key, field]);
  }
  hgetall(key: string) {
    return this.c<Record<string, string>>('hgetall', [key]);
  }
  hdel(key: string, ...fields: string[]) {
    return this.c<number>('hdel', [key, ...fields]);
  }
  ping() {
    return this.c<void>('ping', []);
  }
  /** The cache belongs to the other thread: nothing to close here. */
  async close(): Promise<void> {}
}

/** This worker thread's bus and cache, served by serveBridge at the other end of `port`. */
export function bridgedParts(
  port: MessagePort,
  kinds: { bus: Bus['kind']; cache: Cache['kind']; maxReadyLag?: number },
  options: BridgeOptions = {},
): { bus: BridgedBus; cache: BridgedCache; fail(reason: string): void } {
  const channel = new Channel(port, options.sending ?? 'turn');
  return {
    bus: new BridgedBus(channel, kinds.bus, kinds.maxReadyLag, options.postedWindow),
    cache: new BridgedCache(channel, kinds.cache, [...(options.mirrored ?? []), ...(options.mirroredWhole ?? [])], options.mirroredWhole),
    fail: (reason) => channel.fail(reason),
  };
}

/**
 * The relational store for a worker thread that must not use one (ingest's device ports own no
 * tables): every use throws, naming the thread, rather than quietly answering nothing.
 */
export function absentDb(where: string): Db {
  const fail = (): never => {
    throw new Error(`no relational store in ${where}`);
  };
  return {
    kind: 'pglite',
    get orm(): Db['orm'] {
      return fail();
    },
    migrate: async () => fail(),
    rows: async () => fail(),
    ping: async () => undefined,
    close: async () => undefined,
  };
}
