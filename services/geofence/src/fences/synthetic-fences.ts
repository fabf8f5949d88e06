import type { BBox, Fence, LonLat } from './fence';
import { METRES_PER_DEGREE, metresPerDegreeLon } from './geometry';

/**
 * Seeded random fences and fixes for the index tests and the geofence-index benchmark
 * (never for production data). Polygons are star-shaped around their centre with vertex angles
 * spread around the circle, so they never self-intersect and a small hole fits around the centre.
 */

/** mulberry32: small, fast, seedable PRNG returning floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Random = () => number;

export function between(rng: Random, min: number, max: number): number {
  return min + (max - min) * rng();
}

export function pointIn(rng: Random, [w, s, e, n]: BBox): LonLat {
  return [between(rng, w, e), between(rng, s, n)];
}

/** The point `dx` metres east and `dy` metres north of `origin` (local flat offset). */
export function offsetMeters(origin: LonLat, dx: number, dy: number): LonLat {
  return [origin[0] + dx / metresPerDegreeLon(origin[1]), origin[1] + dy / METRES_PER_DEGREE];
}

function starRing(rng: Random, center: LonLat, radius: number, vertices: number, minFraction: number): LonLat[] {
  const ring: LonLat[] = [];
  for (let i = 0; i < vertices; i++) {
    const angle = ((i + rng() * 0.8) / vertices) * 2 * Math.PI;
    const r = radius * between(rng, minFraction, 1);
    ring.push(offsetMeters(center, r * Math.cos(angle), r * Math.sin(angle)));
  }
  ring.push(ring[0] as LonLat);
  return ring;
}

export function syntheticCircle(id: string, rng: Random, region: BBox, radius: [number, number]): Fence {
  return { id, shape: { kind: 'circle', center: pointIn(rng, region), radius: between(rng, ...radius) } };
}

export function syntheticPolygon(
  id: string,
  rng: Random,
  region: BBox,
  radius: [number, number],
  vertices: [number, number],
  withHole = false,
): Fence {
  const center = pointIn(rng, region);
  const r = between(rng, ...radius);
  const n = Math.floor(between(rng, vertices[0], vertices[1] + 1));
  const rings = [starRing(rng, center, r, n, 0.5)];
  // vertex gaps stay under 2 × 360°/5, so every outer edge keeps ≥ 0.15 r from the centre
  if (withHole) rings.push(starRing(rng, center, r * 0.12, 6, 0.6).reverse());
  return { id, shape: { kind: 'polygon', rings } };
}

export function syntheticLine(
  id: string,
  rng: Random,
  region: BBox,
  segments: number,
  segmentMeters: [number, number],
  width: [number, number],
): Fence {
  let p = pointIn(rng, region);
  let heading = rng() * 2 * Math.PI;
  const points: LonLat[] = [p];
  for (let i = 0; i < segments; i++) {
    heading += between(rng, -0.6, 0.6);
    const len = between(rng, ...segmentMeters);
    p = offsetMeters(p, len * Math.cos(heading), len * Math.sin(heading));
    points.push(p);
  }
  return { id, shape: { kind: 'line', points, width: between(rng, ...width) } };
}

/** East Africa, as the benchmark spreads fences: lon 28..42, lat -12..5. */
export const EAST_AFRICA: BBox = [28, -12, 42, 5];

/** The benchmark mix: half circles of 200 m–5 km, half polygons of 5–40 vertices and the same reach. */
export function corridorFenceMix(count: number, seed: number, region: BBox = EAST_AFRICA): Fence[] {
  const rng = seededRandom(seed);
  const out: Fence[] = [];
  for (let i = 0; i < count; i++) {
    out.push(
      rng() < 0.5 ? syntheticCircle(`c${i}`, rng, region, [200, 5000]) : syntheticPolygon(`p${i}`, rng, region, [200, 5000], [5, 40]),
    );
  }
  return out;
}
