import { CORRIDORS, measureLine, placeById, projectOnLine } from '@corridor/geodata';
import { describe, expect, it } from 'vitest';
import { MAX_CRUISE_KPH, MIN_CRUISE_KPH, planFleet, simDeviceIds } from './fleet';
import { seededRandom } from './random';

describe('simDeviceIds', () => {
  it('returns stable unique 15-digit ids', () => {
    const ids = simDeviceIds(120);
    expect(ids[0]).toBe('356000000000001');
    expect(ids[119]).toBe('356000000000120');
    expect(new Set(ids).size).toBe(120);
    for (const id of ids) expect(id).toMatch(/^\d{15}$/);
    expect(simDeviceIds(3)).toEqual(ids.slice(0, 3));
  });
});

describe('planFleet', () => {
  const plans = planFleet({ trucks: 20, random: seededRandom(42) });

  it('spreads trucks over both corridors and both directions', () => {
    for (const c of CORRIDORS) {
      const on = plans.filter((p) => p.corridor.id === c.id);
      expect(on).toHaveLength(10);
      expect(new Set(on.map((p) => p.direction))).toEqual(new Set(['forward', 'reverse']));
      const starts = on.map((p) => p.startAlong / (c.lengthKm * 1000)).sort((a, b) => a - b);
      expect(starts[0]).toBeLessThan(0.15);
      expect(starts[starts.length - 1]).toBeGreaterThan(0.85);
    }
  });

  it('gives every truck its own id and a cruise speed of 50–80 km/h', () => {
    expect(new Set(plans.map((p) => p.deviceId)).size).toBe(20);
    for (const p of plans) {
      expect(p.cruiseKph).toBeGreaterThanOrEqual(MIN_CRUISE_KPH);
      expect(p.cruiseKph).toBeLessThanOrEqual(MAX_CRUISE_KPH);
    }
    expect(new Set(plans.map((p) => p.cruiseKph)).size).toBeGreaterThan(5);
  });

  it('stops at every weighbridge and border post on its corridor, briefly, in line order', () => {
    for (const p of plans) {
      const measured = measureLine(p.corridor.line);
      const kinds = p.stops.map((s) => placeById(s.placeId)?.kind);
      expect(kinds).toContain('weighbridge');
      expect(kinds).toContain('border_post');
      for (let i = 1; i < p.stops.length; i++) expect(p.stops[i]!.along).toBeGreaterThanOrEqual(p.stops[i - 1]!.along);
      for (const s of p.stops) {
        expect(s.dwellSeconds).toBeGreaterThanOrEqual(120);
        expect(s.dwellSeconds).toBeLessThanOrEqual(1200);
        const place = placeById(s.placeId)!;
        expect(Math.abs(projectOnLine(measured, place.center).along - s.along)).toBeLessThan(1);
      }
    }
  });

  it('uses the given device ids and refuses too few', () => {
    const ids = ['a1', 'b2', 'c3'];
    expect(planFleet({ trucks: 3, random: seededRandom(1), deviceIds: ids }).map((p) => p.deviceId)).toEqual(ids);
    expect(() => planFleet({ trucks: 4, random: seededRandom(1), deviceIds: ids })).toThrow(RangeError);
  });
});
