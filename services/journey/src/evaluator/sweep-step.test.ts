import { describe, expect, it } from 'vitest';
import { buildRouteIndex } from '../corridor/route-index';
import { evaluate } from '../detectors/journey-evaluator';
import { resolveThresholds } from '../detectors/thresholds';
import { generateTrack, syntheticCorridor } from '../detectors/track-generator';
import type { RuntimeJourney } from './runtime-journey';
import { sweepStep } from './sweep-step';

const index = buildRouteIndex(syntheticCorridor({ lengthKm: 100, seed: 3 }));
const route = { index, thresholds: resolveThresholds() };
const departure = Date.parse('2025-05-01T06:00:00Z');
const min = 60_000;
const planned: RuntimeJourney = {
  id: 1,
  deviceId: 1,
  routeId: 1,
  companyId: null,
  state: 'planned',
  plannedDeparture: departure,
  plannedArrival: null,
  origin: null,
  destination: null,
};

describe('sweepStep', () => {
  it('leaves a planned journey alone before its departure', () => {
    expect(sweepStep(planned, undefined, departure - 1, route)).toBeUndefined();
  });

  it('activates a planned journey at its departure, at the origin, with silence counted from then', () => {
    const step = sweepStep(planned, undefined, departure + 5 * min, route)!;
    expect(step.transitions).toEqual([
      {
        from: 'planned',
        to: 'active',
        time: new Date(departure).toISOString(),
        latitude: index.origin.center[1],
        longitude: index.origin.center[0],
      },
    ]);
    expect(step.state).toMatchObject({
      status: 'active',
      startedAt: departure,
      schedule: { departureMs: departure, arrivalMs: departure + index.expectedDurationMinutes * min },
    });
    expect(step.flags).toEqual([]);

    const silent = sweepStep(planned, undefined, departure + 11 * min, route)!;
    expect(silent.flags.map((f) => [f.type, f.action, f.time])).toEqual([
      ['signalLoss', 'open', new Date(departure + 10 * min).toISOString()],
    ]);
  });

  it('counts silence from the last fix when the truck reported at the origin after the departure time', () => {
    const atOrigin = generateTrack(index, [{ kind: 'stop', durationS: 1200 }], { startTime: departure, seed: 2 }).fixes;
    let state = undefined;
    for (const fix of atOrigin) state = evaluate(state, fix, index, route.thresholds, { plannedDeparture: departure }).state;
    expect(state?.status).toBe('planned');
    const last = atOrigin.at(-1)!.time;
    expect(sweepStep(planned, state, last + 9 * min, route)!.flags).toEqual([]);
    expect(sweepStep(planned, state, last + 11 * min, route)!.flags.map((f) => f.time)).toEqual([new Date(last + 10 * min).toISOString()]);
  });

  it('checks an active journey for silence only, and changes nothing while it reports', () => {
    const fixes = generateTrack(index, [{ kind: 'drive', speedKmh: 60, durationS: 600 }], {
      startTime: departure,
      startAlongM: 5000,
      seed: 4,
    }).fixes;
    let state = undefined;
    for (const fix of fixes) state = evaluate(state, fix, index, route.thresholds, { plannedDeparture: departure }).state;
    const last = fixes.at(-1)!.time;
    const active = { ...planned, state: 'active' as const };
    expect(sweepStep(active, state, last + 5 * min, route)).toBeUndefined();
    const step = sweepStep(active, state, last + 121 * min, route)!;
    expect(step.transitions).toEqual([]);
    expect(step.flags.map((f) => [f.type, f.details.escalated])).toEqual([
      ['signalLoss', false],
      ['signalLoss', true],
    ]);
  });

  it('never touches a completed journey, nor an active one with no hot state to go on', () => {
    expect(
      sweepStep(
        planned,
        {
          ...evaluate(undefined, { time: departure, latitude: 0, longitude: 0, speedKnots: 0 }, index, route.thresholds).state,
          status: 'completed',
        },
        departure + 60 * min,
        route,
      ),
    ).toBeUndefined();
    expect(sweepStep({ ...planned, state: 'active' }, undefined, departure + 60 * min, route)).toBeUndefined();
  });
});
