import { describe, it, expect } from 'vitest';
import { cellToLatLng, getHexagonEdgeLengthAvg, latLngToCell } from 'h3-js';
import { CELL_REACH_FACTOR, approximateAreaM2, coverFence } from './h3-fence-index';
import { haversineMeters } from './geometry';
import { prepareFence } from './prepared-fence';
import { EAST_AFRICA, pointIn, seededRandom } from './synthetic-fences';

describe('H3 cell reach (the margin that lets interior cells skip the exact test)', () => {
  it('every fix lies within CELL_REACH_FACTOR × average edge of its cell centre, across East Africa', () => {
    const rng = seededRandom(7);
    let worst = 0;
    for (const res of [6, 7, 8, 9, 10]) {
      const edge = getHexagonEdgeLengthAvg(res, 'm');
      for (let i = 0; i < 20_000; i++) {
        const [lon, lat] = pointIn(rng, EAST_AFRICA);
        const [clat, clon] = cellToLatLng(latLngToCell(lat, lon, res));
        worst = Math.max(worst, haversineMeters(lon, lat, clon, clat) / edge);
      }
    }
    expect(worst).toBeGreaterThan(0.8); // the sample does reach cell corners
    expect(worst).toBeLessThan(CELL_REACH_FACTOR / 1.1);
  });
});

describe('coverFence', () => {
  it('splits a 3 km circle into interior and boundary cells whose centres are all inside resp. near the edge', () => {
    const fence = prepareFence({ id: 'c', shape: { kind: 'circle', center: [36.82, -1.29], radius: 3000 } });
    const { interior, boundary } = coverFence(fence, 8);
    expect(interior.length).toBeGreaterThan(10);
    expect(boundary.length).toBeGreaterThan(10);
    for (const cell of interior) {
      const [lat, lon] = cellToLatLng(cell);
      expect(haversineMeters(36.82, -1.29, lon, lat)).toBeLessThan(3000 - getHexagonEdgeLengthAvg(8, 'm'));
    }
  });

  it('estimates areas used to pick resolutions', () => {
    expect(approximateAreaM2({ kind: 'circle', center: [36.8, -1.3], radius: 1000 })).toBeCloseTo(Math.PI * 1e6, 0);
    const square = approximateAreaM2({
      kind: 'polygon',
      rings: [
        [
          [36.8, -1.3],
          [36.81, -1.3],
          [36.81, -1.29],
          [36.8, -1.29],
          [36.8, -1.3],
        ],
      ],
    });
    expect(square / 1e6).toBeCloseTo(1.239, 2); // 0.01° × 0.01° near the equator ≈ 1.113 km × 1.113 km
  });
});
