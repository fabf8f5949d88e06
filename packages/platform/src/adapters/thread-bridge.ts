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
 */
type Target = 'bus' | 'cache' | 'sub';
interface Call {
  kind: 'call';
  id: number;
  target: Target;
  method: string;
  args: unknown[];
  subId?: number;
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
  parts: { bus: Bus & RawPublisher; cache: Cache },
  port: MessagePort,
  sending: BridgeSending = 'turn',
): () => Promise<void> {
  const out = new Outbox<Reply | Deliver>(port, sending);
  const subs = new Map<number, Subscription>();
  const deliveries = new Map<number, { resolve: () => void; reject: (e: Error) => void }>();
  let nextDelivery = 1;
  const reply = (id: number, p: Promise<unknown>): void => {
    p.then(
      (value) => out.send({ kind: 'reply', id, ok: true, value }),
      (err: unknown) => out.send({ kind: 'reply', id, ok: false, error: serializeError(err) }),
    );
  };
  const call = async (c: Call): Promise<unknown> => {
    if (c.target === 'cache') {
      if (!CACHE_METHODS.has(c.method)) throw new Error(`cache.${c.method} is not bridged`);
      return (parts.cache[c.method as 'get'] as (...a: unknown[]) => Promise<unknown>).apply(parts.cache, c.args);
    }
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
      case 'publish': {
        const [topic, messages] = c.args as [string, SerializedMessage[]];
        if (parts.bus.publishSerialized) return parts.bus.publishSerialized(topic, messages);
        return parts.bus.publish(
          topic,
          messages.map((m) => ({ ...m, value: JSON.parse(m.value) as unknown })),
        );
      }
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
      reply(m.id, call(m));
    }
  });
  return async () => {
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

  constructor(port: MessagePort, sending: BridgeSending) {
    const out = (this.out = new Outbox<Call | Delivered>(port, sending));
    port.on('message', (ms: (Reply | Deliver)[]) => {
      for (const m of ms) {
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

  call<T>(target: Target, method: string, args: unknown[], subId?: number): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.calls.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.out.send({ kind: 'call', id, target, method, args, ...(subId !== undefined ? { subId } : {}) });
    });
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

  constructor(
    private readonly channel: Channel,
    kind: Bus['kind'],
    readonly maxReadyLag?: number,
  ) {
    this.kind = kind;
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
    try {
      await this.channel.call('bus', 'publish', [topic, texts]);
      this.producer = { state: 'ok', restarts: 0 };
    } catch (err) {
      if (this.producer.state !== 'failing')
        this.producer = { state: 'failing', failingSince: new Date().toISOString(), lastError: (err as Error).message, restarts: 0 };
      throw err;
    }
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

  /** The bus itself belongs to the other thread: closing here stops this thread's subscriptions only. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.channel.handlers.keys()].map((subId) => this.channel.call('sub', 'stop', [], subId)));
    this.channel.handlers.clear();
  }
}

/** The cache of the thread at the other end of the port, as this worker thread's Cache. */
export class BridgedCache implements Cache {
  readonly kind: Cache['kind'];
  constructor(
    private readonly channel: Channel,
    kind: Cache['kind'],
  ) {
    this.kind = kind;
  }
  private c<T>(method: string, args: unknown[]): Promise<T> {
    return this.channel.call<T>('cache', method, args);
  }
  get(key: string) {
    return this.c<string | null>('get', [key]);
  }
  mget(keys: string[]) {
    return this.c<(string | null)[]>('mget', [keys]);
  }
  set(key: string, value: string, ttlSeconds?: number) {
    return this.c<void>('set', [key, value, ttlSeconds]);
  }
  setIfAbsent(key: string, value: string, ttlSeconds?: number) {
    return this.c<boolean>('setIfAbsent', [key, value, ttlSeconds]);
  }
  setJsonIfHigher(key: string, value: string, rankField: string, rank: number) {
    return this.c<boolean>('setJsonIfHigher', [key, value, rankField, rank]);
  }
  del(...keys: string[]) {
    return this.c<number>('del', keys);
  }
  incr(key: string, ttlSeconds?: number) {
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
  sending: BridgeSending = 'turn',
): { bus: BridgedBus; cache: BridgedCache; fail(reason: string): void } {
  const channel = new Channel(port, sending);
  return {
    bus: new BridgedBus(channel, kinds.bus, kinds.maxReadyLag),
    cache: new BridgedCache(channel, kinds.cache),
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
