import { describe, expect, it } from 'vitest';
import type { DeviceRegistryMessage } from '@corridor/contracts';
import { MemoryCache, cacheKeys, createLogger, type Orm } from '@corridor/platform';
import { defaultReportSettings } from '../reports/settings';
import { eventSettingsReader } from './event-settings';

const logger = createLogger('test', 'silent');

/** PostgreSQL must not be asked while the registry has the devices: every query fails the test. */
const noQueries = { execute: () => Promise.reject(new Error('no PostgreSQL query expected')) } as unknown as Orm;

const entry = (id: number, o: Partial<DeviceRegistryMessage> = {}): DeviceRegistryMessage => ({
  id,
  uniqueId: `u${id}`,
  name: `d${id}`,
  disabled: false,
  companyId: 101,
  groupId: null,
  status: 'unknown',
  deleted: false,
  attributes: {},
  ...o,
});

async function setup() {
  const cache = new MemoryCache();
  let now = 0;
  const read = eventSettingsReader({
    db: noQueries,
    cache,
    logger,
    trips: defaultReportSettings().trips,
    overspeedMinimalDuration: 0,
    reloadMs: 1000,
    now: () => now,
  });
  const put = (key: string, v: unknown) => cache.set(key, JSON.stringify(v));
  return { cache, read, put, advance: (ms: number) => void (now += ms) };
}

describe('event settings from the cache', () => {
  it('reads the device, its group chain, the server and the maintenances from what their owners publish, not from PostgreSQL', async () => {
    const { read, put } = await setup();
    await put(cacheKeys.deviceById(1), entry(1, { groupId: 11, attributes: { fuelDropThreshold: 5 } }));
    await put(cacheKeys.deviceById(2), entry(2, { companyId: 202, attributes: {} }));
    await put(cacheKeys.groups(), [
      { id: 10, companyId: 101, groupId: null, attributes: { speedLimit: 45 } },
      { id: 11, companyId: 101, groupId: 10, attributes: { 'event.overspeed.thresholdMultiplier': 1.2 } },
    ]);
    await put(cacheKeys.serverAttributes(), [{ speedLimit: 60, 'event.overspeed.minimalDuration': 10 }]);
    // a maintenance applies to the devices linked to it (Traccar): directly, or through the device's group or a parent group
    await put(cacheKeys.maintenances(), [
      { id: 1, name: 'Oil', type: 'totalDistance', start: 0, period: 10_000, companyId: 101, links: { deviceIds: [], groupIds: [10] } },
      {
        id: 2,
        name: 'Inspection',
        type: 'hours',
        start: 0,
        period: 3_600_000,
        companyId: null,
        links: { deviceIds: [1, 2], groupIds: [] },
      },
      { id: 4, name: 'Unlinked', type: 'hours', start: 0, period: 3_600_000, companyId: 101, links: { deviceIds: [], groupIds: [] } },
      { id: 5, name: 'Published before links', type: 'hours', start: 0, period: 3_600_000, companyId: 101 },
    ]);
    const configs = await read([1, 2]);
    expect(configs.get(1)).toMatchObject({
      speedLimit: 45,
      thresholdMultiplier: 1.2,
      overspeedMinimalDuration: 10_000,
      fuelDropThreshold: 5,
    });
    expect(configs.get(1)!.maintenances.map((m) => m.id)).toEqual([1, 2]);
    expect(configs.get(2)).toMatchObject({ speedLimit: 60, thresholdMultiplier: 1 });
    expect(configs.get(2)!.maintenances.map((m) => m.id)).toEqual([2]);
  });

  it('a change takes effect: a device at the next batch, a published list once reloadMs passed', async () => {
    const { read, put, advance } = await setup();
    await put(cacheKeys.deviceById(1), entry(1, { groupId: 10, attributes: { speedLimit: 50 } }));
    await put(cacheKeys.groups(), [{ id: 10, companyId: 101, groupId: null, attributes: { 'event.overspeed.thresholdMultiplier': 1.5 } }]);
    await put(cacheKeys.maintenances(), []);
    expect((await read([1])).get(1)).toMatchObject({ speedLimit: 50, thresholdMultiplier: 1.5, maintenances: [] });

    await put(cacheKeys.deviceById(1), entry(1, { groupId: 10, attributes: { speedLimit: 40 } })); // PUT /devices/1 rewrites the entry
    await put(cacheKeys.groups(), [{ id: 10, companyId: 101, groupId: null, attributes: {} }]);
    await put(cacheKeys.maintenances(), [
      { id: 3, name: 'Tyres', type: 'totalDistance', start: 0, period: 1000, companyId: 101, links: { deviceIds: [1], groupIds: [] } },
    ]);
    expect((await read([1])).get(1)).toMatchObject({ speedLimit: 40, thresholdMultiplier: 1.5, maintenances: [] }); // lists not re-read yet
    advance(1000);
    const after = (await read([1])).get(1)!;
    expect(after).toMatchObject({ speedLimit: 40, thresholdMultiplier: 1 });
    expect(after.maintenances.map((m) => m.name)).toEqual(['Tyres']);
  });

  it('a deleted device has no settings; a lost or malformed list keeps the one last read', async () => {
    const { cache, read, put, advance } = await setup();
    await put(cacheKeys.deviceById(1), entry(1, { groupId: 10 }));
    await put(cacheKeys.deviceById(2), entry(2, { deleted: true }));
    await put(cacheKeys.groups(), [{ id: 10, companyId: 101, groupId: null, attributes: { speedLimit: 30 } }]);
    const first = await read([1, 2]);
    expect([...first.keys()]).toEqual([1]);
    await cache.del(cacheKeys.groups());
    advance(1000);
    expect((await read([1])).get(1)?.speedLimit).toBe(30);
    await cache.set(cacheKeys.groups(), '{"not":"a list"}');
    advance(1000);
    expect((await read([1])).get(1)?.speedLimit).toBe(30);
  });
});
