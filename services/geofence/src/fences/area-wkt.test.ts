import { describe, it, expect } from 'vitest';
import { formatAreaWkt, parseAreaWkt } from './area-wkt';
import type { AreaResult } from './area-issue';
import type { FenceShape } from './fence';

function shapeOf(result: AreaResult): FenceShape {
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.shape;
}

function codes(result: AreaResult): string[] {
  return result.ok ? [] : result.errors.map((e) => e.code);
}

describe('parseAreaWkt: Traccar areas, latitude first', () => {
  it('reads the circle from the Traccar documentation (lat lon, radius)', () => {
    // example from /work/shared/reference/traccar-api.md §6
    expect(shapeOf(parseAreaWkt('CIRCLE (48.8583 2.2945, 150)'))).toEqual({ kind: 'circle', center: [2.2945, 48.8583], radius: 150 });
  });

  it('accepts lower case, no space before "(" and exponent notation', () => {
    expect(shapeOf(parseAreaWkt('circle(-1.2921 36.8219,1.5e3)'))).toEqual({ kind: 'circle', center: [36.8219, -1.2921], radius: 1500 });
  });

  it('closes an open polygon ring and says so', () => {
    const result = parseAreaWkt('POLYGON ((-1.30 36.80, -1.30 36.82, -1.28 36.82, -1.28 36.80))');
    expect(result.ok && result.shape).toEqual({
      kind: 'polygon',
      rings: [
        [
          [36.8, -1.3],
          [36.82, -1.3],
          [36.82, -1.28],
          [36.8, -1.28],
          [36.8, -1.3],
        ],
      ],
    });
    expect(result.notices).toEqual([expect.objectContaining({ code: 'ring_closed', path: ['area', 0] })]);
  });

  it('keeps a closed ring as is, without notices', () => {
    const result = parseAreaWkt('POLYGON ((-1.30 36.80, -1.30 36.82, -1.28 36.82, -1.30 36.80))');
    expect(result.ok).toBe(true);
    expect(result.notices).toEqual([]);
  });

  it('reads holes as extra rings', () => {
    const shape = shapeOf(
      parseAreaWkt(
        'POLYGON ((-1.30 36.80, -1.30 36.82, -1.28 36.82, -1.28 36.80), (-1.295 36.805, -1.285 36.805, -1.285 36.815, -1.295 36.815))',
      ),
    );
    expect(shape.kind === 'polygon' && shape.rings.map((r) => r.length)).toEqual([5, 5]);
  });

  it('reads a corridor line with the default width of 25 m, or polylineDistance', () => {
    expect(shapeOf(parseAreaWkt('LINESTRING (-4.05 39.66, -3.40 38.56)'))).toEqual({
      kind: 'line',
      points: [
        [39.66, -4.05],
        [38.56, -3.4],
      ],
      width: 25,
    });
    const wide = shapeOf(parseAreaWkt('LINESTRING (-4.05 39.66, -3.40 38.56)', { polylineDistance: 150 }));
    expect(wide.kind === 'line' && wide.width).toBe(150);
  });

  it('round-trips through formatAreaWkt', () => {
    for (const area of [
      'CIRCLE (-1.2921 36.8219, 250.5)',
      'POLYGON ((-1.3 36.8, -1.3 36.82, -1.28 36.82, -1.28 36.8, -1.3 36.8), (-1.295 36.805, -1.285 36.81, -1.295 36.815, -1.295 36.805))',
      'LINESTRING (-4.05 39.66, -3.4 38.56, -1.29 36.82)',
    ]) {
      expect(formatAreaWkt(shapeOf(parseAreaWkt(area)))).toBe(area);
    }
  });

  it('formats the radius with at most one decimal, as Traccar does', () => {
    expect(formatAreaWkt({ kind: 'circle', center: [36.8, -1.3], radius: 150.26 })).toBe('CIRCLE (-1.3 36.8, 150.3)');
  });
});

describe('parseAreaWkt: errors as data', () => {
  it('reports syntax errors with an offset', () => {
    const result = parseAreaWkt('POLYGON ((-1.3 36.8, -1.3 36.82, -1.28)');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors[0]).toMatchObject({ code: 'syntax', path: ['area'] });
    expect(codes(parseAreaWkt('CIRCLE (1 2 3, 4)'))).toEqual(['syntax']);
    expect(codes(parseAreaWkt('CIRCLE (1 2, 4) trailing'))).toEqual(['syntax']);
    expect(codes(parseAreaWkt(''))).toEqual(['syntax']);
  });

  it('rejects unknown shapes', () => {
    expect(codes(parseAreaWkt('MULTIPOLYGON (((1 2, 3 4, 5 6)))'))).toEqual(['unknown_shape']);
  });

  it('rejects a ring with fewer than 3 distinct points, after dropping repeats', () => {
    const result = parseAreaWkt('POLYGON ((-1.3 36.8, -1.3 36.8, -1.28 36.82, -1.3 36.8))');
    expect(codes(result)).toEqual(['too_few_points']);
    expect(result.notices.map((n) => n.code)).toEqual(['duplicate_point_removed']);
  });

  it('rejects a self-intersecting (bow-tie) ring and names the edges', () => {
    const result = parseAreaWkt('POLYGON ((0 36, 0 37, 1 36, 1 37))');
    expect(codes(result)).toContain('self_intersection');
    expect(!result.ok && result.errors[0]?.message).toMatch(/ring 0 edge 1→2 crosses or touches ring 0 edge 3→0/);
  });

  it('rejects a spike that folds back on itself', () => {
    expect(codes(parseAreaWkt('POLYGON ((0 36, 0 37, 1 37, 0 37.5, 1 37))'))).toContain('self_intersection');
  });

  it('rejects collinear rings, holes crossing or outside the outer ring', () => {
    expect(codes(parseAreaWkt('POLYGON ((0 36, 0 37, 0 38))'))).toEqual(['degenerate_ring']);
    expect(codes(parseAreaWkt('POLYGON ((0 36, 0 37, 1 37, 1 36), (0.5 36.5, 0.5 37.5, 0.6 37.5))'))).toContain('rings_intersect');
    expect(codes(parseAreaWkt('POLYGON ((0 36, 0 37, 1 37, 1 36), (2 36.5, 2 36.6, 2.1 36.6))'))).toEqual(['hole_outside_outer']);
  });

  it('checks the radius range 1 m .. 100 km', () => {
    expect(codes(parseAreaWkt('CIRCLE (-1.29 36.82, 0.5)'))).toEqual(['radius_out_of_range']);
    expect(codes(parseAreaWkt('CIRCLE (-1.29 36.82, 100001)'))).toEqual(['radius_out_of_range']);
    expect(parseAreaWkt('CIRCLE (-1.29 36.82, 100000)').ok).toBe(true);
    expect(parseAreaWkt('CIRCLE (-1.29 36.82, 1)').ok).toBe(true);
  });

  it('checks coordinate ranges and hints at the latitude-first order', () => {
    const result = parseAreaWkt('CIRCLE (136.82 -1.29, 100)');
    expect(codes(result)).toEqual(['coordinate_out_of_range']);
    expect(!result.ok && result.errors[0]?.message).toMatch(/latitude first/);
    expect(codes(parseAreaWkt('LINESTRING (1 36, 2 190)'))).toEqual(['coordinate_out_of_range']);
  });

  it('points at the offending polygon point by ring and index', () => {
    const result = parseAreaWkt('POLYGON ((0 36, 0 37, 1 37), (0.2 36.2, 95 36.3, 0.3 36.3))');
    expect(!result.ok && result.errors[0]?.path).toEqual(['area', 1, 1]);
  });

  it('checks lines: at least 2 points, polylineDistance 1 m .. 10 km and numeric', () => {
    expect(codes(parseAreaWkt('LINESTRING (-1.29 36.82)'))).toEqual(['too_few_points']);
    expect(codes(parseAreaWkt('LINESTRING (-1.29 36.82, -1.29 36.82)'))).toEqual(['too_few_points']);
    expect(codes(parseAreaWkt('LINESTRING (-1.29 36.82, -1.3 36.9)', { polylineDistance: 0 }))).toEqual(['polyline_distance_out_of_range']);
    expect(codes(parseAreaWkt('LINESTRING (-1.29 36.82, -1.3 36.9)', { polylineDistance: 20_000 }))).toEqual([
      'polyline_distance_out_of_range',
    ]);
    const bad = parseAreaWkt('LINESTRING (-1.29 36.82, -1.3 36.9)', { polylineDistance: '25' });
    expect(!bad.ok && bad.errors[0]).toMatchObject({ code: 'invalid_number', path: ['attributes', 'polylineDistance'] });
  });

  // Policy: fences crossing the ±180° meridian are rejected (East Africa never needs them).
  it('rejects fences that cross the antimeridian', () => {
    expect(codes(parseAreaWkt('POLYGON ((-17 179.5, -17 -179.5, -18 -179.5, -18 179.5))'))).toEqual(['crosses_antimeridian']);
    expect(codes(parseAreaWkt('LINESTRING (-17 179.9, -17 -179.9)'))).toEqual(['crosses_antimeridian']);
    expect(codes(parseAreaWkt('CIRCLE (-17 179.99, 5000)'))).toEqual(['crosses_antimeridian']);
    expect(parseAreaWkt('CIRCLE (-17 179.9, 5000)').ok).toBe(true);
  });

  it('rejects circles reaching a pole', () => {
    expect(codes(parseAreaWkt('CIRCLE (89.5 10, 1000)'))).toEqual(['reaches_pole']);
  });
});
