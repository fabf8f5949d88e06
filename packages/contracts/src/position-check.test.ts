import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isParsedPositionMessage } from './position-check';
import { PositionMessage } from './positions';
import { positionId } from './position-id';

/** A value as ingest's toPositionMessage builds it: every field present. */
const built = fc
  .record({
    deviceId: fc.integer({ min: 1, max: 2 ** 20 - 1 }),
    fixMs: fc.integer({ min: Date.UTC(2001, 0, 1), max: Date.UTC(2099, 11, 31) }),
    serverMs: fc.integer({ min: Date.UTC(2001, 0, 1), max: Date.UTC(2099, 11, 31) }),
    valid: fc.boolean(),
    latitude: fc.double({ min: -90, max: 90, noNaN: true }),
    longitude: fc.double({ min: -180, max: 180, noNaN: true }),
    speed: fc.double({ min: 0, max: 869, noNaN: true }),
    course: fc.double({ min: 0, max: 360, noNaN: true }),
    altitude: fc.option(fc.double({ noNaN: true, noDefaultInfinity: true }), { nil: null }),
    satellites: fc.option(fc.nat(40), { nil: null }),
    ignition: fc.option(fc.boolean(), { nil: null }),
    alarm: fc.option(fc.string(), { nil: null }),
    attributes: fc.dictionary(
      fc.string().filter((k) => k !== '__proto__'),
      fc.oneof(fc.string(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null)),
      { noNullPrototype: true }, // a plain object, as a decoder makes it
    ),
  })
  .map((r) => {
    const fixTime = new Date(r.fixMs - (r.fixMs % 1000)).toISOString();
    return {
      id: positionId(r.deviceId, fixTime),
      deviceId: r.deviceId,
      uniqueId: `35800000${r.deviceId}`,
      protocol: 'gt06',
      fixTime,
      deviceTime: fixTime,
      serverTime: new Date(r.serverMs).toISOString(),
      valid: r.valid,
      latitude: r.latitude,
      longitude: r.longitude,
      speed: r.speed,
      course: r.course,
      altitude: r.altitude,
      accuracy: null,
      satellites: r.satellites,
      hdop: null,
      ignition: r.ignition,
      odometer: 1234.5,
      power: null,
      battery: 4.1,
      alarm: r.alarm,
      crcValid: true,
      rawFrameId: 'f-1',
      attributes: r.attributes,
    } as Record<string, unknown>;
  });

/** Values a field may be spoiled with: wrong types, edges of the ranges, other time forms. */
const spoilers: unknown[] = [
  undefined,
  null,
  NaN,
  Infinity,
  -Infinity,
  -1,
  -0,
  0,
  0.5,
  1,
  2 ** 53,
  90.0001,
  -180.5,
  361,
  870,
  '',
  'x',
  true,
  {},
  [],
  '2026-02-29T00:00:00.000Z',
  '2024-02-29T00:00:00.000Z',
  '1900-02-29T00:00:00.000Z',
  '2000-02-29T00:00:00.000Z',
  '2026-04-31T00:00:00.000Z',
  '2026-12-31T23:59:59.999Z',
  '2026-13-01T00:00:00.000Z',
  '2026-01-01T24:00:00.000Z',
  '2026-01-01T00:60:00.000Z',
  '2026-01-01T00:00:60.000Z',
  '2026-01-01T00:00:00Z',
  '2026-01-01T00:00:00.000+00:00',
  '2026-01-01 00:00:00.000Z',
  '+02026-01-01T00:00:00.000Z',
  '2026-01-01T00:00:00.0000',
];
const keys = [...Object.keys(PositionMessage.shape), 'extra', '__proto__'];

/** What the schema makes of v, as the bus would carry it. */
const json = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

describe('isParsedPositionMessage', () => {
  it('accepts what ingest builds, and the schema returns those values as they are', () => {
    fc.assert(
      fc.property(built, (v) => {
        expect(isParsedPositionMessage(v)).toBe(true);
        expect(json(PositionMessage.parse(v))).toEqual(json(v));
      }),
      { numRuns: 500 },
    );
  });

  it('accepts nothing the schema refuses or changes (a field spoiled, left out or added)', () => {
    let accepted = 0;
    fc.assert(
      fc.property(built, fc.constantFrom(...keys), fc.constantFrom(...spoilers), fc.boolean(), (v, key, spoiler, drop) => {
        const w = { ...v };
        if (drop) delete w[key];
        else if (key === '__proto__') Object.defineProperty(w, key, { value: spoiler, enumerable: true });
        else w[key] = spoiler;
        if (!isParsedPositionMessage(w)) return;
        accepted++;
        const r = PositionMessage.safeParse(w);
        expect(r.success).toBe(true);
        expect(json(r.data)).toEqual(json(w));
      }),
      { numRuns: 5000 },
    );
    expect(accepted).toBeGreaterThan(0);
  });

  it('checks the calendar of the times: each day of 1999-2101 as toISOString writes it, and no day past a month end', () => {
    const base = { ...fc.sample(built, { numRuns: 1, seed: 1 })[0]! };
    for (let ms = Date.UTC(1999, 0, 1); ms < Date.UTC(2101, 0, 1); ms += 86_400_000) {
      const at = new Date(ms + 86_399_999).toISOString();
      expect(isParsedPositionMessage({ ...base, serverTime: at })).toBe(true);
    }
    for (const year of [1900, 2000, 2023, 2024, 2100])
      for (let month = 1; month <= 12; month++)
        for (const day of [29, 30, 31, 32]) {
          const at = `${year}-${String(month).padStart(2, '0')}-${day}T12:00:00.000Z`;
          const v = { ...base, serverTime: at };
          expect(isParsedPositionMessage(v), at).toBe(PositionMessage.safeParse(v).success);
        }
  });
});
