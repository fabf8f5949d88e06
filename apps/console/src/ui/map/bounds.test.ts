import { describe, expect, it } from 'vitest';
import { boundsOf, geometryBounds } from './bounds';

describe('bounds', () => {
  it('boxes points west-south to east-north, and none as null', () => {
    expect(
      boundsOf([
        [37, -2],
        [36.5, -1.2],
        [37.4, -1.9],
      ]),
    ).toEqual([
      [36.5, -2],
      [37.4, -1.2],
    ]);
    expect(boundsOf([])).toBeNull();
  });

  it('boxes every kind of geometry by all its positions', () => {
    expect(geometryBounds({ type: 'Point', coordinates: [39.66, -4.05] })).toEqual([
      [39.66, -4.05],
      [39.66, -4.05],
    ]);
    expect(
      geometryBounds({
        type: 'LineString',
        coordinates: [
          [36.8, -1.3],
          [39.6, -4.0],
        ],
      }),
    ).toEqual([
      [36.8, -4.0],
      [39.6, -1.3],
    ]);
    const ring = [
      [36, -1],
      [37, -1],
      [37, 0],
      [36, -1],
    ];
    expect(geometryBounds({ type: 'Polygon', coordinates: [ring] })).toEqual([
      [36, -1],
      [37, 0],
    ]);
    expect(
      geometryBounds({
        type: 'MultiPolygon',
        coordinates: [
          [ring],
          [
            [
              [30, -5],
              [31, -5],
              [31, -4],
              [30, -5],
            ],
          ],
        ],
      }),
    ).toEqual([
      [30, -5],
      [37, 0],
    ]);
    expect(
      geometryBounds({
        type: 'GeometryCollection',
        geometries: [
          { type: 'Point', coordinates: [29, 2] },
          { type: 'Point', coordinates: [41, -11] },
        ],
      }),
    ).toEqual([
      [29, -11],
      [41, 2],
    ]);
  });
});
