import { describe, expect, it } from 'vitest';
import { bearingDegrees, distanceMetres, offsetMetres } from './geo-math';
import { measureLine, pointAlong, projectOnLine } from './polyline';
import type { LonLat } from './types';

// An L-shaped line near the equator: 0.1° east (≈11.1 km), then 0.1° north.
const line: LonLat[] = [
  [36, 0],
  [36.1, 0],
  [36.1, 0.1],
];
const m = measureLine(line);

describe('polyline', () => {
  it('measures lengths with the haversine distance', () => {
    // 0.1° of longitude on the equator = 2πR/3600
    expect(m.lengthMetres).toBeCloseTo(2 * ((2 * Math.PI * 6_371_008.8) / 3600), -1);
    expect(m.cumulative).toHaveLength(3);
  });

  it('finds points by distance along the line, with the segment bearing', () => {
    const half = m.cumulative[1]! / 2;
    const p = pointAlong(m, half);
    expect(p.coord[0]).toBeCloseTo(36.05, 6);
    expect(p.segment).toBe(0);
    expect(p.bearing).toBeCloseTo(90, 3);
    const q = pointAlong(m, m.cumulative[1]! + 1000);
    expect(q.segment).toBe(1);
    expect(q.bearing).toBeCloseTo(0, 3);
    expect(pointAlong(m, -5).coord).toEqual(line[0]);
    expect(pointAlong(m, 1e9).coord).toEqual(line[2]);
  });

  it('projects a point beside the line onto it', () => {
    const beside = offsetMetres([36.05, 0], 500, 180);
    const pr = projectOnLine(m, beside);
    expect(pr.offset).toBeCloseTo(500, 0);
    expect(pr.along).toBeCloseTo(m.cumulative[1]! / 2, -1);
    expect(distanceMetres(pr.coord, [36.05, 0])).toBeLessThan(1);
  });

  it('computes bearings in all quadrants', () => {
    expect(bearingDegrees([36, 0], [36, 1])).toBeCloseTo(0, 6);
    expect(bearingDegrees([36, 0], [35, 0])).toBeCloseTo(270, 6);
    expect(bearingDegrees([36, 0], [36, -1])).toBeCloseTo(180, 6);
  });
});
