import { describe, expect, it } from 'vitest';
import { circleRing, wktToGeometry } from './wkt';

describe("Traccar's latitude-first WKT on the map", () => {
  it('reads a polygon with its latitude first and turns it round for GeoJSON', () => {
    const g = wktToGeometry('POLYGON ((-4.05 39.6, -4.06 39.7, -4.1 39.65, -4.05 39.6))');
    expect(g?.geometry).toEqual({
      type: 'Polygon',
      coordinates: [
        [
          [39.6, -4.05],
          [39.7, -4.06],
          [39.65, -4.1],
          [39.6, -4.05],
        ],
      ],
    });
  });

  it('draws a circle as a closed ring at its radius', () => {
    const g = wktToGeometry('CIRCLE (-1.2921 36.8219, 1000)');
    expect(g?.geometry.type).toBe('Polygon');
    const ring = circleRing([36.8219, -1.2921], 1000);
    expect(ring[0]).toEqual(ring[ring.length - 1]);
    const north = ring[0]!;
    expect((north[1] - -1.2921) * 111_195).toBeCloseTo(1000, -1);
  });

  it('keeps a corridor line and refuses what it cannot read', () => {
    expect(wktToGeometry('LINESTRING (-3.9 39.6, -3.8 39.5)')?.geometry).toEqual({
      type: 'LineString',
      coordinates: [
        [39.6, -3.9],
        [39.5, -3.8],
      ],
    });
    expect(wktToGeometry('MULTIPOINT (1 2)')).toBeNull();
  });
});
