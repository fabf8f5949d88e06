import type { LngLatBoundsLike } from 'maplibre-gl';
import type { Geometry, Position } from 'geojson';

/** The box around [lon, lat] points ([[west, south], [east, north]]); null for none. */
export function boundsOf(points: readonly Position[]): LngLatBoundsLike | null {
  if (!points.length) return null;
  let [w, s, e, n] = [180, 90, -180, -90];
  for (const [x, y] of points) {
    w = Math.min(w, x!);
    e = Math.max(e, x!);
    s = Math.min(s, y!);
    n = Math.max(n, y!);
  }
  return [
    [w, s],
    [e, n],
  ];
}

/** Every position of a geometry, flattened. */
function positions(g: Geometry): Position[] {
  switch (g.type) {
    case 'Point':
      return [g.coordinates];
    case 'MultiPoint':
    case 'LineString':
      return g.coordinates;
    case 'MultiLineString':
    case 'Polygon':
      return g.coordinates.flat();
    case 'MultiPolygon':
      return g.coordinates.flat(2);
    case 'GeometryCollection':
      return g.geometries.flatMap(positions);
  }
}

/** The box around a geometry (a fence, a route) for the map to show it whole. */
export const geometryBounds = (g: Geometry): LngLatBoundsLike | null => boundsOf(positions(g));
