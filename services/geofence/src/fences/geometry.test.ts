import { describe, it, expect } from 'vitest';
import type { FenceShape, LonLat } from './fence';
import {
  EARTH_RADIUS_M,
  METRES_PER_DEGREE,
  containsPoint,
  distanceOutsideMeters,
  haversineMeters,
  metresPerDegreeLon,
  shapeBBox,
  signedDistanceMeters,
} from './geometry';

const RAD = Math.PI / 180;

/** Great-circle destination on Traccar's sphere (independent of the code under test). */
function destination([lon, lat]: LonLat, meters: number, bearingDeg: number): LonLat {
  const d = meters / EARTH_RADIUS_M;
  const b = bearingDeg * RAD;
  const p1 = lat * RAD;
  const p2 = Math.asin(Math.sin(p1) * Math.cos(d) + Math.cos(p1) * Math.sin(d) * Math.cos(b));
  const l2 = lon * RAD + Math.atan2(Math.sin(b) * Math.sin(d) * Math.cos(p1), Math.cos(d) - Math.sin(p1) * Math.sin(p2));
  return [l2 / RAD, p2 / RAD];
}

const NAIROBI: LonLat = [36.8219, -1.2921];

describe('haversine on R = 6,378,137 m', () => {
  it('gives 1° of latitude as R·π/180 and matches a known city pair', () => {
    expect(haversineMeters(36.8, 0, 36.8, 1)).toBeCloseTo(METRES_PER_DEGREE, 6);
    // Nairobi → Mombasa (39.6682 E, 4.0435 S): about 440 km as the crow flies
    expect(haversineMeters(36.8219, -1.2921, 39.6682, -4.0435) / 1000).toBeCloseTo(440, 0);
  });
});

describe('circle: boundary counts as inside', () => {
  const circle: FenceShape = { kind: 'circle', center: NAIROBI, radius: 500 };
  for (const bearing of [0, 45, 90, 200, 315]) {
    it(`on, 1 m inside and 1 m outside at bearing ${bearing}°`, () => {
      expect(containsPoint(circle, ...destination(NAIROBI, 500, bearing))).toBe(true);
      expect(containsPoint(circle, ...destination(NAIROBI, 499, bearing))).toBe(true);
      expect(containsPoint(circle, ...destination(NAIROBI, 501, bearing))).toBe(false);
    });
  }

  it('holds for a 100 km circle at 11° S to the metre', () => {
    const big: FenceShape = { kind: 'circle', center: [35, -11], radius: 100_000 };
    expect(containsPoint(big, ...destination([35, -11], 99_999, 30))).toBe(true);
    expect(containsPoint(big, ...destination([35, -11], 100_001, 30))).toBe(false);
  });

  it('measures the distance outside', () => {
    expect(distanceOutsideMeters(circle, ...destination(NAIROBI, 650, 10))).toBeCloseTo(150, 3);
    expect(distanceOutsideMeters(circle, ...NAIROBI)).toBe(0);
  });
});

describe('polygon with a hole: ray casting in lon/lat, edges and hole edges count as inside', () => {
  // outer 36.80..36.82 E × 1.30..1.28 S, hole 36.805..36.815 E × 1.295..1.285 S
  const polygon: FenceShape = {
    kind: 'polygon',
    rings: [
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
  };
  const m = 1 / metresPerDegreeLon(-1.29); // 1 m of longitude here
  const mLat = 1 / METRES_PER_DEGREE;

  it('on the outer edge, at a vertex and on the hole edge', () => {
    expect(containsPoint(polygon, 36.8, -1.29)).toBe(true);
    expect(containsPoint(polygon, 36.82, -1.3)).toBe(true);
    expect(containsPoint(polygon, 36.81, -1.28)).toBe(true);
    expect(containsPoint(polygon, 36.805, -1.29)).toBe(true);
    expect(containsPoint(polygon, 36.81, -1.285)).toBe(true);
  });

  it('1 m inside and 1 m outside the outer ring (west and north edges)', () => {
    expect(containsPoint(polygon, 36.8 + m, -1.29)).toBe(true);
    expect(containsPoint(polygon, 36.8 - m, -1.29)).toBe(false);
    expect(containsPoint(polygon, 36.81, -1.28 - mLat)).toBe(true);
    expect(containsPoint(polygon, 36.81, -1.28 + mLat)).toBe(false);
  });

  it('1 m into the hole is outside, 1 m out of the hole is inside', () => {
    expect(containsPoint(polygon, 36.805 + m, -1.29)).toBe(false);
    expect(containsPoint(polygon, 36.805 - m, -1.29)).toBe(true);
    expect(containsPoint(polygon, 36.81, -1.29)).toBe(false);
  });

  it('1 m off a sloping edge', () => {
    const triangle: FenceShape = {
      kind: 'polygon',
      rings: [
        [
          [36.8, -1.3],
          [36.82, -1.3],
          [36.8, -1.28],
          [36.8, -1.3],
        ],
      ],
    };
    // midpoint of the hypotenuse, pushed 1 m along its normal (the NE diagonal, in metres)
    const mid: LonLat = [36.81, -1.29];
    const nx = metresPerDegreeLon(-1.29);
    const ny = METRES_PER_DEGREE;
    const len = Math.hypot(nx, ny);
    const step = (s: number): LonLat => [mid[0] + (s * ny) / len / nx, mid[1] + (s * nx) / len / ny];
    expect(containsPoint(triangle, ...step(-1))).toBe(true);
    expect(containsPoint(triangle, ...step(1))).toBe(false);
    expect(signedDistanceMeters(triangle, ...step(1))).toBeCloseTo(1, 2);
  });

  it('gives the distance outside and the depth inside', () => {
    expect(distanceOutsideMeters(polygon, 36.8 - 100 * m, -1.29)).toBeCloseTo(100, 1);
    expect(signedDistanceMeters(polygon, 36.8 + 20 * m, -1.29)).toBeCloseTo(-20, 1);
    expect(distanceOutsideMeters(polygon, 36.81, -1.29)).toBeCloseTo(556.6, 0); // hole centre to hole edge
  });
});

describe('corridor line: distance to any segment ≤ width', () => {
  const line: FenceShape = {
    kind: 'line',
    points: [
      [36.8, -1.3],
      [36.82, -1.3],
      [36.84, -1.28],
    ],
    width: 25,
  };

  it('on, 1 m inside and 1 m outside the side of a segment', () => {
    const mid: LonLat = [36.81, -1.3];
    expect(containsPoint(line, ...destination(mid, 25, 0))).toBe(true);
    expect(containsPoint(line, ...destination(mid, 24, 0))).toBe(true);
    expect(containsPoint(line, ...destination(mid, 26, 0))).toBe(false);
    expect(containsPoint(line, ...destination(mid, 26, 180))).toBe(false);
  });

  it('has round caps at the ends', () => {
    expect(containsPoint(line, ...destination([36.8, -1.3], 24, 250))).toBe(true);
    expect(containsPoint(line, ...destination([36.8, -1.3], 26, 250))).toBe(false);
  });

  it('agrees with a dense haversine sampling of the line within 0.1 %', () => {
    const fix: LonLat = [36.835, -1.295];
    let brute = Infinity;
    for (let s = 0; s < line.points.length - 1; s++) {
      const [a, b] = [line.points[s] as LonLat, line.points[s + 1] as LonLat];
      for (let i = 0; i <= 20_000; i++) {
        const t = i / 20_000;
        brute = Math.min(brute, haversineMeters(fix[0], fix[1], a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])));
      }
    }
    expect(Math.abs(signedDistanceMeters(line, ...fix) + 25 - brute) / brute).toBeLessThan(0.001);
  });
});

describe('shapeBBox holds the whole fence', () => {
  it('for a 100 km circle, every boundary point lies in the box', () => {
    const circle: FenceShape = { kind: 'circle', center: [30, -11.5], radius: 100_000 };
    const [w, s, e, n] = shapeBBox(circle);
    for (let b = 0; b < 360; b += 1) {
      const [lon, lat] = destination([30, -11.5], 100_000, b);
      expect(lon >= w && lon <= e && lat >= s && lat <= n).toBe(true);
    }
  });
});
