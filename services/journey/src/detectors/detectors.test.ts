import { describe, expect, it } from 'vitest';
import { buildRouteIndex } from '../corridor/route-index';
import * as backtracking from './backtracking';
import type { DetectorContext, FlagChange, JourneyFix } from './flag-change';
import * as lateEta from './late-eta';
import * as offCorridor from './off-corridor';
import * as overspeed from './overspeed';
import * as signalLoss from './signal-loss';
import { DEFAULT_THRESHOLDS, resolveThresholds, type JourneyThresholds } from './thresholds';
import * as unauthorizedStop from './unauthorized-stop';

// A 111 km east-west line on the equator, 200 m wide, 80 km/h, planned for 120 minutes.
const route = buildRouteIndex({
  id: 'unit',
  line: [
    [36, 0],
    [37, 0],
  ],
  widthM: 200,
  speedLimitKmh: 80,
  expectedDurationMinutes: 120,
  stopAreas: [{ kind: 'border', center: [36.5, 0], radiusM: 300 }],
});
const T0 = Date.parse('2025-01-01T00:00:00Z');

/** A fix at `seconds` after T0, `alongM` into the route, `lateralM` off it, at `kmh`. */
function fix(seconds: number, alongM: number, lateralM = 0, kmh = 60): JourneyFix {
  const [longitude, latitude] = route.pointAt(alongM, lateralM);
  return { time: T0 + seconds * 1000, latitude, longitude, speedKnots: kmh / 1.852 };
}

function ctxFor(f: JourneyFix, thresholds: JourneyThresholds = DEFAULT_THRESHOLDS): DetectorContext {
  return {
    match: route.match(f.longitude, f.latitude),
    route,
    thresholds,
    schedule: { departureMs: T0, arrivalMs: T0 + 120 * 60_000 },
  };
}

type Step<S> = (state: S | undefined, f: JourneyFix, ctx: DetectorContext) => { state: S; flags: FlagChange[] };

function feed<S>(step: Step<S>, fixes: JourneyFix[], thresholds?: JourneyThresholds): { state: S | undefined; flags: FlagChange[] } {
  let state: S | undefined;
  const flags: FlagChange[] = [];
  for (const f of fixes) {
    const r = step(state, f, ctxFor(f, thresholds));
    state = r.state;
    flags.push(...r.flags);
  }
  return { state, flags };
}

const actions = (flags: FlagChange[]) => flags.map((f) => f.action);

describe('thresholds', () => {
  it('merges route then journey overrides over the defaults and validates them', () => {
    const t = resolveThresholds({ offCorridorMeters: 800, overspeedSeconds: 10 }, { overspeedSeconds: 45, signalLossMinutes: undefined });
    expect(t).toMatchObject({ offCorridorMeters: 800, overspeedSeconds: 45, signalLossMinutes: 10, offCorridorMinFixes: 3 });
    expect(() => resolveThresholds({ offCorridorClearFactor: 1.5 })).toThrow();
  });
});

describe('off-corridor', () => {
  it('needs both the fix count and the duration', () => {
    const fast = [0, 20, 40, 60].map((s) => fix(s, 10_000 + s * 15, 900));
    expect(feed(offCorridor.step, fast).flags).toEqual([]);
    const sparse = [0, 300].map((s) => fix(s, 10_000 + s * 15, 900));
    expect(feed(offCorridor.step, sparse).flags).toEqual([]);
    const enough = [0, 60, 120].map((s) => fix(s, 10_000 + s * 15, 900));
    expect(actions(feed(offCorridor.step, enough).flags)).toEqual(['open']);
  });

  it('clears only within the clear factor of the width', () => {
    const out = [0, 60, 120].map((s) => fix(s, 10_000, 900));
    const back = [fix(180, 10_000, 190), fix(240, 10_000, 170), fix(300, 10_000, 150)];
    const { flags } = feed(offCorridor.step, [...out, ...back]);
    expect(actions(flags)).toEqual(['open', 'clear']);
    expect(flags[1]!.time).toBe(new Date(T0 + 300_000).toISOString());
  });

  it('drops a pending excursion once back inside the width', () => {
    const fixes = [fix(0, 0, 900), fix(60, 0, 900), fix(90, 0, 100), fix(150, 0, 900), fix(200, 0, 900)];
    expect(feed(offCorridor.step, fixes).flags).toEqual([]);
  });
});

describe('overspeed', () => {
  it('converts knots and honours the tolerance', () => {
    const fixes = [0, 10, 20, 30, 40].map((s) => fix(s, 1000 + s * 25, 0, 84));
    expect(actions(feed(overspeed.step, fixes).flags)).toEqual(['open']);
    expect(feed(overspeed.step, fixes, resolveThresholds({ overspeedToleranceKmh: 5 })).flags).toEqual([]);
    const f = feed(overspeed.step, [...fixes, fix(50, 3000, 0, 80)]).flags;
    expect(f[1]).toMatchObject({ action: 'clear', details: { limitKmh: 80 } });
  });
});

describe('unauthorized-stop', () => {
  it('ignores stops in approved areas and flags them elsewhere', () => {
    const stopAt = (alongM: number) => [0, 120, 240, 360].map((s) => fix(s, alongM, 0, 1));
    expect(feed(unauthorizedStop.step, stopAt(55_660)).flags).toEqual([]);
    expect(feed(unauthorizedStop.step, stopAt(300)).flags).toEqual([]);
    const roadside = feed(unauthorizedStop.step, [...stopAt(30_000), fix(420, 30_010, 0, 20)]).flags;
    expect(actions(roadside)).toEqual(['open', 'clear']);
    expect(roadside[0]!.time).toBe(new Date(T0 + 360_000).toISOString());
  });
});

describe('signal-loss', () => {
  it('opens and escalates at the threshold times even when the first sweep is late', () => {
    const last = fix(0, 1000);
    const { state } = signalLoss.step(undefined, last);
    expect(signalLoss.sweep(state, T0 + 10 * 60_000, DEFAULT_THRESHOLDS).flags).toEqual([]);
    const late = signalLoss.sweep(state, T0 + 3 * 3600_000, DEFAULT_THRESHOLDS);
    expect(late.flags.map((f) => [f.action, f.time, f.details.escalated])).toEqual([
      ['open', new Date(T0 + 10 * 60_000).toISOString(), false],
      ['open', new Date(T0 + 120 * 60_000).toISOString(), true],
    ]);
    expect(signalLoss.sweep(late.state, T0 + 4 * 3600_000, DEFAULT_THRESHOLDS).flags).toEqual([]);
    const back = signalLoss.step(late.state, fix(4 * 3600, 2000));
    expect(back.flags).toMatchObject([{ action: 'clear', details: { gapS: 4 * 3600, escalated: true } }]);
  });
});

describe('backtracking', () => {
  it('opens after sustained lost progress and clears when progress resumes', () => {
    const forward = [0, 1, 2, 3, 4].map((i) => fix(i * 60, 10_000 + i * 1000));
    const reverse = [1, 2, 3, 4, 5].map((i) => fix(300 + i * 60, 14_000 - i * 1000));
    const resume = [1, 2].map((i) => fix(600 + i * 60, 9_000 + i * 400));
    const { flags } = feed(backtracking.step, [...forward, ...reverse, ...resume]);
    expect(actions(flags)).toEqual(['open', 'clear']);
    expect(flags[0]!.time).toBe(new Date(T0 + (300 + 5 * 60) * 1000).toISOString());
    expect(flags[1]!.time).toBe(new Date(T0 + 720_000).toISOString());
  });

  it('does not open on a short reversal', () => {
    const fixes = [fix(0, 10_000), fix(60, 9000), fix(120, 8500), fix(180, 8200), fix(240, 8100)];
    expect(feed(backtracking.step, fixes).flags).toEqual([]);
  });
});

describe('late-eta', () => {
  it('projects arrival from progress at the planned average speed and clears with a margin', () => {
    // Planned 120 min over the route: lateness (min) at minute t and progress x is t - 120·x/L.
    const at = (minute: number, plannedMinutesDone: number) => fix(minute * 60, (route.lengthM / 120) * plannedMinutesDone);
    expect(feed(lateEta.step, [at(60, 60)]).flags).toEqual([]);
    const { flags } = feed(lateEta.step, [at(60, 60), at(130, 60), at(131, 74), at(132, 90)]);
    // 0, 70 (open), 57 (inside tolerance but not its 5 min margin: stays open), 42 (clear)
    expect(actions(flags)).toEqual(['open', 'clear']);
    expect(flags[0]!.details.lateMinutes).toBeCloseTo(70, 1);
    expect(flags[1]).toMatchObject({ time: new Date(T0 + 132 * 60_000).toISOString(), details: { maxLateMinutes: 70 } });
  });
});
