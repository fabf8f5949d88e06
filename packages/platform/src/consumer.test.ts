import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PositionMessage, dlqTopic, positionId } from '@corridor/contracts';
import type { Bus, BusMessage, Subscription } from './adapters/bus';
import { MemoryBus } from './adapters/bus-memory';
import { consumeValidated, publishValidated } from './consumer';
import { createLogger } from './logger';
import { eventually } from './testing/eventually';

const log = createLogger('consumer-test', 'silent');
let subs: Subscription[] = [];
afterEach(async () => {
  await Promise.all(subs.map((s) => s.stop()));
  subs = [];
});

/** A contract-like schema whose check counts its runs. */
let checks = 0;
const Reading = z
  .object({ n: z.number().min(0), unit: z.string().default('m') })
  .refine(() => ++checks > 0)
  .meta({ id: 'ConsumerTestReading' });

async function consume<S extends z.ZodTypeAny>(bus: Bus, groupId: string, topic: string, schema: S): Promise<z.output<S>[]> {
  const seen: z.output<S>[] = [];
  subs.push(await consumeValidated({ bus, logger: log, groupId, topic, schema, handle: async (ms) => void seen.push(...ms) }));
  return seen;
}

describe('publishValidated and consumeValidated', () => {
  it('checks a value once in the producer on the in-process bus, and its consumers take it without checking it again', async () => {
    const bus = new MemoryBus(2, 20);
    const [a, b] = [await consume(bus, 'a', 'r.v1', Reading), await consume(bus, 'b', 'r.v1', Reading)];
    checks = 0;
    await publishValidated(bus, 'r.v1', Reading, [{ key: '1', value: { n: 5 } }]);
    await bus.publish('r.v1', [{ key: '1', value: { n: 6 } }]); // not marked: checked by the consumers (once for both groups)
    await eventually('both groups handled both', () => expect([a.length, b.length]).toEqual([2, 2]));
    expect(a).toEqual([
      { n: 5, unit: 'm' },
      { n: 6, unit: 'm' },
    ]);
    expect(b).toEqual(a);
    expect(Object.isFrozen(a[0])).toBe(true);
    expect(checks).toBe(2); // the producer's check of 5, one consumer-side check of 6
  });

  it('hands every group the one value read, and a group reading with another schema its own', async () => {
    const bus = new MemoryBus(2, 20);
    const Other = z.object({ n: z.number().transform((n) => n * 10) });
    const [a, b] = [await consume(bus, 'a', 'r.v1', Reading), await consume(bus, 'b', 'r.v1', Reading)];
    const [c, d] = [await consume(bus, 'c', 'r.v1', Other), await consume(bus, 'd', 'r.v1', Other)];
    checks = 0;
    await bus.publish('r.v1', [
      { key: '1', value: { n: 1 } },
      { key: '1', value: { n: 2, unit: 'km' } },
    ]);
    await eventually('every group handled both', () => expect([a, b, c, d].map((x) => x.length)).toEqual([2, 2, 2, 2]));
    expect(a).toEqual([
      { n: 1, unit: 'm' },
      { n: 2, unit: 'km' },
    ]);
    expect(b[0]).toBe(a[0]); // the same object, read once
    expect(b[1]).toBe(a[1]);
    expect(checks).toBe(2);
    expect(c).toEqual([{ n: 10 }, { n: 20 }]); // whichever schema read a message first, the other gets its own output
    expect(d).toEqual(c);
    await bus.publish('r.v1', [{ key: '1', value: { n: 3 } }]);
    await eventually('read again', () => expect([a.length, c.length]).toEqual([3, 3]));
    expect(c[2]).toEqual({ n: 30 });
    expect(Object.isFrozen(a[2])).toBe(true);
  });

  it('publishes a value the schema refuses unmarked, so the consumer sends it to the dead-letter topic', async () => {
    const bus = new MemoryBus(2, 20);
    const seen = await consume(bus, 'a', 'r.v1', Reading);
    const dead = await consume(bus, 'dlq', dlqTopic('r.v1'), z.object({ reason: z.string() }).loose());
    await publishValidated(bus, 'r.v1', Reading, [
      { key: '1', value: { n: -1 } },
      { key: '1', value: { n: 1 } },
    ]);
    await eventually('the bad one dead-lettered', () => expect(dead.map((d) => d.reason)).toEqual(['schema']));
    await eventually('the good one handled', () => expect(seen).toEqual([{ n: 1, unit: 'm' }]));
  });

  it("marks a value the producer's own check accepts without the schema's parse, and parses the rest", async () => {
    const bus = new MemoryBus(2, 20);
    const seen = await consume(bus, 'a', 'r.v1', Reading);
    const dead = await consume(bus, 'dlq', dlqTopic('r.v1'), z.object({ reason: z.string() }).loose());
    checks = 0;
    const whole = (v: unknown): boolean => typeof (v as { unit?: unknown }).unit === 'string';
    await publishValidated(
      bus,
      'r.v1',
      Reading,
      [
        { key: '1', value: { n: 1, unit: 'km' } }, // accepted by the check: not parsed, marked
        { key: '1', value: { n: 2 } }, // not accepted: parsed (its default filled), marked
        { key: '1', value: { n: -3 } }, // refused by the schema: unmarked, dead-lettered
      ],
      whole,
    );
    await eventually('the good ones handled', () =>
      expect(seen).toEqual([
        { n: 1, unit: 'km' },
        { n: 2, unit: 'm' },
      ]),
    );
    await eventually('the bad one dead-lettered', () => expect(dead.map((d) => d.reason)).toEqual(['schema']));
    expect(checks).toBe(3); // the producer's parses of 2 and -3, the consumer's check of -3: never 1's
  });

  it('checks a message marked with another schema', async () => {
    const bus = new MemoryBus(2, 20);
    const seen = await consume(bus, 'a', 'r.v1', Reading);
    const dead = await consume(bus, 'dlq', dlqTopic('r.v1'), z.object({ reason: z.string() }).loose());
    await bus.publish('r.v1', [
      { key: '1', value: { n: 'x' }, validatedAs: 'SomethingElse' },
      { key: '1', value: { n: 2 } },
    ]);
    await eventually('the bad one dead-lettered', () => expect(dead.map((d) => d.reason)).toEqual(['schema']));
    await eventually('the good one handled', () => expect(seen).toEqual([{ n: 2, unit: 'm' }]));
  });

  it('gives a consumer the same position whether the producer checked it or the consumer did', async () => {
    const bus = new MemoryBus(2, 20);
    const seen = await consume(bus, 'a', 'positions.v1', PositionMessage);
    const t = '2026-03-01T10:00:00.000Z';
    // as ingest builds it: defaults left out, no deviceTime, an undefined optional
    const p = {
      id: positionId(7, t),
      deviceId: 7,
      uniqueId: '358000000000007',
      protocol: 'gt06',
      fixTime: t,
      serverTime: t,
      valid: true,
      latitude: -1.3,
      longitude: 36.8,
      speed: 0,
      course: 0,
      address: undefined,
      attributes: { sat: 9, motion: false },
    };
    await publishValidated(bus, 'positions.v1', PositionMessage, [{ key: '7', value: p }]);
    await bus.publish('positions.v1', [{ key: '7', value: p }]);
    await eventually('both handled', () => expect(seen).toHaveLength(2));
    expect(seen[0]).toEqual(seen[1]);
    expect(seen[0]).toMatchObject({ altitude: null, crcValid: true, rawFrameId: null });
  });

  it('leaves the values as they are on Kafka, where consumers of other processes check what they read', async () => {
    const sent: BusMessage[] = [];
    const kafka = { kind: 'kafka', publish: async (_t: string, ms: BusMessage[]) => void sent.push(...ms) } as unknown as Bus;
    checks = 0;
    await publishValidated(kafka, 'r.v1', Reading, [{ key: '1', value: { n: 5 } }]);
    expect(sent).toEqual([{ key: '1', value: { n: 5 } }]);
    expect(checks).toBe(0);
  });
});
