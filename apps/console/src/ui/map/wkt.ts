import type { Feature, Geometry } from 'geojson';
import { bandWidth } from './scale';

const EARTH_M = 6_371_008.8;

/** A circle as a 64-sided polygon ([lon, lat] ring). */
export function circleRing([lon, lat]: [number, number], radiusM: number, sides = 64): [number, number][] {
  const ring: [number, number][] = [];
  const dLat = (radiusM / EARTH_M) * (180 / Math.PI);
  const dLon = dLat / Math.cos((lat * Math.PI) / 180);
  for (let i = 0; i <= sides; i++) {
    const a = (2 * Math.PI * i) / sides;
    ring.push([lon + dLon * Math.sin(a), lat + dLat * Math.cos(a)]);
  }
  return ring;
}

/** Traccar's latitude-first "lat lon, lat lon" as [lon, lat] pairs. */
export const wktPairs = (s: string): [number, number][] =>
  s
    .split(',')
    .map((p) => p.trim().split(/\s+/).map(Number))
    .filter((p) => p.length >= 2 && p.every(Number.isFinite))
    .map(([lat, lon]) => [lon!, lat!]);

/**
 * Traccar's latitude-first WKT (CIRCLE, POLYGON, LINESTRING) as GeoJSON for drawing; a corridor
 * line keeps its half-width so the map can draw it to scale. Unknown text gives null.
 */
export function wktToGeometry(area: string): { geometry: Geometry; widthM?: number } | null {
  const text = area.trim();
  const circle = /^CIRCLE\s*\(\s*([-\d.]+)\s+([-\d.]+)\s*,\s*([\d.]+)\s*\)$/i.exec(text);
  if (circle)
    return { geometry: { type: 'Polygon', coordinates: [circleRing([Number(circle[2]), Number(circle[1])], Number(circle[3]))] } };
  const polygon = /^POLYGON\s*\(\s*\((.*)\)\s*\)$/i.exec(text);
  if (polygon) return { geometry: { type: 'Polygon', coordinates: polygon[1]!.split(/\)\s*,\s*\(/).map(wktPairs) } };
  const line = /^LINESTRING\s*\((.*)\)$/i.exec(text);
  if (line) return { geometry: { type: 'LineString', coordinates: wktPairs(line[1]!) } };
  return null;
}

/** A geofence as a map feature; a corridor line carries its band width to scale. */
export function fenceFeature(
  f: { id: number; name: string; area: string; attributes: { polylineDistance?: number } },
  selected = false,
): Feature | null {
  const g = wktToGeometry(f.area);
  if (!g) return null;
  const first = g.geometry.type === 'LineString' ? g.geometry.coordinates[0] : undefined;
  const band = first ? bandWidth(f.attributes.polylineDistance ?? 25, first[1]!) : {};
  return {
    type: 'Feature',
    id: f.id,
    properties: { id: f.id, name: f.name, selected, corridor: Boolean(first), ...band },
    geometry: g.geometry,
  };
}
