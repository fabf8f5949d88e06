import { sql } from 'drizzle-orm';
import { positionId, type PositionMessage } from '@corridor/contracts';
import { createTestAdapters, type AdapterKind, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import { TEST_IDENTITY_SECRET } from '@corridor/platform/testing/identity';
import { eventually } from '@corridor/platform/testing/eventually';
import type { Clock } from '@corridor/platform';
import { build, type JourneyOptions, type JourneyService } from '../src/app';
import type { JourneyFix } from '../src/detectors/flag-change';
import type { JourneyState } from '../src/detectors/journey-evaluator';
import { journeyKeys } from '../src/evaluator/journey-keys';

/** A clock the test moves by hand (the sweep reads it). */
export interface TestClock extends Clock {
  set(ms: number): void;
  ms(): number;
}

export function testClock(start: number): TestClock {
  let t = start;
  return { now: () => new Date(t), set: (ms) => void (t = ms), ms: () => t };
}

export interface Harness {
  adapters: TestAdapters;
  clock: TestClock;
  svc: JourneyService;
}

/** Builds (and optionally starts) the journey service on the given adapters with a test clock. */
export async function buildJourney(adapters: TestAdapters, clock: TestClock, options: JourneyOptions = {}): Promise<JourneyService> {
  return build({ ...adapters, clock, identitySecret: TEST_IDENTITY_SECRET }, { sweepIntervalMs: 0, ...options });
}

export async function startHarness(
  kind: AdapterKind,
  options: JourneyOptions = {},
  start = Date.parse('2025-03-03T05:00:00Z'),
): Promise<Harness> {
  const adapters = await createTestAdapters(kind);
  const clock = testClock(start);
  const svc = await buildJourney(adapters, clock, options);
  await svc.start();
  return { adapters, clock, svc };
}

/** A positions.v1 message for a generated fix. */
export function positionOf(deviceId: number, fix: JourneyFix): PositionMessage {
  const fixTime = new Date(fix.time).toISOString();
  return {
    id: positionId(deviceId, fixTime),
    deviceId,
    uniqueId: `imei-${deviceId}`,
    protocol: 'osmand',
    fixTime,
    serverTime: fixTime,
    valid: fix.valid ?? true,
    latitude: fix.latitude,
    longitude: fix.longitude,
    speed: fix.speedKnots,
    course: 0,
    altitude: null,
    accuracy: null,
    satellites: 9,
    hdop: 1,
    ignition: true,
    odometer: null,
    power: null,
    battery: null,
    alarm: null,
    crcValid: true,
    rawFrameId: null,
    attributes: {},
  };
}

export async function publishFixes(h: Harness, deviceId: number, fixes: readonly JourneyFix[]): Promise<void> {
  for (let i = 0; i < fixes.length; i += 500) {
    await h.adapters.bus.publish(
      'positions.v1',
      fixes.slice(i, i + 500).map((f) => ({ key: String(deviceId), value: positionOf(deviceId, f) })),
    );
  }
}

async function hotState(h: Harness, journeyId: number): Promise<JourneyState | undefined> {
  const v = await h.adapters.cache.get(journeyKeys.state(journeyId));
  return v === null ? undefined : (JSON.parse(v) as JourneyState);
}

export async function journeyStateOf(h: Harness, journeyId: number): Promise<string | undefined> {
  const [r] = await h.adapters.db.rows<{ state: string }>(sql`select state from journey.journeys where id = ${journeyId}`);
  return r?.state;
}

/** Waits until the evaluator has taken every fix up to `lastFixTime` for the journey (or the journey ended). */
export async function waitProcessed(h: Harness, journeyId: number, lastFixTime: number): Promise<void> {
  await eventually(`journey ${journeyId} to reach ${new Date(lastFixTime).toISOString()}`, async () => {
    const s = await hotState(h, journeyId);
    if (s && s.lastFixTime !== null && s.lastFixTime >= lastFixTime) return true;
    const state = await journeyStateOf(h, journeyId);
    return state === 'completed' || state === 'cancelled';
  });
}

export interface FlagView {
  id: number;
  type: string;
  openedAt: string;
  clearedAt: string | null;
  escalated: boolean;
  escalatedAt: string | null;
  distanceM: number | null;
  details: Record<string, unknown>;
}

export async function flagsOf(h: Harness, journeyId: number): Promise<FlagView[]> {
  const rows = await h.adapters.db.rows<{
    id: string | number;
    type: string;
    opened_at: Date | string;
    cleared_at: Date | string | null;
    escalated: boolean;
    escalated_at: Date | string | null;
    distance_m: number | null;
    details: Record<string, unknown> | string;
  }>(
    sql`select id, type, opened_at, cleared_at, escalated, escalated_at, distance_m, details from journey.flags where journey_id = ${journeyId} order by opened_at, id`,
  );
  const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
  return rows.map((r) => ({
    id: Number(r.id),
    type: r.type,
    openedAt: iso(r.opened_at)!,
    clearedAt: iso(r.cleared_at),
    escalated: r.escalated,
    escalatedAt: iso(r.escalated_at),
    distanceM: r.distance_m,
    details: typeof r.details === 'string' ? (JSON.parse(r.details) as Record<string, unknown>) : r.details,
  }));
}
