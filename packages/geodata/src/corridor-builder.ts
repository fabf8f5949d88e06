import { distanceMetres, interpolate } from './geo-math';
import type { CorridorId, CountryCode, LonLat } from './types';

/** Speed limit for trucks inside a town's urban radius (Kenya Traffic Act / Tanzania Road Traffic Act: 50 km/h in built-up areas). */
export const TOWN_LIMIT_KPH = 50;
/** Default open-road limit for heavy goods vehicles on both corridors. */
export const OPEN_ROAD_LIMIT_KPH = 80;

/** A named town or junction on the road; `urbanKm` is the radius of its built-up (50 km/h) zone. */
export interface TownEntry {
  readonly town: string;
  readonly at: LonLat;
  readonly country: CountryCode;
  readonly urbanKm?: number;
}
/** Insert `densify` evenly spaced vertices between the neighbouring vertices (only where the road is straight). */
interface DensifyEntry {
  readonly densify: number;
}
/** Open-road limit (km/h) from this point on, e.g. 60 on an escarpment; 80 restores the default. */
interface LimitEntry {
  readonly openRoadKph: number;
}
export type PathEntry = LonLat | TownEntry | DensifyEntry | LimitEntry;

export interface CorridorSpec {
  readonly id: CorridorId;
  readonly name: string;
  /** Road numbers the line follows. */
  readonly roads: readonly string[];
  readonly countries: readonly CountryCode[];
  /** Published road length, km (the line's own length is `lengthKm`). */
  readonly statedLengthKm: number;
  /** Typical truck transit time end to end, hours: daytime driving with rests and weighbridge stops, excluding border clearance. */
  readonly expectedDurationHours: number;
  readonly path: readonly PathEntry[];
}

export interface Waypoint {
  /** 0-based position along the corridor in its forward direction. */
  readonly order: number;
  readonly name: string;
  readonly country: CountryCode;
  readonly coord: LonLat;
  /** Index of this waypoint's vertex in `line`. */
  readonly vertex: number;
  /** Distance from the corridor's start along the line, km. */
  readonly km: number;
  readonly urbanKm: number;
}

export interface Leg {
  readonly from: string;
  readonly to: string;
  readonly fromVertex: number;
  readonly toVertex: number;
  readonly km: number;
}

export interface Corridor {
  readonly id: CorridorId;
  readonly name: string;
  readonly roads: readonly string[];
  readonly countries: readonly CountryCode[];
  readonly statedLengthKm: number;
  readonly expectedDurationHours: number;
  /** Length of `line`, km. */
  readonly lengthKm: number;
  readonly waypoints: readonly Waypoint[];
  /** Consecutive waypoint pairs. */
  readonly legs: readonly Leg[];
  /** The road as a GeoJSON-order LineString, from the first waypoint to the last. */
  readonly line: readonly LonLat[];
  /** speedLimitsKph[i] is the truck limit on the segment line[i] → line[i + 1]. */
  readonly speedLimitsKph: readonly number[];
}

const isCoord = (e: PathEntry): e is LonLat => Array.isArray(e);
const isTown = (e: PathEntry): e is TownEntry => !isCoord(e) && 'town' in e;
const isDensify = (e: PathEntry): e is DensifyEntry => !isCoord(e) && 'densify' in e;

function coordOf(e: PathEntry | undefined): LonLat | undefined {
  if (e === undefined) return undefined;
  if (isCoord(e)) return e;
  if (isTown(e)) return e.at;
  return undefined;
}

/** Expands a corridor spec into its line, waypoints, legs and per-segment speed limits. */
export function buildCorridor(spec: CorridorSpec): Corridor {
  const line: LonLat[] = [];
  const openLimits: number[] = []; // open-road limit in force at each vertex
  const towns: { entry: TownEntry; vertex: number }[] = [];
  let openLimit = OPEN_ROAD_LIMIT_KPH;

  spec.path.forEach((entry, i) => {
    if (isDensify(entry)) {
      const a = line[line.length - 1];
      const b = coordOf(spec.path[i + 1]);
      if (!a || !b) throw new Error(`${spec.id}: densify at ${i} needs a vertex on each side`);
      for (let k = 1; k <= entry.densify; k++) {
        line.push(interpolate(a, b, k / (entry.densify + 1)));
        openLimits.push(openLimit);
      }
      return;
    }
    if (!isCoord(entry) && !isTown(entry)) {
      openLimit = entry.openRoadKph;
      return;
    }
    if (isTown(entry)) towns.push({ entry, vertex: line.length });
    line.push(isCoord(entry) ? entry : entry.at);
    openLimits.push(openLimit);
  });

  const cumulativeKm = [0];
  for (let i = 1; i < line.length; i++) {
    const a = line[i - 1];
    const b = line[i];
    if (!a || !b) throw new Error('unreachable');
    cumulativeKm.push((cumulativeKm[i - 1] ?? 0) + distanceMetres(a, b) / 1000);
  }

  const waypoints: Waypoint[] = towns.map(({ entry, vertex }, order) => ({
    order,
    name: entry.town,
    country: entry.country,
    coord: entry.at,
    vertex,
    km: cumulativeKm[vertex] ?? 0,
    urbanKm: entry.urbanKm ?? 1,
  }));

  const speedLimitsKph: number[] = [];
  for (let i = 0; i < line.length - 1; i++) {
    const a = line[i];
    const b = line[i + 1];
    if (!a || !b) throw new Error('unreachable');
    const mid = interpolate(a, b, 0.5);
    const urban = waypoints.some((w) => distanceMetres(w.coord, mid) <= w.urbanKm * 1000);
    const open = openLimits[i] ?? OPEN_ROAD_LIMIT_KPH;
    speedLimitsKph.push(urban ? Math.min(open, TOWN_LIMIT_KPH) : open);
  }

  const legs: Leg[] = [];
  for (let i = 1; i < waypoints.length; i++) {
    const from = waypoints[i - 1];
    const to = waypoints[i];
    if (!from || !to) throw new Error('unreachable');
    legs.push({ from: from.name, to: to.name, fromVertex: from.vertex, toVertex: to.vertex, km: to.km - from.km });
  }

  return {
    id: spec.id,
    name: spec.name,
    roads: spec.roads,
    countries: spec.countries,
    statedLengthKm: spec.statedLengthKm,
    expectedDurationHours: spec.expectedDurationHours,
    lengthKm: cumulativeKm[cumulativeKm.length - 1] ?? 0,
    waypoints,
    legs,
    line,
    speedLimitsKph,
  };
}
