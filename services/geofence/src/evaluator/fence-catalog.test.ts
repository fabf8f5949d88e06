import { describe, expect, it } from 'vitest';
import { geofenceAppliesTo } from '@corridor/contracts';
import { cacheKeys, createLogger, MemoryCache, SettingLayers } from '@corridor/platform';
import type { GeofenceRow } from '../db/schema';
import { FenceCatalog, groupChainIds } from './fence-catalog';

const row = (id: number, area: string, attributes: GeofenceRow['attributes'] = {}): GeofenceRow => ({
  id,
  name: `f${id}`,
  description: null,
  area,
  calendarId: null,
  attributes,
  kind: 'other',
  country: null,
  seedKey: null,
  companyId: null,
  createdAt: new Date(0),
  updatedAt: new Date(0),
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

  it("keeps the fence's calendar (0 = none, as Traccar writes it) and counts the fences bound to one", () => {
    const catalog = new FenceCatalog(createLogger('test', 'silent'));
    catalog.upsert(
      [{ ...row(1, 'CIRCLE (0 36, 10)'), calendarId: 4 }, { ...row(2, 'CIRCLE (0 36, 10)'), calendarId: 0 }, row(3, 'CIRCLE (0 36, 10)')],
      [],
    );
    expect([1, 2, 3].map((id) => catalog.get(String(id))?.calendarId)).toEqual([4, null, null]);
    expect(catalog.calendarFences).toBe(1);
    catalog.upsert(
      [
        { ...row(1, 'CIRCLE (0 36, 10)'), calendarId: 5 },
        { ...row(3, 'CIRCLE (0 36, 10)'), calendarId: 5 },
      ],
      [],
    );
    expect(catalog.calendarFences).toBe(2);
    catalog.upsert([{ ...row(3, 'CIRCLE (0 36'), calendarId: 5 }], []); // no longer parses: gone
    expect(catalog.calendarFences).toBe(1);
    catalog.remove(['1']);
    expect(catalog.calendarFences).toBe(0);
    catalog.upsert([{ ...row(1, 'CIRCLE (0 36, 10)'), calendarId: 4 }], []);
    catalog.clear();
    expect(catalog.calendarFences).toBe(0);
  });

  it('applies an association fence to every device, any other fence only to its linked devices and their group chains', () => {
    const catalog = new FenceCatalog(createLogger('test', 'silent'));
    const t = new Date(0);
    catalog.upsert(
      [
        { ...row(1, 'CIRCLE (0 36, 10)'), kind: 'border_post' },
        row(2, 'CIRCLE (0 36, 10)'),
        row(3, 'CIRCLE (0 36, 10)'),
        { ...row(4, 'CIRCLE (0 36, 10)'), kind: 'inland_depot', companyId: 5 },
      ],
      [
        { id: 1, geofenceId: 2, deviceId: 7, groupId: null, createdAt: t },
        { id: 2, geofenceId: 2, deviceId: null, groupId: 3, createdAt: t },
      ],
    );
    const [post, linked, unlinked, companyDepot] = ['1', '2', '3', '4'].map((id) => catalog.get(id)!);
    expect([geofenceAppliesTo(post!, 99, []), geofenceAppliesTo(post!, 7, [3])]).toEqual([true, true]);
    // group 3 directly, or as the parent of group 30
    expect([
      geofenceAppliesTo(linked!, 7, []),
      geofenceAppliesTo(linked!, 8, [3]),
      geofenceAppliesTo(linked!, 8, [30, 3]),
      geofenceAppliesTo(linked!, 8, [4]),
    ]).toEqual([true, true, true, false]);
    // a fence a user drew (kind other, or any kind of a company) with no links applies to none
    expect([geofenceAppliesTo(unlinked!, 7, [3]), geofenceAppliesTo(companyDepot!, 7, [])]).toEqual([false, false]);
  });
});

describe('groupChainIds', () => {
  it('gives the group and its published parents, or the group alone before groups are published', async () => {
    const cache = new MemoryCache();
    const settings = new SettingLayers({ cache, logger: createLogger('test', 'silent'), reloadMs: 0 });
    expect(groupChainIds(settings, 30)).toEqual([30]);
    expect(groupChainIds(settings, null)).toEqual([]);
    await cache.set(
      cacheKeys.groups(),
      JSON.stringify([
        { id: 30, groupId: 3 },
        { id: 3, groupId: null },
      ]),
    );
    await settings.refresh();
    expect(groupChainIds(settings, 30)).toEqual([30, 3]);
  });
});
