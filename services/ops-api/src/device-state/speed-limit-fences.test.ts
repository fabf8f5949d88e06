import { describe, expect, it } from 'vitest';
import { GeofenceDefinitionMessage, type GeofenceShape } from '@corridor/contracts';
import { createLogger, MemoryBus } from '@corridor/platform';
import { SpeedLimitFences } from './speed-limit-fences';

const logger = createLogger('test', 'silent');
const fence = (
  id: number,
  shape: GeofenceShape,
  o: { speedLimit?: number; companyId?: number | null; deviceIds?: number[]; groupIds?: number[]; kind?: string } = {},
) =>
  GeofenceDefinitionMessage.parse({
    id,
    name: `f${id}`,
    description: null,
    area: 'given as shape',
    calendarId: null,
    kind: o.kind ?? 'weighbridge',
    country: null,
    companyId: o.companyId ?? null,
    attributes: o.speedLimit === undefined ? {} : { speedLimit: o.speedLimit },
    links: { deviceIds: o.deviceIds ?? [], groupIds: o.groupIds ?? [] },
    shape,
  });
// a 1 km circle at Nairobi, a square around it, a road corridor through it
const circle: GeofenceShape = { kind: 'circle', center: [36.82, -1.29], radius: 1000 };
const square: GeofenceShape = {
  kind: 'polygon',
  rings: [
    [
      [36.8, -1.3],
      [36.84, -1.3],
      [36.84, -1.28],
      [36.8, -1.28],
      [36.8, -1.3],
    ],
  ],
};
const road: GeofenceShape = {
  kind: 'line',
  points: [
    [36.7, -1.29],
    [36.9, -1.29],
  ],
  width: 30,
};
const truck = { deviceId: 7, groupChain: [70, 7000] };

describe('speed-limit fences', () => {
  it('gives the fences with a limit that contain the point: circle, polygon, corridor', () => {
    const f = new SpeedLimitFences({ bus: new MemoryBus(), logger });
    f.apply([
      fence(1, circle, { speedLimit: 30 }),
      fence(2, square, { speedLimit: 40 }),
      fence(3, road, { speedLimit: 50 }),
      fence(4, circle),
    ]);
    expect(f.has(4)).toBe(false); // no limit, not kept
    expect(f.containing(truck, 36.82, -1.29)).toEqual([
      { geofenceId: 1, speedLimit: 30 },
      { geofenceId: 2, speedLimit: 40 },
      { geofenceId: 3, speedLimit: 50 },
    ]);
    expect(f.containing(truck, 36.835, -1.2902).map((x) => x.geofenceId)).toEqual([2, 3]); // ~1.7 km east: outside the circle, 22 m off the road
    expect(f.containing(truck, 36.835, -1.2895).map((x) => x.geofenceId)).toEqual([2]); // 55 m off the road
    expect(f.containing(truck, 36.7, -1.5)).toEqual([]);
  });

  it('applies association fences to every truck and others to their linked devices and group chains only; a tombstone or a removed limit drops the fence', () => {
    const f = new SpeedLimitFences({ bus: new MemoryBus(), logger });
    f.apply([
      fence(1, circle, { speedLimit: 30, deviceIds: [8], kind: 'other' }),
      fence(2, circle, { speedLimit: 31, groupIds: [70], kind: 'other' }),
      fence(3, circle, { speedLimit: 32, companyId: 202 }),
      fence(4, circle, { speedLimit: 33, companyId: 101, deviceIds: [7] }),
      fence(5, circle, { speedLimit: 34 }),
      fence(6, circle, { speedLimit: 35, groupIds: [7000], kind: 'other' }),
      fence(7, circle, { speedLimit: 36, kind: 'other' }),
    ]);
    expect(f.containing(truck, 36.82, -1.29).map((x) => x.geofenceId)).toEqual([2, 4, 5, 6]);
    f.apply([
      GeofenceDefinitionMessage.parse({ id: 2, deleted: true }),
      fence(4, circle, { companyId: 101, deviceIds: [7] }),
      GeofenceDefinitionMessage.parse({ id: 6, deleted: true }),
    ]);
    expect(f.containing(truck, 36.82, -1.29).map((x) => x.geofenceId)).toEqual([5]);
  });
});
