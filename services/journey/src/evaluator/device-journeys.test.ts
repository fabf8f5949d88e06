import { describe, expect, it } from 'vitest';
import { MemoryCache } from '@corridor/platform';
import type { JourneyRow } from '../db/schema';
import type { JourneysRepository } from '../journeys/repository';
import { DeviceJourneys } from './device-journeys';
import { journeyKeys } from './journey-keys';

/** The journeys table as far as the lookup reads it, counting the reads. */
function fakeTable() {
  const rows: JourneyRow[] = [];
  const reads: number[][] = [];
  const repo = {
    async openOfDevices(deviceIds: number[]): Promise<JourneyRow[]> {
      reads.push([...deviceIds]);
      return rows.filter((r) => deviceIds.includes(r.deviceId) && (r.state === 'planned' || r.state === 'active'));
    },
  } as Pick<JourneysRepository, 'openOfDevices'> as JourneysRepository;
  const insert = (id: number, deviceId: number): JourneyRow => {
    const at = new Date('2025-06-01T00:00:00Z');
    const row: JourneyRow = {
      id,
      deviceId,
      truckPlate: null,
      companyId: 101,
      routeId: 1,
      shipmentRef: null,
      cargoRef: null,
      plannedDeparture: null,
      plannedArrival: null,
      state: 'planned',
      actualDeparture: null,
      actualArrival: null,
      origin: null,
      destination: null,
      cancelledAt: null,
      cancelledBy: null,
      cancelReason: null,
      createdBy: 4,
      attributes: {},
      createdAt: at,
      updatedAt: at,
    };
    rows.push(row);
    return row;
  };
  return { repo, rows, reads, insert };
}

const ids = async (lookup: DeviceJourneys, deviceId: number) =>
  ((await lookup.forDevices([deviceId])).journeys.get(deviceId) ?? []).map((j) => j.id);

describe('DeviceJourneys', () => {
  it('keeps a copy per device and reloads it on any instance once the device version moves', async () => {
    const cache = new MemoryCache();
    const table = fakeTable();
    const a = new DeviceJourneys(table.repo, cache);
    const b = new DeviceJourneys(table.repo, cache);

    expect(await ids(b, 7)).toEqual([]);
    expect(await ids(b, 7)).toEqual([]);
    expect(table.reads).toEqual([[7]]);

    // declared through the API (which bumps the version as journeysService does), seen by b at once
    table.insert(1, 7);
    await cache.incr(journeyKeys.deviceVersion(7));
    expect(await ids(b, 7)).toEqual([1]);

    // a change made by a's evaluator (completion) reaches b the same way
    table.rows[0]!.state = 'completed';
    await a.bump([7]);
    expect(await ids(b, 7)).toEqual([]);
    expect(table.reads).toHaveLength(3);
  });

  it('reloads a copy older than maxAgeMs even when the announcement was lost', async () => {
    const cache = new MemoryCache();
    const table = fakeTable();
    let now = 0;
    const b = new DeviceJourneys(table.repo, cache, { maxAgeMs: 60_000, now: () => now });
    expect(await ids(b, 9)).toEqual([]);

    table.insert(2, 9); // committed, but the version bump never reached the cache
    now = 59_999;
    expect(await ids(b, 9)).toEqual([]);
    now = 60_000;
    expect(await ids(b, 9)).toEqual([2]);
    expect(table.reads).toEqual([[9], [9]]);
  });

  it('reads only the devices whose copy is stale, in one query', async () => {
    const cache = new MemoryCache();
    const table = fakeTable();
    const b = new DeviceJourneys(table.repo, cache);
    table.insert(3, 1);
    table.insert(4, 2);
    await b.forDevices([1, 2, 3]);
    await cache.incr(journeyKeys.deviceVersion(2));
    const { journeys } = await b.forDevices([1, 2, 3]);
    expect([...journeys].map(([d, list]) => [d, list.map((j) => j.id)])).toEqual([
      [1, [3]],
      [2, [4]],
      [3, []],
    ]);
    expect(table.reads).toEqual([[1, 2, 3], [2]]);
  });
});
