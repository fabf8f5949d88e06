import { z } from 'zod';
import { dlqTopic } from '@corridor/contracts';
import type { Bus, BusMessage, ConsumedMessage, Subscription } from './adapters/bus';
import { isRetryable } from './errors';
import type { Logger } from './logger';
import { counter } from './metrics';

const consumed = counter('bus_messages_consumed_total', 'Messages handled by consumers', ['group', 'topic', 'outcome']);

/**
 * Messages the in-process bus hands to every group of a topic as the same objects, validated once
 * for all of them: in the one-process stack five consumers read each position, and JSON.parse with
 * the zod check cost each of them about 50 µs a message (bench/results/bus-encoding.json). The
 * value they share is deeply frozen, so that no handler can change what another one reads.
 *
 * The value read is kept on the message itself, in two symbol-keyed slots (the schema and its
 * output), not in a WeakMap of WeakMaps keyed by the message: the bus keeps its messages for the
 * life of the process, and a WeakMap entry per message (two tables, an ephemeron each) was 7.8 % of
 * the embedded stack's main thread at saturation, setting them and the collector walking them
 * (issue 28, bench/results/profiles/traccar-embedded-saturation-mainthread-before.txt). A message
 * holds one schema's output: read with another schema (no consumer does), it is checked each time.
 */
const READ_AS = Symbol('corridor.consumer.readAs');
const READ_VALUE = Symbol('corridor.consumer.readValue');
interface ReadMessage extends ConsumedMessage {
  [READ_AS]?: z.ZodTypeAny;
  [READ_VALUE]?: unknown;
}

/** Freezes a JSON value and everything in it (for…in: a parsed object has only its own enumerable keys). */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const k in value) deepFreeze(value[k]);
  }
  return value;
}

type Checked<T> = { ok: true; data: T } | { ok: false; dead: { reason: string } & Record<string, unknown> };

/** The contract's id of a schema (`.meta({ id })`), the name a producer marks a value it parsed with. */
const schemaId = (schema: z.ZodTypeAny): string | undefined => z.globalRegistry.get(schema)?.id;

function check<S extends z.ZodTypeAny>(m: ConsumedMessage, schema: S, shared: boolean): Checked<z.output<S>> {
  if (shared && (m as ReadMessage)[READ_AS] === schema) return { ok: true, data: (m as ReadMessage)[READ_VALUE] as z.output<S> };
  let parsed: unknown;
  try {
    parsed = JSON.parse(m.value);
  } catch {
    return { ok: false, dead: { reason: 'invalid JSON', raw: m.value.slice(0, 10000), offset: m.offset, partition: m.partition } };
  }
  // parsed with this schema by a producer of this process (publishValidated): the JSON of its output is an output
  if (shared && m.validatedAs !== undefined && m.validatedAs === schemaId(schema))
    return { ok: true, data: memoize(m, schema, parsed as z.output<S>) };
  const r = schema.safeParse(parsed);
  if (!r.success)
    return {
      ok: false,
      dead: { reason: 'schema', issues: r.error.issues.slice(0, 10), message: parsed, offset: m.offset, partition: m.partition },
    };
  if (!shared) return { ok: true, data: r.data };
  return { ok: true, data: memoize(m, schema, r.data) };
}

function memoize<T>(m: ConsumedMessage, schema: z.ZodTypeAny, data: T): T {
  const r = m as ReadMessage;
  if (r[READ_AS] === undefined) {
    r[READ_VALUE] = deepFreeze(data);
    r[READ_AS] = schema;
  }
  return data;
}

/**
 * Publishes values of a contract schema. On the in-process bus each value is parsed with the schema
 * here, in the producer's thread (an ingest thread of the one-process stack), and marked with the
 * schema's id, so that consumeValidated in this process reads it with JSON.parse alone instead of
 * the schema's check on the main thread, where every consumer runs (issue 28: zod was 17 % of it at
 * saturation). A value the schema refuses is published unmarked: its consumers send it to the
 * dead-letter topic as before. On Kafka the values go as they are (consumers elsewhere validate
 * what they read; the producer's check would be paid twice).
 */
export async function publishValidated<S extends z.ZodTypeAny>(
  bus: Bus,
  topic: string,
  schema: S,
  messages: (Omit<BusMessage, 'value' | 'validatedAs'> & { value: z.input<S> })[],
  /**
   * A check that accepts only values the schema returns as they are (contracts' isParsedPositionMessage):
   * what it accepts is marked without the schema's parse and its copy; the rest are parsed.
   */
  parsed?: (value: unknown) => boolean,
): Promise<void> {
  const id = bus.kind === 'memory' ? schemaId(schema) : undefined;
  if (id === undefined) return bus.publish(topic, messages);
  return bus.publish(
    topic,
    messages.map((m) => {
      if (parsed?.(m.value)) return { ...m, validatedAs: id };
      const r = schema.safeParse(m.value);
      return r.success ? { ...m, value: r.data, validatedAs: id } : m;
    }),
  );
}

export interface ValidatedConsumerOptions<S extends z.ZodTypeAny> {
  bus: Bus;
  logger: Logger;
  groupId: string;
  topic: string;
  schema: S;
  fromBeginning?: boolean;
  /** Handles a batch of valid messages of one partition, in order. Throw to get them again. */
  handle: (messages: z.output<S>[], raw: ConsumedMessage[]) => Promise<void>;
  maxRetries?: number;
}

/**
 * Subscribes with validation: a message that fails its schema goes to `<topic>.dlq` with the
 * reason (never reaches the handler); a handler error that is retryable is retried with backoff
 * (the bus redelivers); a non-retryable one sends the batch to the DLQ after maxRetries.
 */
export async function consumeValidated<S extends z.ZodTypeAny>(opts: ValidatedConsumerOptions<S>): Promise<Subscription> {
  const log = opts.logger.child({ consumer: opts.groupId, topic: opts.topic });
  const failures = new Map<string, number>();
  const maxRetries = opts.maxRetries ?? 5;
  // only the in-process bus delivers one message object to several groups
  const shared = opts.bus.kind === 'memory';
  return opts.bus.subscribe({
    groupId: opts.groupId,
    topics: [opts.topic],
    fromBeginning: opts.fromBeginning ?? true,
    handler: async (raw) => {
      const valid: z.output<S>[] = [];
      const validRaw: ConsumedMessage[] = [];
      const dead: { key: string; value: unknown }[] = [];
      for (const m of raw) {
        const r = check(m, opts.schema, shared);
        if (r.ok) {
          valid.push(r.data);
          validRaw.push(m);
        } else {
          dead.push({ key: m.key, value: r.dead });
        }
      }
      if (dead.length) {
        await opts.bus.publish(dlqTopic(opts.topic), dead);
        consumed.inc({ group: opts.groupId, topic: opts.topic, outcome: 'dlq' }, dead.length);
        log.warn({ count: dead.length }, 'invalid messages sent to the dead-letter topic');
      }
      if (!valid.length) return;
      const batchKey = `${raw[0]?.partition}:${raw[0]?.offset}`;
      try {
        await opts.handle(valid, validRaw);
        failures.delete(batchKey);
        consumed.inc({ group: opts.groupId, topic: opts.topic, outcome: 'ok' }, valid.length);
      } catch (err) {
        const n = (failures.get(batchKey) ?? 0) + 1;
        failures.set(batchKey, n);
        if (!isRetryable(err) && n > maxRetries) {
          failures.delete(batchKey);
          await opts.bus.publish(
            dlqTopic(opts.topic),
            validRaw.map((m) => ({
              key: m.key,
              value: { reason: 'handler', error: String(err), message: JSON.parse(m.value) as unknown },
            })),
          );
          consumed.inc({ group: opts.groupId, topic: opts.topic, outcome: 'dlq' }, valid.length);
          log.error({ err, count: valid.length }, 'handler kept failing: batch sent to the dead-letter topic');
          return;
        }
        consumed.inc({ group: opts.groupId, topic: opts.topic, outcome: 'retry' }, valid.length);
        log.warn({ err, attempt: n }, 'handler failed; the batch will be redelivered');
        await new Promise((r) => setTimeout(r, Math.min(5000, 100 * 2 ** n)));
        throw err;
      }
    },
  });
}
