import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { Device } from '@corridor/contracts/devices';
import type { Position } from '@corridor/contracts/positions';
import { applyLive, fleetDevicesKey, latestPositionsKey, mergeDevices, mergePositions, newFlagsKey } from './queries';
import { FrameBatcher } from './frame-batcher';

const pos = (deviceId: number, fixTime: string, lat = 0): Position => ({
  id: deviceId * 1_000_000 + Date.parse(fixTime) / 1000,
  deviceId,
  protocol: 'osmand',
  deviceTime: fixTime,
  fixTime,
  serverTime: fixTime,
  valid: true,
  latitude: lat,
  longitude: 36,
  altitude: 0,
  speed: 30,
  course: 0,
  accuracy: 0,
  attributes: {},
});
const device = (id: number, status: Device['status'] = 'online'): Device => ({
  id,
  name: `Truck ${id}`,
  uniqueId: String(id),
  status,
  disabled: false,
  lastUpdate: null,
  positionId: null,
  groupId: null,
  calendarId: null,
  companyId: 101,
  phone: null,
  model: null,
  contact: null,
  category: null,
  expirationTime: null,
  attributes: {},
  protocol: null,
});

describe('live frames in the query cache', () => {
  it('keeps the newest fix per device and never goes back to an older one', () => {
    const merged = mergePositions(
      [pos(1, '2026-01-01T10:00:00Z', 1), pos(2, '2026-01-01T10:00:00Z')],
      [pos(1, '2026-01-01T10:01:00Z', 2), pos(2, '2026-01-01T09:00:00Z', 9)],
    );
    expect(merged.find((p) => p.deviceId === 1)?.latitude).toBe(2);
    expect(merged.find((p) => p.deviceId === 2)?.latitude).toBe(0);
  });

  it('applies device changes in place and drops deleted devices', () => {
    const merged = mergeDevices(
      [device(1), device(2)],
      [
        { id: 1, uniqueId: '1', name: 'Renamed', disabled: false, companyId: 101, groupId: null, status: 'offline', deleted: false },
        { id: 2, uniqueId: '2', name: 'x', disabled: false, companyId: 101, groupId: null, status: 'online', deleted: true },
      ],
    );
    expect(merged).toEqual([{ ...device(1), name: 'Renamed', status: 'offline' }]);
  });

  it('writes positions, device updates and new flags to the cache the screens read', () => {
    const client = new QueryClient();
    client.setQueryData(latestPositionsKey, [pos(1, '2026-01-01T10:00:00Z')]);
    client.setQueryData(fleetDevicesKey, [device(1)]);
    applyLive(client, { positions: [pos(1, '2026-01-01T10:05:00Z', 5)] });
    expect(client.getQueryData<Position[]>(latestPositionsKey)?.[0]?.latitude).toBe(5);
    expect(client.getQueryData<Device[]>(fleetDevicesKey)?.[0]?.positionId).toBe(1_000_000 + Date.parse('2026-01-01T10:05:00Z') / 1000);
    applyLive(client, {
      events: [
        {
          id: 1,
          type: 'journeyFlagOpened',
          eventTime: '2026-01-01T10:06:00Z',
          deviceId: 1,
          positionId: 0,
          journeyId: '3',
          geofenceId: 0,
          maintenanceId: 0,
          latitude: null,
          longitude: null,
          attributes: { flagType: 'overspeed', escalated: false },
        },
        {
          id: 2,
          type: 'journeyFlagOpened',
          eventTime: '2026-01-01T12:06:00Z',
          deviceId: 1,
          positionId: 0,
          journeyId: '3',
          geofenceId: 0,
          maintenanceId: 0,
          latitude: null,
          longitude: null,
          attributes: { flagType: 'signalLoss', escalated: true },
        },
      ],
    });
    expect(client.getQueryData<unknown[]>(newFlagsKey)).toHaveLength(1); // an escalation is not a new flag
  });

  it('hands over one batch per frame with the newest item per key', () => {
    const frames: (() => void)[] = [];
    const flushed: number[][] = [];
    const b = new FrameBatcher<number>(
      (items) => flushed.push(items),
      (cb) => frames.push(cb),
    );
    b.add('a', 1);
    b.add('b', 2);
    b.add('a', 3);
    expect(frames).toHaveLength(1);
    frames[0]!();
    expect(flushed).toEqual([[3, 2]]);
  });
});
