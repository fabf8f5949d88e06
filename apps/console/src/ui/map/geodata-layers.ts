import type { FeatureCollection, LineString, Point } from 'geojson';
import { CORRIDORS, PLACES } from '@corridor/geodata';

/** The corridors of packages/geodata as GeoJSON lines. */
export function corridorLines(): FeatureCollection<LineString> {
  return {
    type: 'FeatureCollection',
    features: CORRIDORS.map((c) => ({
      type: 'Feature',
      properties: { id: c.id, name: c.name },
      geometry: { type: 'LineString', coordinates: c.line.map(([lon, lat]) => [lon, lat]) },
    })),
  };
}

/** Border posts, ports, inland depots, weighbridges and parking as GeoJSON points. */
export function placePoints(): FeatureCollection<Point> {
  return {
    type: 'FeatureCollection',
    features: PLACES.map((p) => ({
      type: 'Feature',
      properties: { id: p.id, name: p.name, kind: p.kind, country: p.country },
      geometry: { type: 'Point', coordinates: [p.center[0], p.center[1]] },
    })),
  };
}
