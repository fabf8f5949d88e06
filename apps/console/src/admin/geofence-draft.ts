import type { FeatureCollection, Geometry } from 'geojson';
import { circleRing, wktPairs as pairs } from '../ui/map/wkt';
import { bandWidth } from '../ui/map/scale';

export type Shape = 'polygon' | 'circle' | 'corridor';

export interface Draft {
  shape: Shape;
  points: [number, number][];
  /** circle radius or corridor half-width, metres */
  metres: number;
}

/** Whether the clicks so far make the shape (a polygon needs 3 corners, a circle a centre, a corridor 2 points). */
export const draftComplete = (d: Draft): boolean => d.points.length >= (d.shape === 'polygon' ? 3 : d.shape === 'circle' ? 1 : 2);

/** What the API takes: GeoJSON (with the radius, or the corridor half-width as polylineDistance). */
export function draftGeometry(d: Draft): { geometry: Geometry; radius?: number; polylineDistance?: number } {
  if (d.shape === 'circle') return { geometry: { type: 'Point', coordinates: d.points[0]! }, radius: d.metres };
  if (d.shape === 'corridor') return { geometry: { type: 'LineString', coordinates: d.points }, polylineDistance: d.metres };
  return { geometry: { type: 'Polygon', coordinates: [[...d.points, d.points[0]!]] } };
}

/**
 * A stored fence as a draft to edit by moving its corners: a circle's centre and radius, a polygon's
 * corners (without the closing one), a corridor's points and half-width. null when its shape cannot
 * be edited so (a polygon with holes, unknown text): the fence keeps its area as stored.
 */
export function draftFromFence(f: { area: string; attributes: { polylineDistance?: number } }): Draft | null {
  const text = f.area.trim();
  const circle = /^CIRCLE\s*\(\s*([-\d.]+)\s+([-\d.]+)\s*,\s*([\d.]+)\s*\)$/i.exec(text);
  if (circle) return { shape: 'circle', points: [[Number(circle[2]), Number(circle[1])]], metres: Number(circle[3]) };
  const polygon = /^POLYGON\s*\(\s*\((.*)\)\s*\)$/i.exec(text);
  if (polygon) {
    if (/\)\s*,\s*\(/.test(polygon[1]!)) return null;
    const ring = pairs(polygon[1]!);
    const [first, last] = [ring[0], ring.at(-1)];
    if (first && last && first[0] === last[0] && first[1] === last[1]) ring.pop();
    return ring.length >= 3 ? { shape: 'polygon', points: ring, metres: 0 } : null;
  }
  const line = /^LINESTRING\s*\((.*)\)$/i.exec(text);
  if (line) {
    const points = pairs(line[1]!);
    return points.length >= 2 ? { shape: 'corridor', points, metres: f.attributes.polylineDistance ?? 25 } : null;
  }
  return null;
}

/** The draft with its corner `index` moved to `at`. */
export const moveCorner = (d: Draft, index: number, at: [number, number]): Draft => ({
  ...d,
  points: d.points.map((p, i) => (i === index ? at : p)),
});

/** The draft as it is drawn on the map while the user clicks. */
export function draftFeatures(d: Draft): FeatureCollection {
  const features: FeatureCollection['features'] = d.points.map((p) => ({
    type: 'Feature',
    properties: {},
    geometry: { type: 'Point', coordinates: p },
  }));
  if (d.shape === 'circle' && d.points[0])
    features.push({ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [circleRing(d.points[0], d.metres)] } });
  if (d.shape === 'polygon' && d.points.length >= 3)
    features.push({ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [[...d.points, d.points[0]!]] } });
  else if (d.points.length >= 2)
    features.push({
      type: 'Feature',
      properties: { corridor: d.shape === 'corridor', ...(d.shape === 'corridor' ? bandWidth(d.metres, d.points[0]![1]) : {}) },
      geometry: { type: 'LineString', coordinates: d.points },
    });
  return { type: 'FeatureCollection', features };
}
