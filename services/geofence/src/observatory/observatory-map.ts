import { TRUCK_PARKING, type CorridorId } from '@corridor/geodata';
import type { GeofenceKind } from '@corridor/contracts';
import type { BBox, FenceShape, LonLat } from '../fences/fence';
import { containsPoint, distanceOutsideMeters, haversineMeters, shapeBBox } from '../fences/geometry';
import type { CatalogFence } from '../evaluator/fence-catalog';
import type { FenceRule } from '../evaluator/fence-state';
import { corridorLines, matchCorridor, type CorridorLine, type CorridorMatch } from './corridor-lines';

/** The kinds of shared geofence whose visits the observatory measures (and that are authorized stops). */
const OBSERVATORY_PLACE_KINDS = [
  'border_post',
  'port',
  'inland_depot',
  'weighbridge',
  'checkpoint',
] as const satisfies readonly GeofenceKind[];
type ObservatoryPlaceKind = (typeof OBSERVATORY_PLACE_KINDS)[number];
const placeKinds: ReadonlySet<string> = new Set(OBSERVATORY_PLACE_KINDS);

/** A place whose centre is within this distance of a corridor's line is a place of that corridor. */
const PLACE_ON_CORRIDOR_M = 3_000;

export interface ObservatoryPlace {
  /** the geofence id */
  id: string;
  name: string;
  kind: ObservatoryPlaceKind;
  shape: FenceShape;
  /** the geofence's enter and exit rule (minDwellSeconds, exitMarginMeters), as the geofence events use it */
  rule: FenceRule;
  corridor: CorridorId | null;
  /** metres from the corridor line's first vertex to the place's centre (null off the corridors) */
  along: number | null;
  /** the first ('start') or last ('end') place of its corridor by `along`: where corridor trips begin and end */
  end: 'start' | 'end' | null;
  /** the box of the shape grown by the exit margin: beyond it a fix is neither inside nor within the margin */
  box: BBox;
}

/** An approved truck park (packages/geodata): stopping there is authorized. */
export interface StopArea {
  id: string;
  center: LonLat;
  radius: number;
}

/** A representative point of a shape: a circle's centre, the mean of a polygon's outer ring or of a line's points. */
function centreOf(shape: FenceShape): LonLat {
  if (shape.kind === 'circle') return shape.center;
  const pts = shape.kind === 'polygon' ? (shape.rings[0] ?? []).slice(0, -1) : shape.points;
  const n = Math.max(pts.length, 1);
  return [pts.reduce((s, p) => s + p[0], 0) / n, pts.reduce((s, p) => s + p[1], 0) / n];
}

const grow = ([x0, y0, x1, y1]: BBox, metres: number): BBox => {
  const d = metres / 111_000 + 1e-9;
  const dx = d / Math.max(Math.cos(((Math.abs(y0) + Math.abs(y1)) / 2) * (Math.PI / 180)), 0.1);
  return [x0 - dx, y0 - d, x1 + dx, y1 + d];
};

/**
 * The places the observatory measures: the shared geofences (no company) of the place kinds, with
 * their corridor and position along it. Company fences are a company's own business and are left out.
 */
export function observatoryPlaces(fences: Iterable<CatalogFence>, lines: readonly CorridorLine[]): ObservatoryPlace[] {
  const places: ObservatoryPlace[] = [];
  for (const f of fences) {
    if (f.companyId !== null || !placeKinds.has(f.kind)) continue;
    const [lon, lat] = centreOf(f.shape);
    const m = matchCorridor(lines, lon, lat);
    const on = m && m.offset <= PLACE_ON_CORRIDOR_M ? m : undefined;
    places.push({
      id: f.id,
      name: f.name,
      kind: f.kind as ObservatoryPlaceKind,
      shape: f.shape,
      rule: f.rule,
      corridor: on?.corridor ?? null,
      along: on ? on.along : null,
      end: null,
      box: grow(shapeBBox(f.shape), f.rule.exitMarginMeters),
    });
  }
  for (const c of new Set(places.map((p) => p.corridor))) {
    if (c === null) continue;
    const on = places.filter((p) => p.corridor === c).sort((a, b) => a.along! - b.along!);
    if (on.length < 2) continue;
    on[0]!.end = 'start';
    on[on.length - 1]!.end = 'end';
  }
  return places;
}

const parkingAreas = (): StopArea[] => TRUCK_PARKING.map((p) => ({ id: p.id, center: p.center, radius: p.radiusMetres }));

/**
 * What the observatory tracker knows of the world: the corridor lines, the measured places (with
 * each corridor's places in order along its line) and the truck parks. Rebuilt when the geofences change.
 */
export class ObservatoryMap {
  readonly byId: ReadonlyMap<string, ObservatoryPlace>;
  private readonly ordered = new Map<CorridorId, ObservatoryPlace[]>();

  constructor(
    readonly places: readonly ObservatoryPlace[],
    readonly lines: readonly CorridorLine[] = corridorLines(),
    readonly parking: readonly StopArea[] = parkingAreas(),
  ) {
    this.byId = new Map(places.map((p) => [p.id, p]));
    for (const p of places) {
      if (p.corridor === null) continue;
      const list = this.ordered.get(p.corridor) ?? [];
      list.push(p);
      this.ordered.set(p.corridor, list);
    }
    for (const list of this.ordered.values()) list.sort((a, b) => a.along! - b.along!);
  }

  match(lon: number, lat: number): CorridorMatch | undefined {
    return matchCorridor(this.lines, lon, lat);
  }

  /** The places containing the point. */
  placesAt(lon: number, lat: number): ObservatoryPlace[] {
    const out: ObservatoryPlace[] = [];
    for (const p of this.places) {
      const [x0, y0, x1, y1] = p.box;
      if (lon >= x0 && lon <= x1 && lat >= y0 && lat <= y1 && containsPoint(p.shape, lon, lat)) out.push(p);
    }
    return out;
  }

  /** Metres outside a place (0 inside); beyond its grown box, Infinity (past any exit margin). */
  distanceOutside(p: ObservatoryPlace, lon: number, lat: number): number {
    const [x0, y0, x1, y1] = p.box;
    if (lon < x0 || lon > x1 || lat < y0 || lat > y1) return Infinity;
    return distanceOutsideMeters(p.shape, lon, lat);
  }

  /** The authorized place or truck park at the point (its id), or '' outside all of them. */
  authorizedAt(lon: number, lat: number): string {
    const place = this.placesAt(lon, lat)[0];
    if (place) return place.id;
    for (const a of this.parking) if (haversineMeters(a.center[0], a.center[1], lon, lat) <= a.radius) return a.id;
    return '';
  }

  /** The corridor's places in order along its line. */
  placesOn(corridor: CorridorId): readonly ObservatoryPlace[] {
    return this.ordered.get(corridor) ?? [];
  }

  /** The corridor's places strictly between two positions along its line (in either order). */
  placesBetween(corridor: CorridorId, a: number, b: number): ObservatoryPlace[] {
    const [lo, hi] = a < b ? [a, b] : [b, a];
    return this.placesOn(corridor).filter((p) => p.along! > lo && p.along! < hi);
  }
}
