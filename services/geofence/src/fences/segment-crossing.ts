import { booleanIntersects, lineString, pointToLineDistance, polygon } from '@turf/turf';
import type { FenceShape, LonLat } from './fence';
import { BOUNDARY_TOLERANCE_M, EARTH_RADIUS_M, pointsBBox } from './geometry';

/**
 * turf's distances in radians, turned into metres on the sphere the containment test uses
 * (Traccar's 6,378,137 m; turf's own metres use 6,371,008.8 m), so a circle or a corridor is the
 * same size here as when a fix is tested against it.
 */
const RADIANS = { units: 'radians' } as const;
const metresFromLine = (p: LonLat, line: ReturnType<typeof lineString>): number =>
  pointToLineDistance([...p], line, RADIANS) * EARTH_RADIUS_M;

/** Metres between two segments: 0 when they meet, else the least of each end's distance to the other segment. */
function segmentsMetres(a: LonLat, b: LonLat, p: LonLat, q: LonLat): number {
  const ab = lineString([[...a], [...b]]);
  const pq = lineString([[...p], [...q]]);
  if (booleanIntersects(ab, pq)) return 0;
  return Math.min(metresFromLine(p, ab), metresFromLine(q, ab), metresFromLine(a, pq), metresFromLine(b, pq));
}

const boxesOverlap = (x: readonly number[], y: readonly number[]): boolean =>
  (x[0] as number) <= (y[2] as number) &&
  (y[0] as number) <= (x[2] as number) &&
  (x[1] as number) <= (y[3] as number) &&
  (y[1] as number) <= (x[3] as number);

/**
 * Whether the straight segment from `a` to `b` (two consecutive fixes) passes through the fence:
 * Traccar's `event.geofence.segmentCrossing` test, with @turf/turf. A segment that only touches
 * the boundary counts, as a fix on the boundary counts as inside. The caller has already found
 * both ends outside the fence; a segment lying wholly in a polygon's hole does not cross it.
 * Geometry is planar in degrees for polygons (as the containment test) and on the sphere for the
 * distances of circles and corridors.
 */
export function segmentCrosses(shape: FenceShape, a: LonLat, b: LonLat): boolean {
  if (a[0] === b[0] && a[1] === b[1]) return false;
  switch (shape.kind) {
    case 'polygon':
      return booleanIntersects(lineString([[...a], [...b]]), polygon(shape.rings.map((ring) => ring.map((p) => [...p]))));
    case 'circle':
      return metresFromLine(shape.center, lineString([[...a], [...b]])) <= shape.radius + BOUNDARY_TOLERANCE_M;
    case 'line': {
      const limit = shape.width + BOUNDARY_TOLERANCE_M;
      const box = pointsBBox([a, b], limit);
      for (let i = 0; i < shape.points.length - 1; i++) {
        const p = shape.points[i] as LonLat;
        const q = shape.points[i + 1] as LonLat;
        // only the corridor's pieces near the segment are measured
        if (boxesOverlap(box, pointsBBox([p, q])) && segmentsMetres(a, b, p, q) <= limit) return true;
      }
      return false;
    }
  }
}
