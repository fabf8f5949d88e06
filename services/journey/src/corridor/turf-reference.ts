import { lineString, point, pointToLineDistance } from '@turf/turf';
import type { LonLat } from './route-definition';

/**
 * Geodesic distance in metres from a position to a line, computed by turf over every segment.
 * The slow, independent reference that route-index tests check against and the benchmark's baseline.
 */
export function turfDistanceToLineM(line: readonly LonLat[], lon: number, lat: number): number {
  return pointToLineDistance(point([lon, lat]), lineString(line.map((p) => [p[0], p[1]])), { units: 'meters' });
}
