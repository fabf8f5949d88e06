import Flatbush from 'flatbush';
import type { LonLat } from './fence';

/** One offending pair of edges; edge e of ring r runs from ring[e] to ring[e + 1]. */
export interface EdgeCrossing {
  ringA: number;
  edgeA: number;
  ringB: number;
  edgeB: number;
}

function orient(a: LonLat, b: LonLat, c: LonLat): number {
  return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
}

function onSegment(a: LonLat, b: LonLat, p: LonLat): boolean {
  return Math.min(a[0], b[0]) <= p[0] && p[0] <= Math.max(a[0], b[0]) && Math.min(a[1], b[1]) <= p[1] && p[1] <= Math.max(a[1], b[1]);
}

/** Closed segments ab and cd share at least one point (touching counts). */
function segmentsIntersect(a: LonLat, b: LonLat, c: LonLat, d: LonLat): boolean {
  const o1 = orient(a, b, c);
  const o2 = orient(a, b, d);
  const o3 = orient(c, d, a);
  const o4 = orient(c, d, b);
  if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0))) return true;
  return (
    (o1 === 0 && onSegment(a, b, c)) ||
    (o2 === 0 && onSegment(a, b, d)) ||
    (o3 === 0 && onSegment(c, d, a)) ||
    (o4 === 0 && onSegment(c, d, b))
  );
}

/**
 * Two edges that share the vertex `shared` overlap beyond it: they are collinear and point the
 * same way from the shared vertex (a spike such as A → B → A).
 */
function adjacentEdgesOverlap(shared: LonLat, other1: LonLat, other2: LonLat): boolean {
  if (orient(shared, other1, other2) !== 0) return false;
  const d1x = other1[0] - shared[0];
  const d1y = other1[1] - shared[1];
  const d2x = other2[0] - shared[0];
  const d2y = other2[1] - shared[1];
  return d1x * d2x + d1y * d2y > 0;
}

/**
 * Finds crossing or touching edges between and within closed rings (each ring repeats its first
 * point at the end and has no consecutive duplicates). Candidate pairs come from a flatbush index
 * over edge boxes, so a 10,000-vertex ring costs milliseconds rather than a full pairwise scan.
 * Adjacent edges of a ring always share a vertex; they count only when they fold back on each other.
 * Stops after `limit` findings.
 */
export function findRingCrossings(rings: readonly (readonly LonLat[])[], limit = 10): EdgeCrossing[] {
  const edges: { ring: number; edge: number; count: number }[] = [];
  rings.forEach((ring, r) => {
    for (let e = 0; e < ring.length - 1; e++) edges.push({ ring: r, edge: e, count: ring.length - 1 });
  });
  const found: EdgeCrossing[] = [];
  if (edges.length < 2) return found;
  const index = new Flatbush(edges.length);
  const ends = edges.map(({ ring, edge }) => {
    const points = rings[ring] as readonly LonLat[];
    const a = points[edge] as LonLat;
    const b = points[edge + 1] as LonLat;
    index.add(Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[0], b[0]), Math.max(a[1], b[1]));
    return [a, b] as const;
  });
  index.finish();
  for (let i = 0; i < edges.length && found.length < limit; i++) {
    const [a, b] = ends[i] as readonly [LonLat, LonLat];
    const ei = edges[i] as { ring: number; edge: number; count: number };
    const candidates = index.search(Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[0], b[0]), Math.max(a[1], b[1]));
    candidates.sort((x, y) => x - y);
    for (const j of candidates) {
      if (j <= i || found.length >= limit) continue;
      const ej = edges[j] as { ring: number; edge: number; count: number };
      const [c, d] = ends[j] as readonly [LonLat, LonLat];
      if (ei.ring === ej.ring) {
        const next = ej.edge === ei.edge + 1;
        const wraps = ei.edge === 0 && ej.edge === ei.count - 1;
        if (next || wraps) {
          // next: b === c shared; wraps: a === d shared (closing edge meets the first edge)
          const overlap = next ? adjacentEdgesOverlap(b, a, d) : adjacentEdgesOverlap(a, b, c);
          // a triangle's edges are all adjacent to each other; both tests then apply
          const alsoOther = next && wraps ? adjacentEdgesOverlap(a, b, c) : false;
          if (overlap || alsoOther) found.push({ ringA: ei.ring, edgeA: ei.edge, ringB: ej.ring, edgeB: ej.edge });
          continue;
        }
      }
      if (segmentsIntersect(a, b, c, d)) {
        found.push({ ringA: ei.ring, edgeA: ei.edge, ringB: ej.ring, edgeB: ej.edge });
      }
    }
  }
  return found;
}
