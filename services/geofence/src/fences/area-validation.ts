import { POLYLINE_DISTANCE_MAX_M, POLYLINE_DISTANCE_MIN_M, RADIUS_MAX_M, RADIUS_MIN_M, type FenceShape, type LonLat } from './fence';
import type { AreaErrorCode, AreaIssue, AreaNoticeCode, AreaResult, IssuePath } from './area-issue';
import { METRES_PER_DEGREE, pointInRings } from './geometry';
import { findRingCrossings } from './ring-intersections';

/** A shape as read from WKT or GeoJSON, before normalisation and checks. */
export type RawShape =
  | { kind: 'circle'; center: LonLat; radius: number }
  | { kind: 'polygon'; rings: LonLat[][] }
  | { kind: 'line'; points: LonLat[]; width: number };

/** Where each part lives in the caller's input, so issues point at what the user wrote. */
export interface ShapePaths {
  /** polygon point = [...coordinates, ring, point]; line point = [...coordinates, point]; circle centre = coordinates */
  coordinates: IssuePath;
  radius: IssuePath;
  width: IssuePath;
  /** WKT is latitude first: mention it when a latitude is out of range (often a swapped pair) */
  latitudeFirst: boolean;
}

type Errors = AreaIssue<AreaErrorCode>[];
type Notices = AreaIssue<AreaNoticeCode>[];

function checkCoordinate(p: LonLat, path: IssuePath, paths: ShapePaths, errors: Errors): void {
  const [lon, lat] = p;
  if (!Number.isFinite(lon) || !Number.isFinite(lat)) {
    errors.push({ path, code: 'invalid_number', message: 'coordinates must be finite numbers' });
    return;
  }
  if (lat < -90 || lat > 90) {
    const hint = paths.latitudeFirst ? ' (Traccar areas are written "lat lon", latitude first)' : '';
    errors.push({ path, code: 'coordinate_out_of_range', message: `latitude ${lat} is outside -90..90${hint}` });
  }
  if (lon < -180 || lon > 180) {
    errors.push({ path, code: 'coordinate_out_of_range', message: `longitude ${lon} is outside -180..180` });
  }
}

/**
 * Antimeridian policy: REJECTED. A fence whose longitudes span more than 180° can only mean the
 * short way across ±180° (Traccar normalises such polygons). Our fleets run in East Africa
 * (lon 28..42), so we refuse the case rather than carry wrap-around logic through every index.
 */
function checkLongitudeSpan(points: readonly LonLat[], path: IssuePath, errors: Errors): void {
  let min = Infinity;
  let max = -Infinity;
  for (const [lon] of points) {
    min = Math.min(min, lon);
    max = Math.max(max, lon);
  }
  if (max - min > 180) {
    errors.push({
      path,
      code: 'crosses_antimeridian',
      message: `longitudes span ${min}..${max}: fences crossing the ±180° meridian are not supported`,
    });
  }
}

/** Drops consecutive duplicates, remembering each kept point's index in the input. */
function dedupe(points: readonly LonLat[]): { points: LonLat[]; source: number[]; dropped: number[] } {
  const kept: LonLat[] = [];
  const source: number[] = [];
  const dropped: number[] = [];
  points.forEach((p, i) => {
    const last = kept[kept.length - 1];
    if (last && last[0] === p[0] && last[1] === p[1]) dropped.push(i);
    else {
      kept.push([p[0], p[1]]);
      source.push(i);
    }
  });
  return { points: kept, source, dropped };
}

/** All points on one straight line (in lon/lat), so the ring encloses nothing. */
function collinear(ring: readonly LonLat[]): boolean {
  const a = ring[0] as LonLat;
  const b = ring.find((p) => p[0] !== a[0] || p[1] !== a[1]);
  if (!b) return true;
  return ring.every((p) => (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) === 0);
}

function validatePolygon(raw: LonLat[][], paths: ShapePaths, errors: Errors, notices: Notices): LonLat[][] {
  const base = paths.coordinates;
  if (raw.length === 0) {
    errors.push({ path: base, code: 'too_few_points', message: 'a polygon needs an outer ring' });
    return [];
  }
  const rings: LonLat[][] = [];
  const sources: number[][] = [];
  let ringsUsable = true;
  raw.forEach((input, r) => {
    const before = errors.length;
    input.forEach((p, i) => checkCoordinate(p, [...base, r, i], paths, errors));
    const { points, source, dropped } = dedupe(input);
    for (const i of dropped) {
      notices.push({ path: [...base, r, i], code: 'duplicate_point_removed', message: 'repeated point removed' });
    }
    const first = points[0];
    const last = points[points.length - 1];
    const closed = points.length > 1 && first && last && first[0] === last[0] && first[1] === last[1];
    const distinct = new Set(points.map(([x, y]) => `${x},${y}`)).size;
    if (distinct < 3) {
      errors.push({
        path: [...base, r],
        code: 'too_few_points',
        message: `ring ${r} has ${distinct} distinct point(s); a polygon ring needs at least 3`,
      });
    } else if (!closed && first) {
      points.push([first[0], first[1]]);
      source.push(source[0] ?? 0);
      notices.push({
        path: [...base, r],
        code: 'ring_closed',
        message: `ring ${r} was open; closed by repeating its first point (Traccar does not require closure)`,
      });
    }
    checkLongitudeSpan(points, [...base, r], errors);
    if (errors.length > before) ringsUsable = false;
    else if (collinear(points)) {
      errors.push({ path: [...base, r], code: 'degenerate_ring', message: `ring ${r} has zero area (all points on one line)` });
      ringsUsable = false;
    }
    rings.push(points);
    sources.push(source);
  });
  if (!ringsUsable) return rings;

  for (const c of findRingCrossings(rings)) {
    const at = (ring: number, edge: number): string => `ring ${ring} edge ${sources[ring]?.[edge]}→${sources[ring]?.[edge + 1]}`;
    if (c.ringA === c.ringB) {
      errors.push({
        path: [...base, c.ringA, sources[c.ringA]?.[c.edgeA] ?? 0],
        code: 'self_intersection',
        message: `${at(c.ringA, c.edgeA)} crosses or touches ${at(c.ringB, c.edgeB)}`,
      });
    } else {
      errors.push({
        path: [...base, c.ringB],
        code: 'rings_intersect',
        message: `${at(c.ringA, c.edgeA)} crosses or touches ${at(c.ringB, c.edgeB)}`,
      });
    }
  }
  if (errors.length > 0) return rings;

  // rings do not cross, so one vertex tells whether a hole lies inside the outer ring and outside the other holes
  const outer = rings[0] as LonLat[];
  rings.slice(1).forEach((hole, h) => {
    const [lon, lat] = hole[0] as LonLat;
    const r = h + 1;
    if (!pointInRings([outer], lon, lat)) {
      errors.push({ path: [...base, r], code: 'hole_outside_outer', message: `hole ${r} lies outside the outer ring` });
      return;
    }
    const container = rings.findIndex((other, o) => o > 0 && o !== r && pointInRings([other], lon, lat));
    if (container > 0) {
      errors.push({ path: [...base, r], code: 'hole_outside_outer', message: `hole ${r} lies inside hole ${container}` });
    }
  });
  return rings;
}

function validateLine(raw: LonLat[], width: number, paths: ShapePaths, errors: Errors, notices: Notices): LonLat[] {
  const base = paths.coordinates;
  raw.forEach((p, i) => checkCoordinate(p, [...base, i], paths, errors));
  const { points, dropped } = dedupe(raw);
  for (const i of dropped) notices.push({ path: [...base, i], code: 'duplicate_point_removed', message: 'repeated point removed' });
  if (points.length < 2) {
    errors.push({ path: base, code: 'too_few_points', message: `a line needs at least 2 distinct points, got ${points.length}` });
  }
  checkLongitudeSpan(points, base, errors);
  if (!Number.isFinite(width)) {
    errors.push({ path: paths.width, code: 'invalid_number', message: 'polylineDistance must be a finite number' });
  } else if (width < POLYLINE_DISTANCE_MIN_M || width > POLYLINE_DISTANCE_MAX_M) {
    errors.push({
      path: paths.width,
      code: 'polyline_distance_out_of_range',
      message: `polylineDistance ${width} m is outside ${POLYLINE_DISTANCE_MIN_M}..${POLYLINE_DISTANCE_MAX_M} m`,
    });
  }
  return points;
}

function validateCircle(center: LonLat, radius: number, paths: ShapePaths, errors: Errors): void {
  checkCoordinate(center, paths.coordinates, paths, errors);
  if (!Number.isFinite(radius)) {
    errors.push({ path: paths.radius, code: 'invalid_number', message: 'radius must be a finite number' });
    return;
  }
  if (radius < RADIUS_MIN_M || radius > RADIUS_MAX_M) {
    errors.push({
      path: paths.radius,
      code: 'radius_out_of_range',
      message: `radius ${radius} m is outside ${RADIUS_MIN_M}..${RADIUS_MAX_M} m`,
    });
    return;
  }
  if (errors.length > 0) return;
  const [lon, lat] = center;
  const dLat = radius / METRES_PER_DEGREE;
  if (Math.abs(lat) + dLat >= 89) {
    errors.push({ path: paths.coordinates, code: 'reaches_pole', message: 'circles reaching within 1° of a pole are not supported' });
    return;
  }
  const dLon = radius / (METRES_PER_DEGREE * Math.cos(((Math.abs(lat) + dLat) * Math.PI) / 180));
  if (lon - dLon < -180 || lon + dLon > 180) {
    errors.push({
      path: paths.coordinates,
      code: 'crosses_antimeridian',
      message: 'the circle crosses the ±180° meridian; such fences are not supported',
    });
  }
}

/** Normalises (closes rings, drops repeated points) and validates a shape; errors are data, never thrown. */
export function validateShape(raw: RawShape, paths: ShapePaths): AreaResult {
  const errors: Errors = [];
  const notices: Notices = [];
  let shape: FenceShape;
  switch (raw.kind) {
    case 'circle':
      validateCircle(raw.center, raw.radius, paths, errors);
      shape = { kind: 'circle', center: [raw.center[0], raw.center[1]], radius: raw.radius };
      break;
    case 'polygon':
      shape = { kind: 'polygon', rings: validatePolygon(raw.rings, paths, errors, notices) };
      break;
    case 'line':
      shape = { kind: 'line', points: validateLine(raw.points, raw.width, paths, errors, notices), width: raw.width };
      break;
  }
  return errors.length > 0 ? { ok: false, errors, notices } : { ok: true, shape, notices };
}
