import { describe, expect, it } from 'vitest';
import { buildRouteIndex } from '../corridor/route-index';
import type { FlagChange, JourneyFix, SealSignal } from './flag-change';
import { evaluate, newJourneyState, type JourneyState } from './journey-evaluator';
import { sealSignalOf } from './position-fix';
import * as sealBreach from './seal-breach';
import { DEFAULT_THRESHOLDS } from './thresholds';

// A 111 km east-west line on the equator with a border post at 36.5°E, a depot (yard) at 36.2°E
// and a named rest area at 36.8°E; origin and destination are synthesised at the ends (1 km).
const route = buildRouteIndex({
  id: 'seal',
  line: [
    [36, 0],
    [37, 0],
  ],
  widthM: 200,
  speedLimitKmh: 80,
  expectedDurationMinutes: 120,
  stopAreas: [
    { kind: 'border', name: 'Busia border post', center: [36.5, 0], radiusM: 300 },
    { kind: 'yard', name: 'Naivasha ICD', center: [36.2, 0], radiusM: 400 },
    { kind: 'rest', name: 'Mlolongo rest stop', center: [36.8, 0], radiusM: 300 },
  ],
});
const T0 = Date.parse('2025-01-01T00:00:00Z');
const LOCKED: SealSignal = { opened: false, tampered: false, locked: true, sealEvent: null };
const UNLOCK: SealSignal = { opened: true, tampered: false, locked: false, sealEvent: 'unlocked' };
const ROPE_CUT: SealSignal = { opened: false, tampered: true, locked: true, sealEvent: 'ropeCut' };

/** A fix at `seconds` after T0 at `lon` on the line, with what the seal says. */
function fix(seconds: number, lon: number, seal?: SealSignal, valid = true): JourneyFix {
  return { time: T0 + seconds * 1000, latitude: 0, longitude: lon, speedKnots: 0, valid, ...(seal ? { seal } : {}) };
}

function feed(fixes: JourneyFix[]): { state: sealBreach.SealBreachState | undefined; flags: FlagChange[] } {
  let state: sealBreach.SealBreachState | undefined;
  const flags: FlagChange[] = [];
  for (const f of fixes) {
    const r = sealBreach.step(state, f, route);
    state = r.state;
    flags.push(...r.flags);
  }
  return { state, flags };
}

describe('seal breach detector', () => {
  it('a seal opened at a border post on the route, at a depot, at the origin or the destination raises nothing', () => {
    for (const lon of [36.5, 36.201, 36.001, 36.999]) expect(feed([fix(0, lon, LOCKED), fix(60, lon, UNLOCK)]).flags).toEqual([]);
  });

  it('a seal opened on the road raises a sealBreach flag at once: no permitted place, the nearest named place', () => {
    const { flags, state } = feed([fix(0, 36.3, LOCKED), fix(60, 36.35, UNLOCK)]);
    expect(flags).toHaveLength(1);
    expect(flags[0]).toMatchObject({
      type: 'sealBreach',
      action: 'open',
      time: new Date(T0 + 60_000).toISOString(),
      longitude: 36.35,
      details: {
        event: 'opened',
        sealEvent: 'unlocked',
        place: 'no permitted place',
        placeKind: null,
        nearestPlace: 'Naivasha ICD',
        nearestPlaceKind: 'yard',
        location: 'fix',
        distanceM: 0,
      },
    });
    // 0.15° of longitude at the equator is ~16.7 km from the depot's centre, less its 400 m radius
    expect(flags[0]!.details.nearestPlaceDistanceM).toBeGreaterThan(16_000);
    expect(flags[0]!.details.nearestPlaceDistanceM).toBeLessThan(16_500);
    expect(state).toMatchObject({ locked: false, breach: true });
  });

  it('opened inside a named place the route does not permit for seals: the flag names it', () => {
    const { flags } = feed([fix(0, 36.8, UNLOCK)]);
    expect(flags[0]!.details).toMatchObject({
      place: 'Mlolongo rest stop',
      placeKind: 'rest',
      nearestPlace: 'Mlolongo rest stop',
      nearestPlaceDistanceM: 0,
    });
  });

  it('the lock state going from locked to unlocked outside a permitted place is an opening, without an alarm', () => {
    const quiet: SealSignal = { opened: false, tampered: false, locked: false, sealEvent: null };
    expect(feed([fix(0, 36.3, LOCKED), fix(60, 36.31, quiet)]).flags.map((f) => f.details.event)).toEqual(['opened']);
    // an unlocked report with no locked one before it is no evidence of an opening here
    expect(feed([fix(0, 36.3, quiet)]).flags).toEqual([]);
  });

  it('one flag per episode: repeats raise nothing until the seal is relocked, then a new opening raises again', () => {
    const { flags } = feed([
      fix(0, 36.3, LOCKED),
      fix(60, 36.31, UNLOCK),
      fix(120, 36.32, UNLOCK), // the unlocking alarm repeated
      fix(180, 36.33, ROPE_CUT),
      fix(240, 36.34, LOCKED), // relocked
      fix(300, 36.35, ROPE_CUT),
    ]);
    expect(flags.map((f) => [f.time, f.details.event, f.details.sealEvent])).toEqual([
      [new Date(T0 + 60_000).toISOString(), 'opened', 'unlocked'],
      [new Date(T0 + 300_000).toISOString(), 'tampered', 'ropeCut'],
    ]);
  });

  it('an event without a fix is placed at the last valid fix', () => {
    const { flags } = feed([fix(0, 36.3, LOCKED), fix(60, 0, UNLOCK, false)]);
    expect(flags[0]).toMatchObject({ longitude: 36.3, latitude: 0, details: { location: 'lastFix' } });
    // without any valid fix before it, the position's own (last known) coordinates are used
    expect(feed([fix(0, 36.31, UNLOCK, false)]).flags[0]).toMatchObject({ longitude: 36.31, details: { location: 'reported' } });
    // ...and a border post stays a border post when the event comes without a fix
    expect(feed([fix(0, 36.5, LOCKED), fix(60, 0, UNLOCK, false)]).flags).toEqual([]);
  });

  it('reads the seal from positions: unlock from any lock, tampering only from a seal, the lock attribute', () => {
    expect(sealSignalOf({ alarm: 'unlock', attributes: { lock: false, sealEvent: 'unlocked' } })).toEqual(UNLOCK);
    expect(sealSignalOf({ alarm: 'tampering', attributes: { lock: true, sealEvent: 'ropeCut' } })).toEqual(ROPE_CUT);
    expect(sealSignalOf({ alarm: 'tampering', attributes: {} })).toBeUndefined(); // a vehicle tracker's tamper alarm
    expect(sealSignalOf({ alarm: 'lock', attributes: {} })).toEqual({ opened: false, tampered: false, locked: true, sealEvent: null });
    expect(sealSignalOf({ alarm: null, attributes: { ignition: true } })).toBeUndefined();
  });
});

describe('seal breach in the journey evaluation', () => {
  const drive = (fixes: JourneyFix[], start?: JourneyState) => {
    let state = start;
    const flags: FlagChange[] = [];
    for (const f of fixes) {
      const r = evaluate(state, f, route, DEFAULT_THRESHOLDS);
      state = r.state;
      flags.push(...r.flags);
    }
    return { state: state!, flags };
  };

  it('counts seal events on invalid and late fixes, and a journey completion leaves the breach open', () => {
    const { state, flags } = drive([
      fix(0, 36.0005, LOCKED), // planned, in the origin
      fix(600, 36.3, LOCKED), // active
      fix(900, 36.31, UNLOCK, false), // no fix: placed at 36.3
      fix(800, 36.32), // late: ignored by the other detectors
      fix(1200, 36.9995, LOCKED), // destination: completed
    ]);
    expect(flags.filter((f) => f.type === 'sealBreach')).toMatchObject([
      { action: 'open', longitude: 36.3, details: { location: 'lastFix' } },
    ]);
    expect(state.status).toBe('completed');
    expect(flags.filter((f) => f.action === 'clear' && f.type === 'sealBreach')).toEqual([]);
  });

  it('a hot state stored before the seal detector existed is read as no seal history', () => {
    const legacy = newJourneyState();
    delete legacy.detectors.sealBreach;
    const { flags } = drive([fix(0, 36.3, LOCKED), fix(60, 36.31, UNLOCK)], { ...legacy, status: 'active' });
    expect(flags.map((f) => f.type)).toContain('sealBreach');
  });
});
