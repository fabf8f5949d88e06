import { describe, expect, it } from 'vitest';
import type { CircleShape, LineShape, LonLat, PolygonShape } from './fence';
import { METRES_PER_DEGREE } from './geometry';
import { segmentCrosses } from './segment-crossing';

/** degrees of latitude for `m` metres (on the containment test's sphere) */
const deg = (m: number): number => m / METRES_PER_DEGREE;
const ring = (pts: LonLat[]): LonLat[] => [...pts, pts[0]!];

// 1° × 1° square, corners on exact binary fractions so touching is exact
const square: PolygonShape = {
  kind: 'polygon',
  rings: [
    ring([
      [36.5, -2],
      [37.5, -2],
      [37.5, -1],
      [36.5, -1],
    ]),
  ],
};
const circle: CircleShape = { kind: 'circle', center: [36, 0], radius: 1000 };
// an L-shaped corridor 50 m each side
const corridor: LineShape = {
  kind: 'line',
  points: [
    [36, 0],
    [36.1, 0],
    [36.1, 0.1],
  ],
  width: 50,
};

describe('segmentCrosses', () => {
  it('a polygon: crossed straight through and across a corner; missed just beside it', () => {
    expect(segmentCrosses(square, [36, -1.5], [38, -1.5])).toBe(true);
    expect(segmentCrosses(square, [37.4, -0.9], [37.6, -1.1])).toBe(true); // clips the north-east corner
    expect(segmentCrosses(square, [37.45, -0.9], [37.6, -1.06])).toBe(false); // passes outside it
  });

  it('a polygon: touching counts as crossing (a fix on the boundary counts as inside)', () => {
    expect(segmentCrosses(square, [36, -1.5], [37, -0.5])).toBe(true); // through the corner (36.5, -1) only
    expect(segmentCrosses(square, [36, -1], [38, -1])).toBe(true); // along the north edge
    expect(segmentCrosses(square, [36, -1.5], [37, -0.49])).toBe(false); // a hair past the corner
  });

  it('a polygon with a hole: a segment within the hole does not cross; one leaving it does', () => {
    const holed: PolygonShape = {
      kind: 'polygon',
      rings: [
        ring([
          [36, -3],
          [38, -3],
          [38, 0],
          [36, 0],
        ]),
        ...square.rings,
      ],
    };
    expect(segmentCrosses(holed, [36.6, -1.5], [37.4, -1.5])).toBe(false);
    expect(segmentCrosses(holed, [36.6, -1.5], [37.4, -0.5])).toBe(true);
  });

  it('a circle: through the centre, a chord, tangent within a millimetre, and a miss', () => {
    expect(segmentCrosses(circle, [35.98, 0], [36.02, 0])).toBe(true);
    expect(segmentCrosses(circle, [35.98, deg(800)], [36.02, deg(800)])).toBe(true);
    expect(segmentCrosses(circle, [35.98, deg(1000)], [36.02, deg(1000)])).toBe(true); // touching
    expect(segmentCrosses(circle, [35.98, -deg(1000.01)], [36.02, -deg(1000.01)])).toBe(false);
    expect(segmentCrosses(circle, [35.98, deg(1100)], [36.02, deg(1100)])).toBe(false);
    // the segment stops short of the circle although its line would meet it
    expect(segmentCrosses(circle, [35.9, 0], [35.95, 0])).toBe(false);
  });

  it('a corridor: across either leg, past its end, at the width and just beyond it', () => {
    expect(segmentCrosses(corridor, [36.05, -0.01], [36.05, 0.01])).toBe(true);
    expect(segmentCrosses(corridor, [36.09, 0.05], [36.11, 0.05])).toBe(true);
    // beyond the corridor's start (lon 36), 49 m and 51 m west of it
    expect(segmentCrosses(corridor, [36 - deg(49), -0.01], [36 - deg(49), 0.01])).toBe(true);
    expect(segmentCrosses(corridor, [36 - deg(51), -0.01], [36 - deg(51), 0.01])).toBe(false);
    // diagonally across the inside of the L without reaching either leg
    expect(segmentCrosses(corridor, [36.05, 0.05], [36.09, 0.01])).toBe(false);
  });

  it('a segment of zero length crosses nothing', () => {
    expect(segmentCrosses(circle, [36, deg(1200)], [36, deg(1200)])).toBe(false);
  });
});
