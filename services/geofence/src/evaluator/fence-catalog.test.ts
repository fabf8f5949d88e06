import { describe, expect, it } from 'vitest';
import { createLogger } from '@corridor/platform';
import type { GeofenceRow } from '../db/schema';
import { FenceCatalog, appliesTo } from './fence-catalog';

const row = (id: number, area: string, attributes: GeofenceRow['attributes'] = {}): GeofenceRow => ({
  id, name: `f${id}`, description: null, area, calendarId: null, attributes, kind: 'other', country: null, seedKey: null, companyId: null,
  createdAt: new Date(0), updatedAt: new Date(0),
});

describe('FenceCatalog', () => {
  it('answers from the index and follows upserts and removals', () => {
    const catalog = new FenceCatalog(createLogger('test', 'silent'));
    catalog.upsert([row(1, 'CIRCLE (0 36, 1000)'), row(2, 'POLYGON ((0 36, 0 36.1, 0.1 36.1, 0.1 36))')], []);
    expect(catalog.containing(36, 0).sort()).toEqual(['1', '2']);
    catalog.upsert([row(1, 'CIRCLE (5 36, 1000)')], []); // moved away
    expect(catalog.containing(36, 0)).toEqual(['2']);
    catalog.remove(['2']);
    expect(catalog.containing(36, 0)).toEqual([]);
    expect(catalog.size).toBe(1);
  });

  it('skips a stored area that no longer parses, and reads the hysteresis attributes', () => {
    const catalog = new FenceCatalog(createLogger('test', 'silent'));
    catalog.upsert([row(1, 'CIRCLE (0 36, 1000)'), row(2, 'CIRCLE (0 36')], []);
    expect(catalog.get('2')).toBeUndefined();
    // jsonb written outside the API may hold anything: a non-number margin counts as none
    catalog.upsert([row(3, 'CIRCLE (0 36, 10)', { minDwellSeconds: 90, exitMarginMeters: 'far' as unknown as number })], []);
    expect(catalog.get('3')?.rule).toEqual({ minDwellSeconds: 90, exitMarginMeters: 0 });
  });

  it('keeps the fence\'s calendar (0 = none, as Traccar writes it) and counts the fences bound to one', () => {
    const catalog = new FenceCatalog(createLogger('test', 'silent'));
    catalog.upsert([{ ...row(1, 'CIRCLE (0 36, 10)'), calendarId: 4 }, { ...row(2, 'CIRCLE (0 36, 10)'), calendarId: 0 }, row(3, 'CIRCLE (0 36, 10)')], []);
    expect([1, 2, 3].map((id) => catalog.get(String(id))?.calendarId)).toEqual([4, null, null]);
    expect(catalog.calendarFences).toBe(1);
    catalog.upsert([{ ...row(1, 'CIRCLE (0 36, 10)'), calendarId: 5 }, { ...row(3, 'CIRCLE (0 36, 10)'), calendarId: 5 }], []);
    expect(catalog.calendarFences).toBe(2);
    catalog.upsert([{ ...row(3, 'CIRCLE (0 36'), calendarId: 5 }], []); // no longer parses: gone
    expect(catalog.calendarFences).toBe(1);
    catalog.remove(['1']);
    expect(catalog.calendarFences).toBe(0);
    catalog.upsert([{ ...row(1, 'CIRCLE (0 36, 10)'), calendarId: 4 }], []);
    catalog.clear();
    expect(catalog.calendarFences).toBe(0);
  });

  it('applies an unlinked fence to every device, a linked one to its devices and groups', () => {
    const catalog = new FenceCatalog(createLogger('test', 'silent'));
    const t = new Date(0);
    catalog.upsert([row(1, 'CIRCLE (0 36, 10)'), row(2, 'CIRCLE (0 36, 10)')], [
      { id: 1, geofenceId: 2, deviceId: 7, groupId: null, createdAt: t },
      { id: 2, geofenceId: 2, deviceId: null, groupId: 3, createdAt: t },
    ]);
    const [open, linked] = [catalog.get('1')!, catalog.get('2')!];
    expect(appliesTo(open, 99, null)).toBe(true);
    expect([appliesTo(linked, 7, null), appliesTo(linked, 8, 3), appliesTo(linked, 8, 4), appliesTo(linked, 8, undefined)]).toEqual([true, true, false, false]);
  });

  it("applies a company's unlinked fence to that company's devices only, a shared one to all", () => {
    const catalog = new FenceCatalog(createLogger('test', 'silent'));
    catalog.upsert([{ ...row(1, 'CIRCLE (0 36, 10)'), companyId: 5 }, row(2, 'CIRCLE (0 36, 10)')], []);
    const [own, shared] = [catalog.get('1')!, catalog.get('2')!];
    // device 7 of company 5, device 8 of company 6, device 9 of no known company
    expect([appliesTo(own, 7, null, 5), appliesTo(own, 8, null, 6), appliesTo(own, 9, null, null), appliesTo(own, 9, null, undefined)]).toEqual([true, false, false, false]);
    expect([appliesTo(shared, 7, null, 5), appliesTo(shared, 8, null, 6), appliesTo(shared, 9, null, undefined)]).toEqual([true, true, true]);
  });
});
