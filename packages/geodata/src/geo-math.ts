import type { LonLat } from './types';

/** Mean Earth radius in metres (IUGG), the usual haversine radius. */
export const EARTH_RADIUS_M = 6_371_008.8;

const toRad = (deg: number): number => (deg * Math.PI) / 180;
const toDeg = (rad: number): number => (rad * 180) / Math.PI;

/** Great-circle distance in metres (haversine). */
export function distanceMetres(a: LonLat, b: LonLat): number {
  return distanceMetresLatLon(a[1], a[0], b[1], b[0]);
}

/** distanceMetres of two points given as numbers (no arrays to allocate in a loop over millions of fixes). */
export function distanceMetresLatLon(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = toRad(lat2 - lat1);
  const dLon = toRad(lon2 - lon1);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(toRad(lat1)) * Math.cos(toRad(lat2)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Initial bearing from a to b in degrees clockwise from true north, 0 ≤ result < 360. */
export function bearingDegrees(a: LonLat, b: LonLat): number {
  const φ1 = toRad(a[1]);
  const φ2 = toRad(b[1]);
  const Δλ = toRad(b[0] - a[0]);
  const y = Math.sin(Δλ) * Math.cos(φ2);
  const x = Math.cos(φ1) * Math.sin(φ2) - Math.sin(φ1) * Math.cos(φ2) * Math.cos(Δλ);
  return (toDeg(Math.atan2(y, x)) + 360) % 360;
}

/** Point at fraction t (0..1) of the way from a to b; linear in degrees, fine for segments of tens of km. */
export function interpolate(a: LonLat, b: LonLat, t: number): LonLat {
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
}

/** Point reached from `origin` after moving `metres` towards `bearingDeg` (flat-earth, for offsets under a few km). */
export function offsetMetres(origin: LonLat, metres: number, bearingDeg: number): LonLat {
  const θ = toRad(bearingDeg);
  const dLat = (metres * Math.cos(θ)) / EARTH_RADIUS_M;
  const dLon = (metres * Math.sin(θ)) / (EARTH_RADIUS_M * Math.cos(toRad(origin[1])));
  return [origin[0] + toDeg(dLon), origin[1] + toDeg(dLat)];
}
