import { describe, expect, it } from 'vitest';
import { CORRIDORS, corridorById } from './corridors';
import { PLACES, placesOnCorridor } from './places';
import type { LonLat } from './types';

// Independent geometry for the checks, so the package's own helpers are not testing themselves.
const R = 6371.0088; // km
const rad = (d: number): number => (d * Math.PI) / 180;
function haversineKm(a: LonLat, b: LonLat): number {
  const h = Math.sin(rad(b[1] - a[1]) / 2) ** 2 + Math.cos(rad(a[1])) * Math.cos(rad(b[1])) * Math.sin(rad(b[0] - a[0]) / 2) ** 2;
  return 2 * R * Math.asin(Math.sqrt(h));
}
function pointToSegmentKm(p: LonLat, a: LonLat, b: LonLat): number {
  // local equirectangular plane around p, in km
  const kx = Math.cos(rad(p[1])) * rad(1) * R;
  const ky = rad(1) * R;
  const ax = (a[0] - p[0]) * kx,
    ay = (a[1] - p[1]) * ky;
  const bx = (b[0] - p[0]) * kx,
    by = (b[1] - p[1]) * ky;
  const dx = bx - ax,
    dy = by - ay;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.min(1, Math.max(0, -(ax * dx + ay * dy) / len2));
  return Math.hypot(ax + t * dx, ay + t * dy);
}
function distanceToLineKm(p: LonLat, line: readonly LonLat[]): number {
  let best = Infinity;
  for (let i = 0; i < line.length - 1; i++) best = Math.min(best, pointToSegmentKm(p, line[i]!, line[i + 1]!));
  return best;
}
function insideRing(p: LonLat, ring: readonly LonLat[]): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > p[1] !== yj > p[1] && p[0] < ((xj - xi) * (p[1] - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}
const inEastAfrica = ([lon, lat]: LonLat): boolean => lon > 28 && lon < 42 && lat > -12 && lat < 5;

describe.each(CORRIDORS.map((c) => [c.id, c] as const))('corridor %s', (_id, c) => {
  it('has a dense line of at least 60 vertices inside East Africa', () => {
    expect(c.line.length).toBeGreaterThanOrEqual(60);
    for (const v of c.line) expect(inEastAfrica(v), `${v.join(',')}`).toBe(true);
  });

  it('starts at its first waypoint and ends at its last', () => {
    const first = c.waypoints[0]!;
    const last = c.waypoints[c.waypoints.length - 1]!;
    expect(haversineKm(c.line[0]!, first.coord)).toBeLessThan(1);
    expect(haversineKm(c.line[c.line.length - 1]!, last.coord)).toBeLessThan(1);
  });

  it('has consecutive vertices between 10 m and 30 km apart', () => {
    for (let i = 1; i < c.line.length; i++) {
      const d = haversineKm(c.line[i - 1]!, c.line[i]!);
      expect(d, `segment ${i - 1}`).toBeLessThan(30);
      expect(d, `segment ${i - 1}`).toBeGreaterThan(0.01);
    }
  });

  it('is within 15% of the stated road length and reports its own length correctly', () => {
    let km = 0;
    for (let i = 1; i < c.line.length; i++) km += haversineKm(c.line[i - 1]!, c.line[i]!);
    expect(Math.abs(km - c.statedLengthKm) / c.statedLengthKm).toBeLessThan(0.15);
    expect(c.lengthKm).toBeCloseTo(km, 0);
  });

  it('orders waypoints along the line, each on its vertex, with legs summing to the length', () => {
    c.waypoints.forEach((w, i) => {
      expect(w.order).toBe(i);
      expect(c.line[w.vertex]).toEqual(w.coord);
      if (i > 0) expect(w.vertex).toBeGreaterThan(c.waypoints[i - 1]!.vertex);
    });
    expect(c.legs).toHaveLength(c.waypoints.length - 1);
    expect(c.legs.reduce((s, l) => s + l.km, 0)).toBeCloseTo(c.lengthKm, 3);
  });

  it('has one speed limit per segment, 50 in towns and 80 on most open road', () => {
    expect(c.speedLimitsKph).toHaveLength(c.line.length - 1);
    for (const v of c.speedLimitsKph) expect([50, 60, 80]).toContain(v);
    const start = c.waypoints[0]!;
    expect(c.speedLimitsKph[start.vertex]).toBe(50);
    const open = c.speedLimitsKph.filter((v) => v === 80).length;
    expect(open / c.speedLimitsKph.length).toBeGreaterThan(0.5);
  });

  it('expects a duration no shorter than driving the whole line at the open-road limit', () => {
    expect(c.expectedDurationHours).toBeGreaterThan(c.lengthKm / 80);
    expect(c.expectedDurationHours).toBeLessThan(c.lengthKm / 15);
  });

  it('has every place marked on it within 5 km of the line', () => {
    const places = placesOnCorridor(c.id);
    expect(places.length).toBeGreaterThan(5);
    for (const p of places) expect(distanceToLineKm(p.center, c.line), p.id).toBeLessThan(5);
  });
});

describe('places', () => {
  it('have unique ids, sane radii and coordinates in East Africa', () => {
    expect(new Set(PLACES.map((p) => p.id)).size).toBe(PLACES.length);
    for (const p of PLACES) {
      expect(inEastAfrica(p.center), p.id).toBe(true);
      expect(p.radiusMetres, p.id).toBeGreaterThan(50);
      expect(p.radiusMetres, p.id).toBeLessThan(5000);
    }
  });

  it('give ports and depots closed polygons around their centre', () => {
    const big = PLACES.filter((p) => p.kind === 'port' || p.kind === 'inland_depot');
    expect(big.length).toBeGreaterThanOrEqual(5);
    for (const p of big) {
      const ring = p.polygon;
      expect(ring, p.id).toBeDefined();
      if (!ring) continue;
      expect(ring.length, p.id).toBeGreaterThanOrEqual(4);
      expect(ring[0], p.id).toEqual(ring[ring.length - 1]);
      expect(insideRing(p.center, ring), p.id).toBe(true);
      for (const v of ring) expect(haversineKm(v, p.center) * 1000, p.id).toBeLessThan(p.radiusMetres * 1.5);
    }
  });

  it('cover the listed border posts, ports, depots and both corridors', () => {
    const names = PLACES.map((p) => p.name).join('|');
    for (const n of [
      'Malaba',
      'Busia',
      'Namanga',
      'Holili',
      'Isebania',
      'Mutukula',
      'Rusumo',
      'Kabanga',
      'Tunduma',
      'Kilindini',
      'Dar es Salaam',
      'Embakasi',
      'Naivasha',
      'Isaka',
    ]) {
      expect(names).toContain(n);
    }
    for (const id of ['northern', 'central'] as const) {
      const kinds = new Set(placesOnCorridor(id).map((p) => p.kind));
      expect([...kinds].sort()).toEqual(['border_post', 'inland_depot', 'parking', 'port', 'weighbridge']);
      expect(corridorById(id).id).toBe(id);
    }
  });
});
