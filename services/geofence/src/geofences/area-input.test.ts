import { describe, expect, it } from 'vitest';
import { GeofenceInput, type GeofenceInputBody } from '@corridor/contracts';
import { AppError } from '@corridor/platform';
import { resolveArea } from './area-input';

const input = (body: Omit<GeofenceInputBody, 'name'>) => GeofenceInput.parse({ name: 'fence', ...body });

function issues(body: Omit<GeofenceInputBody, 'name'>): unknown[] {
  try {
    resolveArea(input(body));
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('VALIDATION_FAILED');
    return (err as AppError).details as unknown[];
  }
  throw new Error('expected a validation error');
}

describe('resolveArea', () => {
  it("normalises WKT to Traccar's form and keeps a line's width as polylineDistance", () => {
    expect(resolveArea(input({ area: 'circle(-1.5   36.8,100.04)' })).area).toBe('CIRCLE (-1.5 36.8, 100)');
    const line = resolveArea(input({ area: 'LINESTRING (-1 36, -1.1 36.1)', attributes: { color: 'red' } }));
    expect(line.attributes).toEqual({ color: 'red', polylineDistance: 25 });
    expect(resolveArea(input({ area: 'POLYGON ((0 36, 0 36.1, 0.1 36.1))' })).area).toBe('POLYGON ((0 36, 0 36.1, 0.1 36.1, 0 36))');
  });

  it('reads GeoJSON (bare or Feature) in [lon, lat] order, with the radius and width from the body or the Feature', () => {
    expect(resolveArea(input({ geometry: { type: 'Point', coordinates: [36.8, -1.5] }, radius: 50 })).area).toBe('CIRCLE (-1.5 36.8, 50)');
    const feature = { type: 'Feature', properties: { radius: 75 }, geometry: { type: 'Point', coordinates: [36.8, -1.5] } };
    expect(resolveArea(input({ geometry: feature })).area).toBe('CIRCLE (-1.5 36.8, 75)');
    const corridor = {
      type: 'Feature',
      properties: { polylineDistance: 40 },
      geometry: {
        type: 'LineString',
        coordinates: [
          [36, -1],
          [36.1, -1.1],
        ],
      },
    };
    expect(resolveArea(input({ geometry: corridor })).attributes.polylineDistance).toBe(40);
  });

  it('points each issue at the body field the caller wrote', () => {
    expect(issues({ geometry: { type: 'Point', coordinates: [36.8, -1.5] }, radius: 0 })).toEqual([
      expect.objectContaining({ in: 'body', path: 'radius', code: 'radius_out_of_range' }),
    ]);
    expect(issues({ geometry: { type: 'Point', coordinates: [36.8, -1.5] } })).toEqual([
      expect.objectContaining({ path: 'radius', code: 'invalid_number' }),
    ]);
    expect(
      issues({ geometry: { type: 'Feature', properties: { radius: 0 }, geometry: { type: 'Point', coordinates: [36.8, -1.5] } } }),
    ).toEqual([expect.objectContaining({ path: 'geometry.properties.radius', code: 'radius_out_of_range' })]);
    expect(
      issues({
        geometry: {
          type: 'LineString',
          coordinates: [
            [36, -1],
            [36.1, -1.1],
          ],
        },
        attributes: { polylineDistance: 0 },
      }),
    ).toEqual([expect.objectContaining({ path: 'attributes.polylineDistance', code: 'polyline_distance_out_of_range' })]);
    expect(issues({ area: 'LINESTRING (-1 36, -1.1 36.1)', attributes: { polylineDistance: 20_000 } })).toEqual([
      expect.objectContaining({ path: 'attributes.polylineDistance', code: 'polyline_distance_out_of_range' }),
    ]);
    expect(
      issues({
        geometry: {
          type: 'Feature',
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [36, -1],
                [36.1, -1],
                [36.1, -1.1],
              ],
            ],
          },
        },
      }),
    ).toEqual([expect.objectContaining({ path: 'geometry.geometry.coordinates.0', code: 'unclosed_ring' })]);
  });

  it('rejects an open GeoJSON ring (RFC 7946) but closes an open Traccar WKT ring', () => {
    expect(
      issues({
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [36, -1],
              [36.1, -1],
              [36.1, -1.1],
            ],
          ],
        },
      }),
    ).toEqual([expect.objectContaining({ path: 'geometry.coordinates.0', code: 'unclosed_ring' })]);
    expect(resolveArea(input({ area: 'POLYGON ((-1 36, -1 36.1, -1.1 36.1))' })).shape).toMatchObject({ kind: 'polygon' });
  });
});
