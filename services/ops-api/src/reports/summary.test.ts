import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PositionMessage, ReportSummary, type PositionMessageInput, positionId } from '@corridor/contracts';
import { EARTH_RADIUS_M } from '@corridor/geodata/geo-math';
import { insertPositions } from '@corridor/platform';
import { streamReportFixes } from '../clickhouse/report-positions';
import { streamSummaryParts } from '../clickhouse/report-summary';
import { createTestAdapters, primaryKind, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import { dayBoundaries } from './calendar-days';
import { perDevice } from './device-runs';
import { fixDistance, fixTrack, type ReportFix } from './fixes';
import type { ReportDevice } from './report-devices';
import { summaryItem, summaryRun } from './summary';
import { lcg } from './random-track';
import { buildTrack, trackPositions, type Segment } from './synthetic-track';

/**
 * The summary is summed in ClickHouse (report-summary.ts) and joined per device and day here. On
 * fixes it must say what a pass over every fix says (Traccar's summary, the per-fix fold below),
 * whatever the pages the store is read in; status-only records have their own tests at the end.
 */
let adapters: TestAdapters;
const T0 = Date.parse('2026-03-02T06:00:00Z');
const at = (s: number): string => new Date(T0 + s * 1000).toISOString();
const DAY = 86_400_000;
/** knots: the server default highest plausible speed (REPORT_MAX_SPEED). */
const MAX_SPEED = 108;

interface Ask {
  devices: ReportDevice[];
  from: number;
  to: number;
  boundaries?: number[];
  speedThreshold?: number;
  ignoreOdometer?: boolean;
  pageRows?: number;
}

/** As the service resolves it: the request's, else the device attribute, else the default. */
const threshold = (a: Ask, d: ReportDevice): number => a.speedThreshold ?? Number(d.attributes['event.motion.speedThreshold'] ?? 0.01);

/** The summary as the service computes it. */
async function summary(a: Ask): Promise<ReportSummary[]> {
  const parts = streamSummaryParts(adapters.analytics)({
    deviceIds: a.devices.map((d) => d.id),
    from: new Date(a.from),
    to: new Date(a.to),
    boundaries: a.boundaries ?? [],
    speedThreshold: a.speedThreshold ?? 0.01,
    radiusMetres: EARTH_RADIUS_M,
    maxSpeed: MAX_SPEED,
    pageRows: a.pageRows,
    deviceSpeedThresholds: new Map(a.devices.map((d) => [d.id, threshold(a, d)])),
  });
  const out: ReportSummary[] = [];
  for await (const b of perDevice(parts, (id) =>
    summaryRun(
      a.devices.find((d) => d.id === id)!,
      { ignoreOdometer: a.ignoreOdometer ?? false, maxSpeed: MAX_SPEED },
    ),
  )) {
    out.push(...b.map((s) => ReportSummary.parse(s)));
  }
  return out;
}

/** The per-fix pass (what the summary computed before it was summed in the store), over the fixes as the trips report reads them. */
async function perFix(a: Ask): Promise<ReportSummary[]> {
  const out: ReportSummary[] = [];
  const boundaries = a.boundaries ?? [];
  for (const device of [...a.devices].sort((x, y) => x.id - y.id)) {
    const track = fixTrack(threshold(a, device), MAX_SPEED);
    let bucket: { first: ReportFix; last: ReportFix; maxSpeed: number; movingSpeedSum: number; movingFixes: number } | undefined;
    let day = 0;
    for await (const batch of streamReportFixes(adapters.analytics)({
      deviceIds: [device.id],
      from: new Date(a.from),
      to: new Date(a.to),
    })) {
      for (const row of batch) {
        const fix = track(row);
        let d = day;
        while (d < boundaries.length && fix.time >= boundaries[d]!) d++;
        if (bucket && d !== day) {
          out.push(summaryItem(device, bucket, { ignoreOdometer: a.ignoreOdometer ?? false, maxSpeed: MAX_SPEED }));
          bucket = undefined;
        }
        day = d;
        bucket ??= { first: fix, last: fix, maxSpeed: 0, movingSpeedSum: 0, movingFixes: 0 };
        bucket.last = fix;
        bucket.maxSpeed = Math.max(bucket.maxSpeed, fix.speed);
        if (fix.moving) {
          bucket.movingSpeedSum += fix.speed;
          bucket.movingFixes++;
        }
      }
    }
    if (bucket) out.push(summaryItem(device, bucket, { ignoreOdometer: a.ignoreOdometer ?? false, maxSpeed: MAX_SPEED }));
  }
  return out.map((s) => ReportSummary.parse(s));
}

/** Equal field for field; sums of floating-point legs and speeds to 1e-9 (they are added in another order). */
function expectSame(actual: ReportSummary[], expected: ReportSummary[]): void {
  expect(actual.map((s) => [s.deviceId, s.startTime, s.endTime])).toEqual(expected.map((s) => [s.deviceId, s.startTime, s.endTime]));
  actual.forEach((s, i) => {
    const e = expected[i]!;
    for (const key of Object.keys(e) as (keyof ReportSummary)[]) {
      const [x, y] = [s[key], e[key]];
      if (typeof x === 'number' && typeof y === 'number' && (key === 'distance' || key === 'gapDistance' || key === 'averageSpeed')) {
        expect(Math.abs(x - y), `${key} of row ${i}: ${x} vs ${y}`).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(y)));
      } else {
        expect(x, `${key} of row ${i}`).toEqual(y);
      }
    }
  });
}

const put = (ps: PositionMessageInput[]) => insertPositions(adapters.analytics)(ps.map((p) => PositionMessage.parse(p)));
const day: Segment[] = [
  { kind: 'drive', seconds: 7200, kmh: 60 },
  { kind: 'stop', seconds: 3600, idleSeconds: 600 },
  { kind: 'drive', seconds: 10800, kmh: 60 },
  { kind: 'stop', seconds: 5400, idleSeconds: 600 },
  { kind: 'drive', seconds: 7200, kmh: 60 },
];
const dayTrack = buildTrack({ start: new Date(T0), origin: [36.82, -1.29], everySeconds: 30, segments: day });
const dev = (id: number, attributes: Record<string, unknown> = {}): ReportDevice => ({ id, name: `KBX ${id}`, attributes });

/** Irregular fixes: random speeds and ignition, `motion` sometimes, gaps, jumps, counters on some devices, redeliveries. */
function irregular(deviceId: number, n: number, seed: number, counters: boolean): PositionMessageInput[] {
  let x = seed;
  const rnd = () => (x = (x * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const jumps = lcg(seed + 7_919);
  let t = T0 - 3 * 3_600_000;
  let [lat, lon, odometer, hours] = [-1.29, 36.82, 500_000, 1e9];
  const out: PositionMessageInput[] = [];
  for (let i = 0; i < n; i++) {
    t += rnd() < 0.02 ? 3 * 3_600_000 : Math.round(5 + rnd() * 55) * 1000; // whole seconds: the store's resolution
    const speed = rnd() < 0.3 ? 0 : Math.round(rnd() * 4000) / 100;
    lat += (rnd() - 0.5) * 0.002;
    lon += (rnd() - 0.3) * 0.002;
    if (jumps() < 0.01) lon += 0.3; // 33 km: too far to drive in a minute
    odometer += speed * 10;
    hours += 30_000;
    const attributes: Record<string, number | boolean> = counters ? { hours, fuelUsed: Math.round(odometer / 10) / 100 } : {};
    if (rnd() < 0.1) attributes['motion'] = rnd() < 0.5;
    const p: PositionMessageInput = {
      id: positionId(deviceId, t),
      deviceId,
      uniqueId: `sum-${deviceId}`,
      protocol: 'osmand',
      fixTime: new Date(t).toISOString(),
      serverTime: new Date(t + 1000).toISOString(),
      valid: true,
      latitude: lat,
      longitude: lon,
      speed,
      course: 0,
      ignition: rnd() < 0.1 ? null : rnd() < 0.7,
      odometer: counters ? odometer : null,
      attributes,
    };
    out.push(p);
    if (rnd() < 0.03)
      out.push({ ...p, speed: Math.round(rnd() * 4000) / 100, ignition: !p.ignition, serverTime: new Date(t + 5000).toISOString() });
  }
  return out;
}

/** A fix every minute for ten minutes eastwards, odometer and engine hours counting, ignition on. */
const STEP = 0.001; // degrees of longitude per minute
const located = (deviceId: number, i: number): PositionMessageInput => ({
  id: positionId(deviceId, T0 + i * 60_000),
  deviceId,
  uniqueId: `sum-${deviceId}`,
  protocol: 'osmand',
  fixTime: at(i * 60),
  serverTime: at(i * 60 + 2),
  valid: true,
  latitude: -1.29,
  longitude: 36.82 + i * STEP,
  speed: 20 + i,
  course: 90,
  ignition: true,
  odometer: 1_000_000 + i * 1000,
  attributes: { hours: 1e9 + i * 60_000, motion: true },
});
/**
 * A status-only record as ingest makes it (state-record.ts): at the last located fix ingest knew when it
 * came (the one a minute before, or (0, 0) before any), the message's own time, valid = false, outdated,
 * no odometer, the engine hours ingest carried. `arrivedFirst`: before the fix of its second.
 */
const stateRecord = (
  deviceId: number,
  seconds: number,
  at_: [number, number],
  hours: number,
  arrivedFirst = true,
): PositionMessageInput => ({
  id: positionId(deviceId, T0 + seconds * 1000, 'state'),
  deviceId,
  uniqueId: `sum-${deviceId}`,
  protocol: 'osmand',
  fixTime: at(seconds),
  serverTime: at(seconds + (arrivedFirst ? 1 : 3)),
  valid: false,
  latitude: at_[1],
  longitude: at_[0],
  speed: 25,
  course: 90,
  ignition: true,
  odometer: null,
  attributes: { outdated: true, hours, battery: 12.6, motion: true },
});
/** Device `id`: the fixes, with status-only records at 5 and at 10 minutes (the same seconds as fixes), and one at (0, 0) a minute before the first fix. */
function withStateRecords(id: number, beforeAnyFix = false): PositionMessageInput[] {
  const fixes = Array.from({ length: 11 }, (_, i) => located(id, i));
  const out = [
    ...fixes,
    stateRecord(id, 300, [36.82 + 4 * STEP, -1.29], 1e9 + 300_000),
    stateRecord(id, 600, [36.82 + 9 * STEP, -1.29], 1e9 + 600_000),
  ];
  if (beforeAnyFix) out.push({ ...stateRecord(id, -60, [0, 0], 1e9 - 60_000), ignition: false });
  return out;
}

beforeAll(async () => {
  adapters = await createTestAdapters(await primaryKind());
  await put(trackPositions(7, 'sum-7', dayTrack));
  await put(trackPositions(8, 'sum-8', dayTrack, false).map((p) => ({ ...p, ignition: null })));
  const night = buildTrack({
    start: new Date('2026-03-02T18:00:00Z'),
    origin: [36.82, -1.29],
    everySeconds: 60,
    segments: [{ kind: 'drive', seconds: 12 * 3600, kmh: 60 }],
  });
  await put(trackPositions(9, 'sum-9', night));
  await put([...irregular(11, 3000, 1, true), ...irregular(12, 1500, 2, false), ...irregular(13, 200, 3, true)]);
  await put([...withStateRecords(14), ...withStateRecords(15, true)]);
}, 120_000);
afterAll(async () => {
  await adapters?.close();
});

describe('summary', () => {
  it('sums the day per device: distance, speeds, engine hours and fuel', async () => {
    const [s, ...more] = await summary({ devices: [dev(7)], from: T0, to: T0 + DAY });
    expect(more).toEqual([]);
    expect(s).toMatchObject({ startTime: at(0), endTime: at(34170), distance: 419_500, startOdometer: 1_000_000, endOdometer: 1_419_500 });
    expect(s!.maxSpeed).toBeCloseTo(32.397, 3);
    // engine on while driving (7 h − 30 s of the last leg) and 2 × 10 min idling
    expect(s!.engineHours).toBe((7 * 3600 - 30 + 1200) * 1000);
    expect(s!.averageSpeed).toBeCloseTo(((419_500 / (7 * 3600 - 30 + 1200)) * 3600) / 1852, 4);
    expect(s!.spentFuel).toBeCloseTo(419.5 * 0.35, 2);
  });

  it('without engine data: engine hours 0 (Traccar), average speed the mean of the fixes in motion', async () => {
    const [s] = await summary({ devices: [dev(8)], from: T0, to: T0 + DAY });
    expect(s).toMatchObject({ engineHours: 0, startHours: null, spentFuel: 0, startOdometer: null }); // Traccar's 0 for none; startHours null says there are no hours
    expect(s!.averageSpeed).toBeCloseTo(60 / 1.852, 3);
    expect(Math.abs(s!.distance - 419_500) / 419_500).toBeLessThan(0.01);
  });

  it('splits per calendar day in the time zone asked for', async () => {
    // 18:00 UTC to 06:00 UTC next day is 21:00 → 09:00 in Nairobi: midnight local = 21:00 UTC
    const from = Date.parse('2026-03-02T18:00:00Z');
    const to = Date.parse('2026-03-03T06:00:00Z');
    const daily = (tz: string, pageRows?: number) =>
      summary({ devices: [dev(9)], from, to, boundaries: dayBoundaries(from, to, tz), pageRows });
    expect((await daily('Africa/Nairobi')).map((s) => [s.startTime, s.endTime, s.distance])).toEqual([
      ['2026-03-02T18:00:00.000Z', '2026-03-02T20:59:00.000Z', 179 * 1000],
      ['2026-03-02T21:00:00.000Z', '2026-03-03T05:59:00.000Z', 539 * 1000],
    ]);
    expect((await daily('UTC')).map((s) => s.startTime)).toEqual(['2026-03-02T18:00:00.000Z', '2026-03-03T00:00:00.000Z']);
    expectSame(await daily('Africa/Nairobi', 10), await daily('Africa/Nairobi')); // pages of 100 fixes, 8 to a day
  });

  it('says what a pass over every fix says, on irregular data, daily or not, in pages or in one query', async () => {
    const devices = [dev(11), dev(12, { 'event.motion.speedThreshold': 5 }), dev(13), dev(7), dev(8)];
    const from = T0 - 4 * 3_600_000;
    const to = T0 + 20 * DAY;
    for (const boundaries of [[], dayBoundaries(from, to, 'Africa/Nairobi')]) {
      const expected = await perFix({ devices, from, to, boundaries });
      expect(expected.length).toBeGreaterThan(devices.length * (boundaries.length ? 2 : 1) - 1);
      expect(
        expected.some((s) => s.gapDistance > 0),
        'the data jumps (device 12, without an odometer)',
      ).toBe(true);
      for (const pageRows of [40, 1000, Infinity]) {
        // pages of 120 fixes (every device alone), of 3,000 (two devices to a page), one query
        expectSame(await summary({ devices, from, to, boundaries, pageRows }), expected);
      }
      expectSame(
        await summary({ devices, from, to, boundaries, ignoreOdometer: true, speedThreshold: 3 }),
        await perFix({ devices, from, to, boundaries, ignoreOdometer: true, speedThreshold: 3 }),
      );
    }
  }, 180_000); // a ceiling, not a measure: 16 summaries over chDB took 30 s at load 46 in CI

  describe('a status-only record and a fix of the same second', () => {
    const pathOfFixes = Array.from({ length: 10 }, (_, i) => fixDistance(located(14, i) as never, located(14, i + 1) as never)).reduce(
      (a, b) => a + b,
    );

    it('make one instant: the distance counted once, start and end odometer and engine hours from the fixes and the records', async () => {
      const rows = await summary({ devices: [dev(14)], from: T0 - DAY, to: T0 + DAY });
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        startTime: at(0),
        endTime: at(600),
        distance: 10_000,
        startOdometer: 1_000_000,
        endOdometer: 1_010_000,
        startHours: 1e9,
        endHours: 1e9 + 600_000,
        engineHours: 600_000,
        maxSpeed: 30,
      });
      const [byPath] = await summary({ devices: [dev(14)], from: T0 - DAY, to: T0 + DAY, ignoreOdometer: true });
      expect(byPath!.distance).toBeCloseTo(pathOfFixes, 6);
      expect(byPath!.engineHours).toBe(600_000);
    });

    it('whichever arrived first, and in pages of any size', async () => {
      await put([
        stateRecord(16, 300, [36.82 + 5 * STEP, -1.29], 1e9 + 300_000, false),
        ...Array.from({ length: 11 }, (_, i) => located(16, i)),
      ]);
      const base = await summary({ devices: [dev(16)], from: T0 - DAY, to: T0 + DAY, ignoreOdometer: true });
      expect(base.map((s) => [s.startTime, s.endTime, s.engineHours])).toEqual([[at(0), at(600), 600_000]]);
      expect(base[0]!.distance).toBeCloseTo(pathOfFixes, 6);
      for (const pageRows of [1, 2, 3])
        expectSame(
          await summary({ devices: [dev(14)], from: T0 - DAY, to: T0 + DAY, pageRows, ignoreOdometer: true }),
          await summary({ devices: [dev(14)], from: T0 - DAY, to: T0 + DAY, ignoreOdometer: true }),
        );
    });

    it('a status-only record before any fix (at 0, 0) adds no distance, and its second is the start', async () => {
      const [s] = await summary({ devices: [dev(15)], from: T0 - DAY, to: T0 + DAY, ignoreOdometer: true });
      expect(s).toMatchObject({ startTime: at(-60), endTime: at(600), startHours: 1e9 - 60_000, endHours: 1e9 + 600_000 });
      expect(s!.distance).toBeCloseTo(pathOfFixes, 6);
    });

    it('split per day: the two days and the leg between them make the whole path', async () => {
      const midnight = T0 + 450_000; // a "day" boundary between the fixes of 7 and 8 minutes
      const rows = await summary({ devices: [dev(14)], from: T0 - DAY, to: T0 + DAY, boundaries: [midnight], ignoreOdometer: true });
      expect(rows.map((s) => [s.startTime, s.endTime])).toEqual([
        [at(0), at(420)],
        [at(480), at(600)],
      ]);
      expect(rows[0]!.distance + rows[1]!.distance + fixDistance(located(14, 7) as never, located(14, 8) as never)).toBeCloseTo(
        pathOfFixes,
        6,
      );
    });
  });
});
