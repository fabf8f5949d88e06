import type { BBox, FenceShape, LonLat } from './fence';

/**
 * Exact containment on the internal fence shapes.
 *
 * Distances follow Traccar: haversine on a sphere of R = 6,378,137 m (the WGS84 equatorial radius).
 * Polygons follow Traccar too: ray casting with straight edges in lon/lat degrees.
 * Corridor lines: the nearest point of each segment is found in a local equirectangular projection
 * at the fix's latitude (scaled to the same sphere), and the distance to it is then measured with
 * haversine. (cheap-ruler would do the projection, but its WGS84 ellipsoid factors differ from
 * Traccar's sphere by up to 0.67 % north-south at the equator, so we keep one sphere throughout.)
 *
 * Boundary semantics: a fix ON the boundary counts as inside: circle distance = radius, a fix on a
 * polygon edge (outer ring or a hole's edge) and a fix at exactly `width` from a corridor line are
 * all inside. To absorb float rounding the boundary is BOUNDARY_TOLERANCE_M (1 mm) thick.
 */
export const EARTH_RADIUS_M = 6_378_137;
const RAD = Math.PI / 180;
/** metres per degree of latitude (and of longitude at the equator) on Traccar's sphere */
export const METRES_PER_DEGREE = EARTH_RADIUS_M * RAD;
export const BOUNDARY_TOLERANCE_M = 0.001;

export function haversineMeters(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const sinDLat = Math.sin(((lat2 - lat1) * RAD) / 2);
  const sinDLon = Math.sin(((lon2 - lon1) * RAD) / 2);
  const a = sinDLat * sinDLat + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * sinDLon * sinDLon;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Even-odd ray casting over all rings (so holes subtract); edges straight in lon/lat. */
export function pointInRings(rings: readonly (readonly LonLat[])[], lon: number, lat: number): boolean {
  let inside = false;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = ring[i] as LonLat;
      const [xj, yj] = ring[j] as LonLat;
      if (yi > lat !== yj > lat && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
    }
  }
  return inside;
}

/** Squared planar distance in m² (local projection at `lat`) from the fix to segment ab, and where it lands (0 at a, 1 at b). */
export function segmentFoot(lon: number, lat: number, kx: number, a: LonLat, b: LonLat): { d2: number; t: number } {
  const ax = (a[0] - lon) * kx;
  const ay = (a[1] - lat) * METRES_PER_DEGREE;
  const dx = (b[0] - a[0]) * kx;
  const dy = (b[1] - a[1]) * METRES_PER_DEGREE;
  const len2 = dx * dx + dy * dy;
  let t = len2 === 0 ? 0 : -(ax * dx + ay * dy) / len2;
  if (t < 0) t = 0;
  else if (t > 1) t = 1;
  const px = ax + t * dx;
  const py = ay + t * dy;
  return { d2: px * px + py * py, t };
}

/** Distance from the fix to the nearest point of a chain of segments (a line or closed rings). */
export function distanceToChainsMeters(chains: readonly (readonly LonLat[])[], lon: number, lat: number): number {
  const kx = Math.cos(lat * RAD) * METRES_PER_DEGREE;
  let best = Infinity;
  let bestA: LonLat | undefined;
  let bestB: LonLat | undefined;
  let bestT = 0;
  for (const chain of chains) {
    if (chain.length === 1) {
      const only = chain[0] as LonLat;
      const { d2 } = segmentFoot(lon, lat, kx, only, only);
      if (d2 < best) [best, bestA, bestB, bestT] = [d2, only, only, 0];
    }
    for (let i = 0; i < chain.length - 1; i++) {
      const a = chain[i] as LonLat;
      const b = chain[i + 1] as LonLat;
      const { d2, t } = segmentFoot(lon, lat, kx, a, b);
      if (d2 < best) [best, bestA, bestB, bestT] = [d2, a, b, t];
    }
  }
  if (!bestA || !bestB) return Infinity;
  return haversineMeters(lon, lat, bestA[0] + bestT * (bestB[0] - bestA[0]), bestA[1] + bestT * (bestB[1] - bestA[1]));
}

const outerBoxes = new WeakMap<object, BBox>();

/** The outer ring's box grown by twice the boundary tolerance, remembered per rings array. */
function outerBox(rings: readonly (readonly LonLat[])[]): BBox {
  let box = outerBoxes.get(rings);
  if (!box) {
    box = pointsBBox(rings[0] ?? [], BOUNDARY_TOLERANCE_M * 2);
    outerBoxes.set(rings, box);
  }
  return box;
}

/**
 * Ray casting (even-odd over all rings, so holes subtract) that also reports a fix within
 * BOUNDARY_TOLERANCE_M of any edge as inside. Edges whose box (grown by the tolerance) misses the
 * fix are skipped without arithmetic, so the boundary check costs almost nothing.
 */
export function polygonContains(rings: readonly (readonly LonLat[])[], lon: number, lat: number): boolean {
  const box = outerBox(rings);
  if (lon < box[0] || lat < box[1] || lon > box[2] || lat > box[3]) return false;
  const kx = Math.cos(lat * RAD) * METRES_PER_DEGREE;
  const tolLat = (BOUNDARY_TOLERANCE_M * 2) / METRES_PER_DEGREE;
  const tolLon = (BOUNDARY_TOLERANCE_M * 2) / kx;
  const limit = BOUNDARY_TOLERANCE_M * BOUNDARY_TOLERANCE_M;
  let inside = false;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const a = ring[i] as LonLat;
      const b = ring[j] as LonLat;
      const [xi, yi] = a;
      const [xj, yj] = b;
      if (yi > lat !== yj > lat && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
      if (
        lat >= Math.min(yi, yj) - tolLat &&
        lat <= Math.max(yi, yj) + tolLat &&
        lon >= Math.min(xi, xj) - tolLon &&
        lon <= Math.max(xi, xj) + tolLon &&
        segmentFoot(lon, lat, kx, a, b).d2 <= limit
      ) {
        return true;
      }
    }
  }
  return inside;
}

/**
 * The fix lies within `limit` metres (haversine to the segment's nearest point) of segment ab.
 * Segments clearly farther in the planar projection skip the haversine.
 */
export function segmentWithinMeters(lon: number, lat: number, kx: number, a: LonLat, b: LonLat, limit: number): boolean {
  const { d2, t } = segmentFoot(lon, lat, kx, a, b);
  const loose = limit * 1.01 + 1;
  if (d2 > loose * loose) return false;
  return haversineMeters(lon, lat, a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])) <= limit;
}

/** Metres per degree of longitude at `lat` on Traccar's sphere (the kx of segmentWithinMeters). */
export function metresPerDegreeLon(lat: number): number {
  return Math.cos(lat * RAD) * METRES_PER_DEGREE;
}

/** Corridor test: some segment lies within width (+ the boundary tolerance). */
export function lineContains(points: readonly LonLat[], width: number, lon: number, lat: number): boolean {
  const kx = metresPerDegreeLon(lat);
  const limit = width + BOUNDARY_TOLERANCE_M;
  for (let i = 0; i < points.length - 1; i++) {
    if (segmentWithinMeters(lon, lat, kx, points[i] as LonLat, points[i + 1] as LonLat, limit)) return true;
  }
  return false;
}

export function containsPoint(shape: FenceShape, lon: number, lat: number): boolean {
  switch (shape.kind) {
    case 'circle':
      return haversineMeters(shape.center[0], shape.center[1], lon, lat) <= shape.radius + BOUNDARY_TOLERANCE_M;
    case 'polygon':
      return polygonContains(shape.rings, lon, lat);
    case 'line':
      return lineContains(shape.points, shape.width, lon, lat);
  }
}

/**
 * Metres from the fix to the boundary, negative inside (how deep), positive outside.
 * Used for exit margins and to classify H3 cells.
 */
export function signedDistanceMeters(shape: FenceShape, lon: number, lat: number): number {
  switch (shape.kind) {
    case 'circle':
      return haversineMeters(shape.center[0], shape.center[1], lon, lat) - shape.radius;
    case 'polygon': {
      const d = distanceToChainsMeters(shape.rings, lon, lat);
      return pointInRings(shape.rings, lon, lat) ? -d : d;
    }
    case 'line':
      return distanceToChainsMeters([shape.points], lon, lat) - shape.width;
  }
}

/** How far outside the fence the fix is, in metres; 0 when inside (or on the boundary). */
export function distanceOutsideMeters(shape: FenceShape, lon: number, lat: number): number {
  if (containsPoint(shape, lon, lat)) return 0;
  return Math.max(0, signedDistanceMeters(shape, lon, lat));
}

/** Box around the points, grown by `meters` (conservatively: longitude degrees taken at the widest latitude). */
export function pointsBBox(points: readonly LonLat[], meters = 0): BBox {
  let minLon = Infinity;
  let minLat = Infinity;
  let maxLon = -Infinity;
  let maxLat = -Infinity;
  for (const [lon, lat] of points) {
    if (lon < minLon) minLon = lon;
    if (lon > maxLon) maxLon = lon;
    if (lat < minLat) minLat = lat;
    if (lat > maxLat) maxLat = lat;
  }
  if (meters <= 0) return [minLon, minLat, maxLon, maxLat];
  // 0.1 % and 1e-9° of slack on top keeps float noise in the box, never out of it
  const dLat = (meters * 1.001) / METRES_PER_DEGREE + 1e-9;
  const widestLat = Math.min(89.9, Math.max(Math.abs(minLat), Math.abs(maxLat)) + dLat);
  const dLon = (meters * 1.001) / (METRES_PER_DEGREE * Math.cos(widestLat * RAD)) + 1e-9;
  return [minLon - dLon, minLat - dLat, maxLon + dLon, maxLat + dLat];
}

/** Bounding box of everything the fence contains (circles and lines grown by radius / width). */
export function shapeBBox(shape: FenceShape): BBox {
  switch (shape.kind) {
    case 'circle':
      return pointsBBox([shape.center], shape.radius + BOUNDARY_TOLERANCE_M);
    case 'polygon':
      return pointsBBox(shape.rings[0] ?? [], BOUNDARY_TOLERANCE_M);
    case 'line':
      return pointsBBox(shape.points, shape.width + BOUNDARY_TOLERANCE_M);
  }
}
