import { describe, expect, it } from 'vitest';
import { PLACES } from '@corridor/geodata';
import { parseAreaWkt } from '../fences/area-wkt';
import { containsPoint } from '../fences/geometry';
import { seedFenceValues } from './seed-fences';

describe('seed fences', () => {
  const seeds = seedFenceValues();

  it('covers the border posts, ports and inland depots the issue names, plus weighbridges, and no truck parking', () => {
    const names = seeds.map((s) => s.name).join('|');
    for (const place of [
      'Malaba',
      'Busia',
      'Namanga',
      'Holili',
      'Isebania',
      'Mutukula',
      'Rusumo',
      'Kabanga',
      'Tunduma',
      'Port of Mombasa',
      'Port of Dar es Salaam',
      'Nairobi',
      'Naivasha',
      'Isaka',
    ]) {
      expect(names).toContain(place);
    }
    expect(new Set(seeds.map((s) => s.kind))).toEqual(new Set(['border_post', 'port', 'inland_depot', 'weighbridge']));
    expect(seeds).toHaveLength(PLACES.filter((p) => p.kind !== 'parking').length);
    expect(new Set(seeds.map((s) => s.seedKey)).size).toBe(seeds.length);
  });

  it('writes valid Traccar areas (latitude first) that contain their place centre', () => {
    for (const s of seeds) {
      const parsed = parseAreaWkt(s.area, s.attributes);
      expect(parsed.ok, `${s.name}: ${s.area}`).toBe(true);
      const place = PLACES.find((p) => p.id === s.seedKey)!;
      if (parsed.ok) expect(containsPoint(parsed.shape, place.center[0], place.center[1]), s.name).toBe(true);
    }
    expect(seeds.find((s) => s.seedKey === 'ke-malaba')).toMatchObject({ area: 'CIRCLE (0.637 34.276, 800)', country: 'KE' });
    expect(seeds.find((s) => s.seedKey === 'tz-isaka-dry-port')?.area).toBe(
      'POLYGON ((-3.8955 32.9295, -3.8955 32.9325, -3.8985 32.9325, -3.8985 32.9295, -3.8955 32.9295))',
    );
  });

  it('sets hysteresis per kind', () => {
    const rule = (kind: string) => seeds.find((s) => s.kind === kind)?.attributes;
    expect(rule('border_post')).toMatchObject({ minDwellSeconds: 120, exitMarginMeters: 100 });
    expect(rule('weighbridge')).toMatchObject({ minDwellSeconds: 30, exitMarginMeters: 50 });
  });
});
