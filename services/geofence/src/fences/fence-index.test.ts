import { describe, it, expect } from 'vitest';
import type { BBox, Fence, LonLat } from './fence';
import { NaiveFenceIndex, type FenceIndex } from './fence-index';
import { BBoxFenceIndex } from './bbox-fence-index';
import { H3FenceIndex } from './h3-fence-index';
import { pointsBBox, shapeBBox, signedDistanceMeters } from './geometry';
import { TurfBBoxFenceIndex } from './turf-fence-index';
import { pointIn, seededRandom, syntheticCircle, syntheticLine, syntheticPolygon, type Random } from './synthetic-fences';

// a 0.4° square around Nairobi, crowded so that fences overlap and many fixes fall inside
const REGION: BBox = [36.6, -1.5, 37.0, -1.1];
const POINTS = 100_000;

/** The box of the fence, or of one random segment (grown by twice the width) for a corridor line. */
function focusBox(rng: Random, fence: Fence): BBox {
  const { shape } = fence;
  if (shape.kind !== 'line') return shapeBBox(shape);
  const i = Math.floor(rng() * (shape.points.length - 1));
  return pointsBBox([shape.points[i] as LonLat, shape.points[i + 1] as LonLat], shape.width * 2);
}

/** Half uniform over the region, half uniform in the box of a random fence (dense near boundaries). */
function fixes(rng: Random, fences: Fence[], n: number): LonLat[] {
  const out: LonLat[] = [];
  for (let i = 0; i < n; i++) {
    const fence = fences[Math.floor(rng() * fences.length)] as Fence;
    out.push(i % 2 === 0 ? pointIn(rng, REGION) : pointIn(rng, focusBox(rng, fence)));
  }
  return out;
}

function agree(fences: Fence[], seed: number): { inside: number; total: number } {
  const indexes: [string, FenceIndex][] = [
    ['naive', new NaiveFenceIndex()],
    ['bbox', new BBoxFenceIndex()],
    ['h3', new H3FenceIndex()],
  ];
  for (const [, index] of indexes) index.load(fences);
  let inside = 0;
  const mismatches: string[] = [];
  for (const [lon, lat] of fixes(seededRandom(seed), fences, POINTS)) {
    const [reference, ...others] = indexes.map(([, index]) => index.containing(lon, lat).sort().join(','));
    if (reference) inside++;
    others.forEach((got, k) => {
      if (got !== reference && mismatches.length < 5) {
        mismatches.push(`${indexes[k + 1]?.[0]} at ${lon},${lat}: ${got} vs naive ${reference}`);
      }
    });
  }
  expect(mismatches).toEqual([]);
  return { inside, total: POINTS };
}

describe('fence indexes agree with the naive exact test on 100,000 seeded points per shape', () => {
  it('circles (50 m – 3 km)', () => {
    const rng = seededRandom(1);
    const fences = Array.from({ length: 60 }, (_, i) => syntheticCircle(`c${i}`, rng, REGION, [50, 3000]));
    const { inside } = agree(fences, 11);
    expect(inside).toBeGreaterThan(POINTS * 0.3);
  });

  it('polygons with holes (5–40 vertices)', () => {
    const rng = seededRandom(2);
    const fences = Array.from({ length: 60 }, (_, i) => syntheticPolygon(`p${i}`, rng, REGION, [100, 4000], [5, 40], i % 2 === 0));
    const { inside } = agree(fences, 12);
    expect(inside).toBeGreaterThan(POINTS * 0.2);
  });

  it('corridor lines (10–100 m wide)', () => {
    const rng = seededRandom(3);
    const fences = Array.from({ length: 40 }, (_, i) => syntheticLine(`l${i}`, rng, REGION, 12, [200, 2000], [10, 100]));
    const { inside } = agree(fences, 13);
    expect(inside).toBeGreaterThan(POINTS * 0.1);
  });
});

describe('H3FenceIndex', () => {
  it('chooses finer cells for smaller fences', () => {
    const index = new H3FenceIndex();
    index.load([
      { id: 'small', shape: { kind: 'circle', center: [36.8, -1.3], radius: 200 } },
      { id: 'large', shape: { kind: 'circle', center: [36.9, -1.2], radius: 5000 } },
    ]);
    const [small, large] = index.chosen;
    expect(small).toBeGreaterThan(large as number);
  });

  it('answers nothing before load and for fixes far from every fence', () => {
    const index = new H3FenceIndex();
    expect(() => index.containing(36.8, -1.3)).not.toThrow();
    index.load([{ id: 'a', shape: { kind: 'circle', center: [36.8, -1.3], radius: 500 } }]);
    expect(index.containing(39.6, -4.0)).toEqual([]);
    expect(index.containing(36.8, -1.3)).toEqual(['a']);
  });
});

describe('BBoxFenceIndex', () => {
  it('reports a corridor line once even when the fix is near two of its segments', () => {
    const index = new BBoxFenceIndex();
    index.load([
      {
        id: 'road',
        shape: {
          kind: 'line',
          points: [
            [36.8, -1.3],
            [36.81, -1.3],
            [36.81, -1.29],
          ],
          width: 50,
        },
      },
    ]);
    expect(index.containing(36.81, -1.3)).toEqual(['road']);
  });
});

describe('TurfBBoxFenceIndex (benchmark baseline) as an independent cross-check', () => {
  it('agrees with the naive exact test on 20,000 uniform points except within 0.2 % of a boundary', () => {
    const rng = seededRandom(4);
    const fences = Array.from({ length: 60 }, (_, i) =>
      i % 2 === 0
        ? syntheticCircle(`c${i}`, rng, REGION, [100, 3000])
        : syntheticPolygon(`p${i}`, rng, REGION, [100, 3000], [5, 40], i % 4 === 1),
    );
    const naive = new NaiveFenceIndex();
    const turf = new TurfBBoxFenceIndex();
    naive.load(fences);
    turf.load(fences);
    let inside = 0;
    for (let i = 0; i < 20_000; i++) {
      const [lon, lat] = pointIn(rng, REGION);
      const want = new Set(naive.containing(lon, lat));
      inside += want.size > 0 ? 1 : 0;
      const got = new Set(turf.containing(lon, lat));
      for (const fence of fences) {
        if (want.has(fence.id) === got.has(fence.id)) continue;
        const size = fence.shape.kind === 'circle' ? fence.shape.radius : 1;
        expect(Math.abs(signedDistanceMeters(fence.shape, lon, lat))).toBeLessThan(0.002 * size + 0.01);
      }
    }
    expect(inside).toBeGreaterThan(2000);
  });
});
