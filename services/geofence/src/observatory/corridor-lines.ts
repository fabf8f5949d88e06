import { CORRIDORS, measureLine, type CorridorId, type LonLat } from '@corridor/geodata';
import { METRES_PER_DEGREE, segmentFoot } from '../fences/geometry';

const RAD = Math.PI / 180;

/** Where a point lies against a corridor's line. */
export interface CorridorMatch {
  corridor: CorridorId;
  /** metres from the line's first vertex to the nearest point of the line */
  along: number;
  /** metres from the point to that nearest point */
  offset: number;
  /**
   * `along`, continued past the ends: a point beyond the last vertex is `length + offset`, one
   * before the first is `-offset`, so the way a truck moves is known at the ends too (a truck
   * coming back from Uganda to Malaba has a larger value than Malaba's).
   */
  alongExt: number;
}

/** One corridor's line prepared for many projections: its box and cumulative metres. */
export class CorridorLine {
  readonly id: CorridorId;
  readonly length: number;
  private readonly line: readonly LonLat[];
  private readonly cum: Float64Array;
  /** the line's box, grown by `reach` metres: farther points are not matched at all */
  private readonly box: [number, number, number, number];

  constructor(id: CorridorId, line: readonly LonLat[], reach: number) {
    this.id = id;
    const m = measureLine(line);
    this.length = m.lengthMetres;
    this.line = line;
    this.cum = Float64Array.from(m.cumulative);
    const dLat = reach / METRES_PER_DEGREE;
    const maxAbsLat = Math.max(...line.map((p) => Math.abs(p[1]))) + dLat;
    const dLon = reach / (METRES_PER_DEGREE * Math.cos(Math.min(89, maxAbsLat) * RAD));
    const lons = line.map((p) => p[0]);
    const lats = line.map((p) => p[1]);
    this.box = [Math.min(...lons) - dLon, Math.min(...lats) - dLat, Math.max(...lons) + dLon, Math.max(...lats) + dLat];
  }

  /**
   * The nearest point of the line in a local equirectangular projection at the point's latitude
   * (as the geofence shapes measure lines), undefined beyond the box. Along-distances are the
   * line's own haversine metres (geodata measureLine), so they agree with the simulator's.
   */
  project(lon: number, lat: number): CorridorMatch | undefined {
    const [x0, y0, x1, y1] = this.box;
    if (lon < x0 || lon > x1 || lat < y0 || lat > y1) return undefined;
    const kx = Math.cos(lat * RAD) * METRES_PER_DEGREE;
    let best = Infinity;
    let bestI = 0;
    let bestT = 0;
    const n = this.line.length - 1;
    for (let i = 0; i < n; i++) {
      const { d2, t } = segmentFoot(lon, lat, kx, this.line[i]!, this.line[i + 1]!);
      if (d2 < best) {
        best = d2;
        bestI = i;
        bestT = t;
      }
    }
    const along = this.cum[bestI]! + bestT * (this.cum[bestI + 1]! - this.cum[bestI]!);
    const offset = Math.sqrt(best);
    const alongExt = bestI === 0 && bestT === 0 ? -offset : bestI === n - 1 && bestT === 1 ? this.length + offset : along;
    return { corridor: this.id, along, offset, alongExt };
  }
}

/** The geodata corridors as CorridorLines; points farther than `reach` metres from a line are not matched to it. */
export function corridorLines(reach = 50_000): CorridorLine[] {
  return CORRIDORS.map((c) => new CorridorLine(c.id, c.line, reach));
}

/** The nearest corridor within reach (the two corridors are hundreds of kilometres apart). */
export function matchCorridor(lines: readonly CorridorLine[], lon: number, lat: number): CorridorMatch | undefined {
  let best: CorridorMatch | undefined;
  for (const l of lines) {
    const m = l.project(lon, lat);
    if (m && (!best || m.offset < best.offset)) best = m;
  }
  return best;
}
