import { describe, it, expect } from 'vitest';
import { step, type DeviceFenceState, type FenceEvent, type FenceRule } from './fence-state';
import type { Fence, LonLat } from '../fences/fence';
import { EARTH_RADIUS_M, containsPoint, distanceOutsideMeters } from '../fences/geometry';

const CENTRE: LonLat = [36.8219, -1.2921];
const T0 = Date.parse('2026-03-01T06:00:00Z');

/** The point `meters` due north of the centre (exact on Traccar's sphere). */
function north(meters: number): LonLat {
  return [CENTRE[0], CENTRE[1] + (meters / EARTH_RADIUS_M) * (180 / Math.PI)];
}

interface Fix {
  time: Date;
  lon: number;
  lat: number;
}

function fixAt(seconds: number, [lon, lat]: LonLat): Fix {
  return { time: new Date(T0 + seconds * 1000), lon, lat };
}

/** Drives the pure step with the real exact geometry, optionally round-tripping the state through JSON. */
function run(
  fences: Fence[],
  rules: Map<string, FenceRule>,
  fixes: Fix[],
  viaJson = false,
): { events: FenceEvent[]; state?: DeviceFenceState } {
  let state: DeviceFenceState | undefined;
  const events: FenceEvent[] = [];
  for (const fix of fixes) {
    const inside = new Set(fences.filter((f) => containsPoint(f.shape, fix.lon, fix.lat)).map((f) => f.id));
    const shapeOf = (id: string) => fences.find((f) => f.id === id)?.shape;
    const result = step(state, fix, inside, rules, (id) => {
      const shape = shapeOf(id);
      return shape ? distanceOutsideMeters(shape, fix.lon, fix.lat) : Infinity;
    });
    events.push(...result.events);
    state = viaJson ? (JSON.parse(JSON.stringify(result.state)) as DeviceFenceState) : result.state;
  }
  return { events, state };
}

const depot: Fence = { id: 'depot', shape: { kind: 'circle', center: CENTRE, radius: 500 } };

function summary(events: FenceEvent[]): string[] {
  return events.map(
    (e) => `${e.type}:${e.fenceId}@${(e.time.getTime() - T0) / 1000}${e.dwellSeconds !== undefined ? `/${e.dwellSeconds}` : ''}`,
  );
}

describe('step: fence enter/exit hysteresis', () => {
  it('enters at the first inside fix and exits with the dwell time when no dwell or margin is set', () => {
    const rules = new Map([['depot', { minDwellSeconds: 0, exitMarginMeters: 0 }]]);
    const { events } = run([depot], rules, [fixAt(0, north(900)), fixAt(30, north(400)), fixAt(90, north(100)), fixAt(150, north(700))]);
    expect(summary(events)).toEqual(['geofenceEnter:depot@30', 'geofenceExit:depot@150/120']);
  });

  it('does not flap on ±10 m jitter around the edge with a 30 m exit margin, and exits beyond it', () => {
    const wobble = Array.from({ length: 40 }, (_, i) => fixAt(60 + i * 10, north(500 + (i % 2 === 0 ? 10 : -10))));
    const fixes = [fixAt(0, north(300)), ...wobble, fixAt(500, north(550))];
    const withMargin = run([depot], new Map([['depot', { minDwellSeconds: 0, exitMarginMeters: 30 }]]), fixes);
    expect(summary(withMargin.events)).toEqual(['geofenceEnter:depot@0', 'geofenceExit:depot@500/500']);
    // the same track without a margin flaps on every wobble: this is what the margin prevents
    const without = run([depot], new Map([['depot', { minDwellSeconds: 0, exitMarginMeters: 0 }]]), fixes);
    expect(without.events.length).toBeGreaterThan(30);
  });

  it('suppresses a drive-by shorter than the minimal dwell, then enters with the first inside time', () => {
    const rules = new Map([['depot', { minDwellSeconds: 120, exitMarginMeters: 0 }]]);
    const driveBy = [fixAt(0, north(800)), fixAt(30, north(300)), fixAt(60, north(-300)), fixAt(90, north(-800))];
    expect(run([depot], rules, driveBy).events).toEqual([]);
    const stop = [fixAt(0, north(800)), fixAt(30, north(300)), fixAt(90, north(200)), fixAt(150, north(100)), fixAt(600, north(900))];
    // the enter is emitted at the fix of 150 s (dwell 120 s reached) but carries the first inside time, 30 s
    expect(summary(run([depot], rules, stop).events)).toEqual(['geofenceEnter:depot@30', 'geofenceExit:depot@600/570']);
  });

  it('orders the exit before the enter when one fix leaves a fence and enters another', () => {
    // "a-yard" sorts before "z-gate" yet its enter must follow z-gate's exit
    const gate: Fence = { id: 'z-gate', shape: { kind: 'circle', center: north(0), radius: 200 } };
    const yard: Fence = { id: 'a-yard', shape: { kind: 'circle', center: north(1000), radius: 200 } };
    const rules = new Map([
      ['z-gate', { minDwellSeconds: 0, exitMarginMeters: 0 }],
      ['a-yard', { minDwellSeconds: 0, exitMarginMeters: 0 }],
    ]);
    const first = step(undefined, fixAt(0, north(0)), new Set(['z-gate']), rules);
    expect(summary(first.events)).toEqual(['geofenceEnter:z-gate@0']);
    const moved = step(first.state, fixAt(60, north(1000)), new Set(['a-yard']), rules);
    expect(summary(moved.events)).toEqual(['geofenceExit:z-gate@60/60', 'geofenceEnter:a-yard@60']);
    expect(summary(run([gate, yard], rules, [fixAt(0, north(0)), fixAt(60, north(1000))]).events)).toEqual([
      'geofenceEnter:z-gate@0',
      'geofenceExit:z-gate@60/60',
      'geofenceEnter:a-yard@60',
    ]);
  });

  it('ignores fixes older than (or as old as) the last processed one', () => {
    const rules = new Map([['depot', DEFAULT_RULE]]);
    const first = step(undefined, fixAt(100, north(0)), new Set(['depot']), rules);
    expect(summary(first.events)).toEqual(['geofenceEnter:depot@100']);
    const older = step(first.state, fixAt(50, north(900)), new Set(), rules);
    expect(older).toEqual({ state: first.state, events: [] });
    const again = step(first.state, fixAt(100, north(0)), new Set(['depot']), rules);
    expect(again.events).toEqual([]);
  });

  it('restarts cleanly from the serialised state: no duplicate enter, the same events as an uninterrupted run', () => {
    const rules = new Map([['depot', { minDwellSeconds: 60, exitMarginMeters: 30 }]]);
    const track = [0, 300, 480, 495, 505, 510, 520, 600, 700, 400, 540, 900].map((m, i) => fixAt(i * 20, north(m)));
    const straight = run([depot], rules, track);
    const restarted = run([depot], rules, track, true);
    expect(restarted.events).toEqual(straight.events);
    // in at 0 (enter emitted at 60 once dwelled), 505..520 m is within the margin, out at 600 m (140 s);
    // back at 180 s but 40 m out at 200 s, before the 60 s dwell: no second enter
    expect(summary(straight.events)).toEqual(['geofenceEnter:depot@0', 'geofenceExit:depot@140/140']);

    // explicit restart mid-stay: stored state, then the next inside fix and a redelivered one
    const mid = run([depot], rules, track.slice(0, 5));
    const stored = JSON.parse(JSON.stringify(mid.state)) as DeviceFenceState;
    expect(stored).toEqual({
      v: 1,
      lastFixTime: T0 + 80_000,
      lon: track[4]!.lon,
      lat: track[4]!.lat,
      fences: { depot: { phase: 'inside', enteredAt: T0 } },
    });
    const inside = new Set(['depot']);
    expect(step(stored, fixAt(100, north(200)), inside, rules).events).toEqual([]);
    expect(step(stored, fixAt(80, north(505)), inside, rules).events).toEqual([]);
  });

  it('exits at once when a margin is set but no distance function is given', () => {
    const rules = new Map([['depot', { minDwellSeconds: 0, exitMarginMeters: 30 }]]);
    const entered = step(undefined, fixAt(0, north(0)), new Set(['depot']), rules);
    expect(summary(step(entered.state, fixAt(10, north(510)), new Set(), rules).events)).toEqual(['geofenceExit:depot@10/10']);
  });

  it('forgets a fence that was deleted or unlinked without emitting an exit', () => {
    const rules = new Map([['depot', DEFAULT_RULE]]);
    const entered = step(undefined, fixAt(0, north(0)), new Set(['depot']), rules);
    const after = step(entered.state, fixAt(10, north(900)), new Set(), new Map());
    expect(after.events).toEqual([]);
    expect(after.state.fences).toEqual({});
  });

  it('treats a fence missing from the rules but reported inside with the defaults', () => {
    const result = step(undefined, fixAt(0, north(0)), new Set(['unknown']), new Map());
    expect(summary(result.events)).toEqual(['geofenceEnter:unknown@0']);
  });
});

const DEFAULT_RULE: FenceRule = { minDwellSeconds: 0, exitMarginMeters: 0 };
