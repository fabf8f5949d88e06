import type { LonLat } from '@corridor/journey/corridor/route-definition';
import type { RouteIndex } from '@corridor/journey/corridor/route-index';
import { DEFAULT_THRESHOLDS } from '@corridor/journey/detectors/thresholds';

/**
 * The trucks of the journey-latency bench, and the flag changes their fixes must cause: kept apart
 * from the suite so a test (journey-trucks.test.ts) can hold the expectation against the evaluator.
 *
 * Each truck starts somewhere between 10 and 700 km along the route and advances 600 m per fix.
 * A detouring truck alternates ON ON-fix runs on the line with OFF-fix runs beside it, so it opens an
 * off-corridor flag on its 5th OFF fix (at least 3 fixes and 2 minutes beyond width + 500 m, fixes 30 s
 * apart) and clears it on its next ON fix.
 */
export const DEVICES = 500;
export const RATES = [1000, 5000] as const;
/** Seconds per phase at each rate: every truck gets whole ON/OFF cycles (24 and 60 fixes). */
export const SECONDS: Record<number, number> = { 1000: 12, 5000: 6 };
/** Each rate's phases, in order: which trucks detour (every n-th; 0 none) and which carry a seal. */
export const PHASES = [
  { name: 'heavy', detourEvery: 1, sealEvery: 0 },
  { name: 'typical', detourEvery: 10, sealEvery: 0 },
  { name: 'seal', detourEvery: 0, sealEvery: 10 },
] as const;
export const ON = 6;
export const OFF = 6;
export const FIX_INTERVAL_MS = 30_000;
const STEP_M = 600;

/** How far beside the line an OFF fix is put first (the nearest point of the whole route must be past the open line). */
const BESIDE_M = 3000;
/** Margin past the open line (width + offCorridorMeters) every OFF fix keeps from the whole route. */
const MARGIN_M = 250;

const startAlong = (d: number): number => 10_000 + ((d * 7919) % 690) * 1000;

/** Whether fix n of a detouring truck is an OFF fix. */
export const isOff = (n: number): boolean => n % (ON + OFF) >= ON;

/**
 * Where truck d is at fix n: on the line, or (off) beside it. Beside the line means past the open
 * line from every part of the route, not only from the segment it is beside: on the inside of a
 * bend, 3 km to the left of one segment can be within 2.5 km of the next one (then the fix neither
 * counts towards an excursion nor ends it, and a truck can miss an opening: the 2 of 5,000 flag
 * changes the bench once missed at 5,000 fixes/s). Such a fix goes to the other side, or farther out.
 */
export function truckPoint(index: RouteIndex, d: number, n: number, off: boolean): LonLat {
  const along = startAlong(d) + n * STEP_M;
  if (!off) return index.pointAt(along, 0);
  const beyond = index.widthM + DEFAULT_THRESHOLDS.offCorridorMeters + MARGIN_M;
  for (const lateral of [BESIDE_M, -BESIDE_M, 2 * BESIDE_M, -2 * BESIDE_M, 4 * BESIDE_M, -4 * BESIDE_M]) {
    const p = index.pointAt(along, lateral);
    if (index.matchBruteForce(p[0], p[1]).distanceM >= beyond) return p;
  }
  throw new Error(`no point beside the route for truck ${d} at fix ${n}`);
}

/** Whether a detouring truck's fix n changes its off-corridor flag: it opens on the 5th OFF fix, it clears on the first ON fix after. */
export const changesFlag = (n: number): boolean => n % (ON + OFF) === ON + 4 || (n > 0 && n % (ON + OFF) === 0);
