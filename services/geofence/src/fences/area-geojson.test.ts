import { describe, it, expect } from 'vitest';
import { parseAreaGeoJson } from './area-geojson';
import { parseAreaWkt } from './area-wkt';

describe('parseAreaGeoJson', () => {
  it('gives the same shape as the equivalent WKT polygon with a hole', () => {
    const geo = parseAreaGeoJson({
      type: 'Polygon',
      coordinates: [
        [
          [36.8, -1.3],
          [36.82, -1.3],
          [36.82, -1.28],
          [36.8, -1.28],
          [36.8, -1.3],
        ],
        [
          [36.805, -1.295],
          [36.805, -1.285],
          [36.815, -1.285],
          [36.815, -1.295],
          [36.805, -1.295],
        ],
      ],
    });
    const wkt = parseAreaWkt(
      'POLYGON ((-1.3 36.8, -1.3 36.82, -1.28 36.82, -1.28 36.8), (-1.295 36.805, -1.285 36.805, -1.285 36.815, -1.295 36.815))',
    );
    expect(geo.ok && geo.shape).toEqual(wkt.ok && wkt.shape);
    expect(geo.notices).toEqual([]);
  });

  it('reads Point + radius as a circle, from options or Feature properties', () => {
    expect(parseAreaGeoJson({ type: 'Point', coordinates: [36.82, -1.29] }, { radius: 300 })).toMatchObject({
      ok: true,
      shape: { kind: 'circle', center: [36.82, -1.29], radius: 300 },
    });
    expect(
      parseAreaGeoJson({
        type: 'Feature',
        properties: { radius: 120 },
        geometry: { type: 'Point', coordinates: [36.82, -1.29] },
      }),
    ).toMatchObject({ ok: true, shape: { kind: 'circle', radius: 120 } });
  });

  it('reads a LineString as a corridor, 25 m wide unless polylineDistance is given', () => {
    const line = {
      type: 'LineString',
      coordinates: [
        [39.66, -4.05],
        [38.56, -3.4],
      ],
    };
    expect(parseAreaGeoJson(line)).toMatchObject({ ok: true, shape: { kind: 'line', width: 25 } });
    expect(parseAreaGeoJson(line, { polylineDistance: 60 })).toMatchObject({ ok: true, shape: { kind: 'line', width: 60 } });
  });

  it('reports problems with GeoJSON paths', () => {
    expect(parseAreaGeoJson({ type: 'MultiPolygon', coordinates: [] })).toMatchObject({
      ok: false,
      errors: [{ code: 'unsupported_geometry', path: ['type'] }],
    });
    expect(parseAreaGeoJson({ type: 'Point', coordinates: [36.82, -1.29] })).toMatchObject({
      ok: false,
      errors: [{ code: 'invalid_number', path: ['properties', 'radius'] }],
    });
    expect(
      parseAreaGeoJson({
        type: 'Polygon',
        coordinates: [
          [
            [36.8, -1.3],
            [36.82, 'x'],
          ],
        ],
      }),
    ).toMatchObject({
      ok: false,
      errors: [{ code: 'syntax', path: ['coordinates', 0, 1] }],
    });
    expect(
      parseAreaGeoJson({
        type: 'Feature',
        properties: {},
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [36, 0],
              [37, 1],
              [36, 1],
              [37, 0],
            ],
          ],
        },
      }),
    ).toMatchObject({ ok: false, errors: [{ code: 'self_intersection', path: ['geometry', 'coordinates', 0, 0] }] });
    expect(parseAreaGeoJson('POLYGON')).toMatchObject({ ok: false, errors: [{ code: 'syntax' }] });
  });

  it('does not hint at latitude-first order for GeoJSON', () => {
    const result = parseAreaGeoJson({ type: 'Point', coordinates: [36.82, 91] }, { radius: 10 });
    expect(!result.ok && result.errors[0]?.message).not.toMatch(/latitude first/);
  });
});
