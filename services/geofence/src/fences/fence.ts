/**
 * The internal fence shape every parser produces and every index consumes.
 * Coordinates are [lon, lat] (GeoJSON order) everywhere inside the service; only the Traccar
 * WKT strings at the edge are latitude first.
 */
export type LonLat = readonly [lon: number, lat: number];

export interface CircleShape {
  kind: 'circle';
  center: LonLat;
  /** metres */
  radius: number;
}

export interface PolygonShape {
  kind: 'polygon';
  /** rings[0] is the outer ring, the rest are holes; every ring is closed (last point = first). */
  rings: LonLat[][];
}

export interface LineShape {
  kind: 'line';
  points: LonLat[];
  /** corridor half-width in metres (Traccar attribute `polylineDistance`) */
  width: number;
}

export type FenceShape = CircleShape | PolygonShape | LineShape;

export interface Fence {
  id: string;
  shape: FenceShape;
}

/** [minLon, minLat, maxLon, maxLat] */
export type BBox = [number, number, number, number];

export const RADIUS_MIN_M = 1;
export const RADIUS_MAX_M = 100_000;
export const POLYLINE_DISTANCE_DEFAULT_M = 25;
export const POLYLINE_DISTANCE_MIN_M = 1;
export const POLYLINE_DISTANCE_MAX_M = 10_000;
