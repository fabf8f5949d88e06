import type { RouteRow } from '../src/db/schema';
import { buildRouteIndex, type RouteIndex } from '../src/corridor/route-index';
import type { TrackPhase } from '../src/detectors/track-generator';
import { resolveThresholds, type JourneyThresholds } from '../src/detectors/thresholds';
import { corridorRouteOf } from '../src/routes/corridor-route';

/** A stored route as the evaluator sees it: the index the generator walks and the thresholds. */
export interface SeenRoute {
  row: RouteRow;
  index: RouteIndex;
  thresholds: JourneyThresholds;
}

export function seenRoute(row: RouteRow): SeenRoute {
  return { row, index: buildRouteIndex(corridorRouteOf(row)), thresholds: resolveThresholds(row.thresholds) };
}

/**
 * Drive phases from `fromAlongM` to `toAlongM` that keep `marginKmh` under each stretch's speed
 * limit (a lawful truck), one phase per run of segments with the same limit.
 */
export function lawfulDrive(index: RouteIndex, fromAlongM: number, toAlongM: number, marginKmh = 10): TrackPhase[] {
  const phases: TrackPhase[] = [];
  let seg = 0;
  while (seg < index.segmentCount - 1 && index.vertexAlongM[seg + 1]! <= fromAlongM) seg++;
  let along = fromAlongM;
  while (along < toAlongM && seg < index.segmentCount) {
    const limit = index.speedLimitAt(seg);
    let last = seg;
    while (last + 1 < index.segmentCount && index.speedLimitAt(last + 1) === limit) last++;
    along = Math.min(index.vertexAlongM[last + 1]!, toAlongM);
    phases.push({ kind: 'drive', speedKmh: limit - marginKmh, untilAlongM: along });
    seg = last + 1;
  }
  return phases;
}

/** The first progress mark at or after `fromAlongM` at least `clearM` from every approved stop area. */
export function roadsideAlong(index: RouteIndex, fromAlongM: number, clearM = 5000): number {
  for (let along = fromAlongM; along < index.lengthM; along += 500) {
    const [lon, lat] = index.pointAt(along);
    if (index.stopAreas.every((a) => index.ruler.distance([lon, lat], a.center) > a.radiusM + clearM)) return along;
  }
  throw new Error('no roadside stretch');
}

/** Progress mark of the first approved stop area of `kind` past `fromAlongM` whose centre lies within reach of the line. */
export function approvedStop(index: RouteIndex, kind: string, fromAlongM = 0): { alongM: number; name: string } {
  for (const a of index.stopAreas) {
    if (a.kind !== kind) continue;
    const m = index.match(a.center[0], a.center[1]);
    if (m.alongM >= fromAlongM && m.distanceM < a.radiusM - 100) return { alongM: m.alongM, name: a.name ?? kind };
  }
  throw new Error(`no ${kind} area close enough to the line`);
}
