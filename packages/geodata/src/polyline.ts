import { bearingDegrees, distanceMetres, interpolate } from './geo-math';
import type { LonLat } from './types';

/** A polyline with its cumulative distances, so points along it can be found by distance. */
export interface MeasuredLine {
  readonly line: readonly LonLat[];
  /** cumulative[i] = metres from the first vertex to vertex i; cumulative[0] = 0. */
  readonly cumulative: readonly number[];
  readonly lengthMetres: number;
}

export interface PointOnLine {
  readonly coord: LonLat;
  /** Index of the segment (from vertex i to i + 1) holding the point. */
  readonly segment: number;
  /** Bearing of that segment, degrees clockwise from north. */
  readonly bearing: number;
  /** Metres from the start of the line. */
  readonly along: number;
}

export interface Projection extends PointOnLine {
  /** Metres from the projected point to the nearest point on the line. */
  readonly offset: number;
}

function vertex(line: readonly LonLat[], i: number): LonLat {
  const v = line[i];
  if (!v) throw new RangeError(`vertex ${i} outside line of ${line.length}`);
  return v;
}

export function measureLine(line: readonly LonLat[]): MeasuredLine {
  if (line.length < 2) throw new RangeError('a line needs at least two vertices');
  const cumulative = [0];
  let total = 0;
  for (let i = 1; i < line.length; i++) {
    total += distanceMetres(vertex(line, i - 1), vertex(line, i));
    cumulative.push(total);
  }
  return { line, cumulative, lengthMetres: total };
}

/** Index of the segment containing distance `along` (binary search over the cumulative distances). */
function segmentAt(m: MeasuredLine, along: number): number {
  let lo = 0;
  let hi = m.line.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((m.cumulative[mid] ?? 0) <= along) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The point `along` metres from the start, clamped to the line's ends. */
export function pointAlong(m: MeasuredLine, along: number): PointOnLine {
  const d = Math.min(Math.max(along, 0), m.lengthMetres);
  const segment = segmentAt(m, d);
  const a = vertex(m.line, segment);
  const b = vertex(m.line, segment + 1);
  const start = m.cumulative[segment] ?? 0;
  const len = (m.cumulative[segment + 1] ?? start) - start;
  const t = len > 0 ? (d - start) / len : 0;
  return { coord: interpolate(a, b, t), segment, bearing: bearingDegrees(a, b), along: d };
}

/** Nearest point of the line to `p`, using a local equirectangular projection per segment. */
export function projectOnLine(m: MeasuredLine, p: LonLat): Projection {
  let best: Projection | undefined;
  const kx = Math.cos((p[1] * Math.PI) / 180);
  for (let i = 0; i < m.line.length - 1; i++) {
    const a = vertex(m.line, i);
    const b = vertex(m.line, i + 1);
    const dx = (b[0] - a[0]) * kx;
    const dy = b[1] - a[1];
    const len2 = dx * dx + dy * dy;
    const raw = len2 > 0 ? ((p[0] - a[0]) * kx * dx + (p[1] - a[1]) * dy) / len2 : 0;
    const t = Math.min(Math.max(raw, 0), 1);
    const coord = interpolate(a, b, t);
    const offset = distanceMetres(coord, p);
    if (!best || offset < best.offset) {
      const start = m.cumulative[i] ?? 0;
      const along = start + ((m.cumulative[i + 1] ?? start) - start) * t;
      best = { coord, segment: i, bearing: bearingDegrees(a, b), along, offset };
    }
  }
  if (!best) throw new RangeError('empty line');
  return best;
}
