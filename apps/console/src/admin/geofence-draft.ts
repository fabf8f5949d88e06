import type { FeatureCollection, Geometry } from 'geojson';
import { circleRing } from '../ui/map/wkt';
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

/** The draft as it is drawn on the map while the user clicks. */
export function draftFeatures(d: Draft): FeatureCollection {
  const features: FeatureCollection['features'] = d.points.map((p) => ({ type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: p } }));
  if (d.shape === 'circle' && d.points[0]) features.push({ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [circleRing(d.points[0], d.metres)] } });
  if (d.shape === 'polygon' && d.points.length >= 3) features.push({ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [[...d.points, d.points[0]!]] } });
  else if (d.points.length >= 2) features.push({ type: 'Feature', properties: { corridor: d.shape === 'corridor', ...(d.shape === 'corridor' ? bandWidth(d.metres, d.points[0]![1]) : {}) }, geometry: { type: 'LineString', coordinates: d.points } });
  return { type: 'FeatureCollection', features };
}
