import { describe, expect, it } from 'vitest';
import { buildRouteIndex } from '../corridor/route-index';
import type { FlagChange, FlagType } from './flag-change';
import { evaluate } from './journey-evaluator';
import { resolveThresholds } from './thresholds';
import { generateTrack, syntheticCorridor, type TrackOptions, type TrackPhase } from './track-generator';
import { replayJourney } from './track-replay';

// A 500 km corridor out of Mombasa, 300 m wide, 80 km/h, planned at 50 km/h on average (10 h).
const yardAlongM = 300_000;
const probe = buildRouteIndex(syntheticCorridor({ lengthKm: 500, seed: 5 }));
const yardCenter = probe.pointAt(yardAlongM, 150);
const route = buildRouteIndex(
  syntheticCorridor({
    lengthKm: 500,
    seed: 5,
    expectedDurationMinutes: 600,
    stopAreas: [{ kind: 'yard', center: yardCenter, radiusM: 500, name: 'Approved yard' }],
  }),
);
const thresholds = resolveThresholds();
const start = Date.parse('2025-03-03T05:00:00Z');
const plan = { plannedDeparture: start + 10 * 60_000, plannedArrival: start + 610 * 60_000 };
const trackOptions: TrackOptions = { startTime: start, seed: 9 };

const atOrigin: TrackPhase = { kind: 'stop', durationS: 600 };
const cruise = (untilAlongM: number): TrackPhase => ({ kind: 'drive', speedKmh: 70, untilAlongM });
const toEnd = cruise(route.lengthM);

function run(phases: TrackPhase[], options: Partial<TrackOptions> = {}) {
  const track = generateTrack(route, phases, { ...trackOptions, ...options });
  return { track, ...replayJourney(undefined, track.fixes, route, thresholds, plan, { sweepUntil: track.endTime }) };
}

function summary(flags: readonly FlagChange[], type?: FlagType): string[] {
  return flags
    .filter((f) => type === undefined || f.type === type)
    .map((f) => `${f.type}:${f.action}${f.action === 'open' && f.details.escalated ? ':escalated' : ''}`);
}

describe('journey scenarios on a generated 500 km corridor', () => {
  it('a truck following the corridor with GPS noise raises nothing, starts and completes', () => {
    const { flags, transitions, state } = run([atOrigin, toEnd]);
    expect(flags).toEqual([]);
    expect(transitions.map((t) => t.to)).toEqual(['active', 'completed']);
    expect(state?.status).toBe('completed');
  });

  it('a 3 km detour for 20 minutes opens off-corridor once and clears it', () => {
    const { flags } = run([
      atOrigin,
      cruise(100_000),
      { kind: 'drive', speedKmh: 60, durationS: 120, lateralM: 3000 },
      { kind: 'drive', speedKmh: 60, durationS: 1200 },
      { kind: 'drive', speedKmh: 60, durationS: 120, lateralM: 0 },
      toEnd,
    ]);
    expect(summary(flags)).toEqual(['offCorridor:open', 'offCorridor:clear']);
    expect(flags[0]?.details.distanceM).toBeGreaterThan(800);
  });

  it('jitter at the corridor edge and at the open threshold does not flap', () => {
    const { flags } = run([
      atOrigin,
      cruise(50_000),
      { kind: 'drive', speedKmh: 60, durationS: 60, lateralM: 300 },
      { kind: 'drive', speedKmh: 60, durationS: 3600, positionNoiseM: 60 },
      { kind: 'drive', speedKmh: 60, durationS: 60, lateralM: 800 },
      { kind: 'drive', speedKmh: 60, durationS: 3600, positionNoiseM: 40 },
      { kind: 'drive', speedKmh: 60, durationS: 120, lateralM: 0 },
      toEnd,
    ]);
    expect(summary(flags)).toEqual(['offCorridor:open', 'offCorridor:clear']);
  });

  it('a 2-hour stop at an approved yard raises nothing', () => {
    const { flags } = run([atOrigin, cruise(yardAlongM), { kind: 'stop', durationS: 7200 }, toEnd]);
    expect(flags).toEqual([]);
  });

  it('a 2-hour roadside stop raises unauthorized-stop after 5 minutes and clears on moving', () => {
    const { flags, track } = run([atOrigin, cruise(250_000), { kind: 'stop', durationS: 7200 }, toEnd]);
    expect(summary(flags)).toEqual(['unauthorizedStop:open', 'unauthorizedStop:clear']);
    const stopStart = track.fixes.find((f) => f.speedKnots * 1.852 < 5 && f.time > start + 3600_000)!.time;
    const opened = Date.parse(flags[0]!.time);
    expect(opened - stopStart).toBeGreaterThan(5 * 60_000);
    expect(opened - stopStart).toBeLessThanOrEqual(5 * 60_000 + 15_000);
    expect(flags[1]!.details.durationS).toBeGreaterThanOrEqual(7200);
  });

  it('a silent device raises signal loss on time through the sweep, escalates at 2 hours and clears', () => {
    const { flags, track } = run([
      atOrigin,
      cruise(100_000),
      { kind: 'drive', speedKmh: 70, durationS: 3 * 3600, delivered: false },
      toEnd,
    ]);
    expect(summary(flags)).toEqual(['signalLoss:open', 'signalLoss:open:escalated', 'signalLoss:clear']);
    const lastBefore = track.fixes.filter((f) => f.time < Date.parse(flags[0]!.time)).at(-1)!.time;
    expect(Date.parse(flags[0]!.time)).toBe(lastBefore + 10 * 60_000);
    expect(Date.parse(flags[1]!.time)).toBe(lastBefore + 120 * 60_000);
    expect(flags[2]!.details.gapS).toBeGreaterThanOrEqual(3 * 3600);
  });

  it('overspeed for 40 s opens once and clears; for 20 s it does not', () => {
    const burst = (durationS: number): TrackPhase[] => [
      atOrigin,
      cruise(60_000),
      { kind: 'drive', speedKmh: 95, durationS },
      { kind: 'drive', speedKmh: 70, durationS: 600 },
      toEnd,
    ];
    expect(summary(run(burst(40), { intervalS: 5 }).flags)).toEqual(['overspeed:open', 'overspeed:clear']);
    expect(run(burst(20), { intervalS: 5 }).flags).toEqual([]);
  });

  it('reversing 5 km raises backtracking and clears once progress resumes', () => {
    const { flags } = run([atOrigin, cruise(150_000), { kind: 'drive', speedKmh: 50, distanceM: 5000, reverse: true }, toEnd]);
    expect(summary(flags)).toEqual(['backtracking:open', 'backtracking:clear']);
  });

  it('a slow truck raises late-ETA once, when it falls an hour behind the plan', () => {
    const { flags } = run([atOrigin, { kind: 'drive', speedKmh: 40, untilAlongM: route.lengthM }]);
    // Planned speed is the route length over 10 h (about 50 km/h; the meander adds length). At 40 km/h
    // the truck loses (1 - 40 / planned) hours per hour, so it is an hour late after 1 / that hours.
    expect(summary(flags)).toEqual(['lateEta:open', 'lateEta:clear']);
    const plannedKmh = route.lengthM / 1000 / 10;
    const expectedH = 1 / (1 - 40 / plannedKmh);
    const openedAfterH = (Date.parse(flags[0]!.time) - plan.plannedDeparture) / 3600_000;
    expect(Math.abs(openedAfterH - expectedH)).toBeLessThan(0.05);
    expect(flags[1]!.details.reason).toBe('journeyCompleted');
  });
});

describe('journey state across restarts and redelivery', () => {
  const phases: TrackPhase[] = [
    atOrigin,
    cruise(60_000),
    { kind: 'drive', speedKmh: 95, durationS: 60 },
    cruise(120_000),
    { kind: 'drive', speedKmh: 60, durationS: 120, lateralM: 3000 },
    { kind: 'drive', speedKmh: 60, durationS: 900 },
    { kind: 'drive', speedKmh: 60, durationS: 120, lateralM: 0 },
    { kind: 'stop', durationS: 1800 },
    { kind: 'drive', speedKmh: 70, durationS: 3 * 3600, delivered: false },
    { kind: 'drive', speedKmh: 40, distanceM: 4000, reverse: true },
    toEnd,
  ];
  const track = generateTrack(route, phases, { ...trackOptions, intervalS: 10 });
  const reference = replayJourney(undefined, track.fixes, route, thresholds, plan, { sweepUntil: track.endTime });

  it('the reference run raises every kind it was built to', () => {
    expect(new Set(reference.flags.map((f) => f.type))).toEqual(
      new Set(['overspeed', 'offCorridor', 'unauthorizedStop', 'signalLoss', 'backtracking']),
    );
  });

  it('a JSON round trip of the state mid-journey continues with exactly the same flags', () => {
    for (const cut of [0.25, 0.5, 0.8]) {
      const at = Math.floor(track.fixes.length * cut);
      const first = replayJourney(undefined, track.fixes.slice(0, at), route, thresholds, plan);
      const restored = JSON.parse(JSON.stringify(first.state));
      const second = replayJourney(restored, track.fixes.slice(at), route, thresholds, plan, { sweepUntil: track.endTime });
      expect([...first.flags, ...second.flags]).toEqual(reference.flags);
      expect(second.state).toEqual(reference.state);
    }
    const everyStep = replayJourney(undefined, track.fixes, route, thresholds, plan, {
      sweepUntil: track.endTime,
      carry: (s) => JSON.parse(JSON.stringify(s)),
    });
    expect(everyStep.flags).toEqual(reference.flags);
  });

  it('redelivered and out-of-order fixes raise no new flags', () => {
    const noisy = track.fixes.flatMap((f, i) => {
      const previous = track.fixes[i - 3];
      return previous ? [f, f, previous] : [f, f];
    });
    const rerun = replayJourney(undefined, noisy, route, thresholds, plan, { sweepUntil: track.endTime });
    expect(rerun.flags).toEqual(reference.flags);

    const middle = Math.floor(track.fixes.length / 2);
    const fix = track.fixes[middle]!;
    const before = replayJourney(undefined, track.fixes.slice(0, middle + 1), route, thresholds, plan).state;
    const again = evaluate(before, fix, route, thresholds, plan);
    expect(again.flags).toEqual([]);
    expect(again.state).toBe(before);
  });

  it('ignores invalid fixes', () => {
    const state = replayJourney(undefined, track.fixes.slice(0, 500), route, thresholds, plan).state;
    const far = { time: track.fixes[500]!.time, latitude: 10, longitude: 10, speedKnots: 300, valid: false };
    const result = evaluate(state, far, route, thresholds, plan);
    expect(result).toEqual({ state, flags: [], transitions: [] });
  });
});
