import { describe, expect, it } from 'vitest';
import { seededRandom } from '../detectors/seeded-random';
import type { LonLat } from './route-definition';
import { buildRouteIndex } from './route-index';
import { turfDistanceToLineM } from './turf-reference';

/** Back-and-forth rows 400 m apart, then a figure of eight that crosses itself: many near-but-far-in-index segments. */
function trickyLine(): LonLat[] {
  const rnd = seededRandom(7);
  const pts: LonLat[] = [];
  const rowGap = 400 / 111_320;
  for (let row = 0; row < 6; row++) {
    const lat = -1.2 + row * rowGap;
    const xs = Array.from({ length: 25 }, (_, i) => 36.8 + i * 0.002 + rnd.between(-0.0004, 0.0004));
    for (const lon of row % 2 === 0 ? xs : xs.reverse()) pts.push([lon, lat + rnd.between(-0.0003, 0.0003)]);
  }
  const [cx, cy] = [36.85, -1.25];
  for (let i = 0; i <= 200; i++) {
    const t = (i / 200) * 2 * Math.PI;
    pts.push([cx + 0.03 * Math.sin(t), cy + 0.015 * Math.sin(2 * t)]);
  }
  return pts;
}

describe('RouteIndex.match', () => {
  const line = trickyLine();
  const index = buildRouteIndex({ id: 'tricky', line, widthM: 200, speedLimitKmh: 80, expectedDurationMinutes: 60 });

  it('always returns the segment, distance and progress a brute-force scan returns', () => {
    const rnd = seededRandom(42);
    for (let n = 0; n < 20_000; n++) {
      const lon = rnd.between(36.75, 36.9);
      const lat = rnd.between(-1.3, -1.15);
      const expected = index.matchBruteForce(lon, lat);
      const hints = [
        undefined,
        rnd.between(0, index.segmentCount),
        expected.segmentIndex,
        expected.segmentIndex + Math.round(rnd.gaussian(10)),
      ];
      for (const hint of hints) expect(index.match(lon, lat, hint)).toEqual(expected);
    }
  });

  it('finds the right segment for points far outside the route (grown queries and full scan)', () => {
    const rnd = seededRandom(3);
    for (let n = 0; n < 500; n++) {
      const lon = rnd.between(30, 42);
      const lat = rnd.between(-8, 4);
      expect(index.match(lon, lat, rnd.between(0, index.segmentCount))).toEqual(index.matchBruteForce(lon, lat));
    }
    expect(index.stats.grownIndex + index.stats.fullScan).toBeGreaterThan(0);
  });

  it('answers points near the previous match from the hint window', () => {
    const before = index.stats.hint;
    const p = index.pointAt(1000, 20);
    const hint = index.match(p[0], p[1]).segmentIndex;
    const q = index.pointAt(1050, -15);
    index.match(q[0], q[1], hint);
    expect(index.stats.hint).toBe(before + 1);
  });

  // turf measures on a sphere (R 6371 km), cheap-ruler on the WGS84 ellipsoid: near the equator the
  // north-south scale differs by about 0.6 %, so the two agree to within 1 %.
  it('agrees with turf geodesic distance near the line', () => {
    const rnd = seededRandom(11);
    for (let n = 0; n < 200; n++) {
      const [lon, lat] = index.pointAt(rnd.between(0, index.lengthM), rnd.between(-3000, 3000));
      const ours = index.match(lon, lat).distanceM;
      const turf = turfDistanceToLineM(line, lon, lat);
      expect(Math.abs(ours - turf)).toBeLessThan(Math.max(2, turf * 0.01));
    }
  });

  it('measures progress along the line and the lateral offset of pointAt', () => {
    expect(index.lengthM).toBeCloseTo(index.ruler.lineDistance(line), 3);
    const straight = buildRouteIndex({
      id: 'straight',
      line: [
        [36, -1],
        [37, -1],
      ],
      widthM: 100,
      speedLimitKmh: 60,
      expectedDurationMinutes: 90,
    });
    const [lon, lat] = straight.pointAt(40_000, -750);
    const m = straight.match(lon, lat);
    expect(m.alongM).toBeCloseTo(40_000, 6);
    expect(m.distanceM).toBeCloseTo(750, 6);
    expect(lat).toBeLessThan(-1);
  });
});

describe('buildRouteIndex', () => {
  it('concatenates legs and keeps per-segment speed limits', () => {
    const index = buildRouteIndex({
      id: 'legs',
      legs: [
        [
          [39.66, -4.04],
          [39.0, -3.5],
        ],
        [
          [39.0, -3.5],
          [38.5, -3.0],
          [37.0, -2.0],
        ],
      ],
      widthM: 500,
      speedLimitKmh: [80, 50, 100],
      expectedDurationMinutes: 600,
    });
    expect(index.coordinates).toHaveLength(4);
    expect(index.match(38.9, -3.4).speedLimitKmh).toBe(50);
    expect(index.match(37.5, -2.3).speedLimitKmh).toBe(100);
    expect(index.origin).toEqual({ kind: 'origin', center: [39.66, -4.04], radiusM: 1000 });
    expect(index.destination.center).toEqual([37.0, -2.0]);
  });

  it('rejects a speed-limit list that does not match the segments', () => {
    expect(() =>
      buildRouteIndex({
        id: 'bad',
        line: [
          [36, -1],
          [37, -1],
          [38, -1],
        ],
        widthM: 100,
        speedLimitKmh: [80],
        expectedDurationMinutes: 10,
      }),
    ).toThrow(/1 speed limits for 2 segments/);
  });

  it('uses given origin, destination and approved areas', () => {
    const index = buildRouteIndex({
      id: 'areas',
      line: [
        [36, -1],
        [37, -1],
      ],
      widthM: 100,
      speedLimitKmh: 80,
      expectedDurationMinutes: 90,
      stopAreas: [
        { kind: 'origin', center: [36, -1], radiusM: 3000 },
        { kind: 'yard', center: [36.5, -1], radiusM: 500, name: 'Mid yard' },
      ],
    });
    expect(index.origin.radiusM).toBe(3000);
    expect(index.stopAreaAt(36.501, -1)?.name).toBe('Mid yard');
    expect(index.stopAreaAt(36.6, -1)).toBeUndefined();
    expect(index.stopAreaAt(36.02, -1)?.kind).toBe('origin');
  });
});
