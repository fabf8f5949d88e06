import type { z } from 'zod';
import { dlqTopic } from '@corridor/contracts';
import type { Bus, ConsumedMessage, Subscription } from './adapters/bus';
import { isRetryable } from './errors';
import type { Logger } from './logger';
import { counter } from './metrics';

const consumed = counter('bus_messages_consumed_total', 'Messages handled by consumers', ['group', 'topic', 'outcome']);

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
  return opts.bus.subscribe({
    groupId: opts.groupId,
    topics: [opts.topic],
    fromBeginning: opts.fromBeginning ?? true,
    handler: async (raw) => {
      const valid: z.output<S>[] = [];
      const validRaw: ConsumedMessage[] = [];
      const dead: { key: string; value: unknown }[] = [];
      for (const m of raw) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(m.value);
        } catch {
          dead.push({ key: m.key, value: { reason: 'invalid JSON', raw: m.value.slice(0, 10000), offset: m.offset, partition: m.partition } });
          continue;
        }
        const r = opts.schema.safeParse(parsed);
        if (r.success) {
          valid.push(r.data);
          validRaw.push(m);
        } else {
          dead.push({ key: m.key, value: { reason: 'schema', issues: r.error.issues.slice(0, 10), message: parsed, offset: m.offset, partition: m.partition } });
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
            validRaw.map((m) => ({ key: m.key, value: { reason: 'handler', error: String(err), message: JSON.parse(m.value) as unknown } })),
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
