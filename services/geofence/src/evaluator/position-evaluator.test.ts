import { describe, expect, it } from 'vitest';
import { PositionMessage, type EventMessage, positionId } from '@corridor/contracts';
import { MemoryBus, MemoryCache, SettingLayers, cacheKeys, createLogger, systemClock } from '@corridor/platform';
import type { CalendarDefinition } from '@corridor/platform/calendar/definition';
import { officeHoursIcs } from '../../test/office-hours';
import { CalendarGate } from '../calendars/calendar-gate';
import type { GeofenceLinkRow, GeofenceRow } from '../db/schema';
import { geofenceKeys, readInside } from '../inside/inside-sets';
import { DeviceDirectory } from './device-directory';
import { FenceCatalog } from './fence-catalog';
import { PositionEvaluator } from './position-evaluator';

const logger = createLogger('test', 'silent');
const T0 = Date.parse('2026-03-01T06:00:00Z');

/** A checkpoint of the association (applies to every truck) unless `kind` says otherwise. */
function fenceRow(
  id: number,
  area: string,
  attributes: GeofenceRow['attributes'] = {},
  calendarId: number | null = null,
  kind: GeofenceRow['kind'] = 'checkpoint',
): GeofenceRow {
  const now = new Date(T0);
  return {
    id,
    name: `fence ${id}`,
    description: null,
    area,
    calendarId,
    attributes,
    kind,
    country: null,
    seedKey: null,
    companyId: null,
    createdAt: now,
    updatedAt: now,
  };
}

function fix(deviceId: number, seconds: number, lat: number, lon: number, extra: Partial<PositionMessage> = {}, t0 = T0): PositionMessage {
  const time = new Date(t0 + seconds * 1000).toISOString();
  return PositionMessage.parse({
    id: positionId(deviceId, t0 + seconds * 1000),
    deviceId,
    uniqueId: `imei-${deviceId}`,
    protocol: 'test',
    fixTime: time,
    serverTime: time,
    valid: true,
    latitude: lat,
    longitude: lon,
    speed: 0,
    course: 0,
    ...extra,
  });
}

function setup(rows: GeofenceRow[], links: GeofenceLinkRow[] = [], calendars: CalendarDefinition[] = []) {
  const cache = new MemoryCache();
  void cache.set(cacheKeys.calendars(), JSON.stringify(calendars));
  const catalog = new FenceCatalog(logger);
  catalog.upsert(rows, links);
  const written: EventMessage[][] = [];
  let failWrites = 0;
  const evaluator = new PositionEvaluator({
    catalog,
    cache,
    clock: systemClock,
    logger,
    calendars: new CalendarGate({ cache, logger }),
    directory: new DeviceDirectory(new MemoryBus(), cache, logger),
    settings: new SettingLayers({ cache, logger }),
    write: async (events) => {
      if (failWrites-- > 0) throw new Error('ClickHouse down');
      written.push(events);
    },
  });
  return {
    cache,
    catalog,
    evaluator,
    written,
    failNextWrite: () => {
      failWrites = 1;
    },
  };
}

// a 1 km circle at (lat 0, lon 36)
const circle = fenceRow(1, 'CIRCLE (0 36, 1000)');

describe('PositionEvaluator', () => {
  it('enters, exits with the dwell, and keeps the inside-set in step', async () => {
    const { evaluator, cache } = setup([circle]);
    const entered = await evaluator.handle([fix(7, 0, 0.05, 36), fix(7, 30, 0.001, 36)]);
    expect(entered.map((e) => [e.type, e.geofenceId, e.eventTime, e.positionId])).toEqual([
      ['geofenceEnter', '1', new Date(T0 + 30_000).toISOString(), positionId(7, T0 + 30_000)],
    ]);
    expect(await readInside(cache, 1)).toEqual([{ deviceId: 7, entry: { enteredAt: T0 + 30_000, companyId: null } }]);
    const exited = await evaluator.handle([fix(7, 90, 0.05, 36)]);
    expect(exited).toMatchObject([
      { type: 'geofenceExit', attributes: { dwellSeconds: 60, enteredAt: new Date(T0 + 30_000).toISOString() } },
    ]);
    expect(await readInside(cache, 1)).toEqual([]);
  });

  it('ignores invalid fixes, fixes from the far future, and redelivered fixes', async () => {
    const { evaluator, cache } = setup([circle]);
    expect(await evaluator.handle([fix(8, 0, 0, 36, { valid: false })])).toEqual([]);
    const future = fix(8, 0, 0, 36, { serverTime: new Date(T0 - 2 * 86_400_000).toISOString() });
    expect(await evaluator.handle([future])).toEqual([]);
    expect(await cache.get(geofenceKeys.deviceState(8))).toBeNull();
    expect(await evaluator.handle([fix(8, 10, 0, 36)])).toHaveLength(1);
    expect(await evaluator.handle([fix(8, 10, 0, 36), fix(8, 5, 0.05, 36)])).toEqual([]);
  });

  it('saves no state when storing the events fails, so the redelivered batch gives the same events', async () => {
    const { evaluator, cache, written, failNextWrite } = setup([circle]);
    failNextWrite();
    await expect(evaluator.handle([fix(9, 0, 0, 36)])).rejects.toThrow('ClickHouse down');
    expect(await cache.get(geofenceKeys.deviceState(9))).toBeNull();
    const again = await evaluator.handle([fix(9, 0, 0, 36)]);
    expect(again.map((e) => e.id)).toEqual([`9-geofenceEnter-1-${T0}`]);
    expect(written).toHaveLength(1);
  });

  it('starts afresh from an unreadable state', async () => {
    const { evaluator, cache } = setup([circle]);
    await cache.set(geofenceKeys.deviceState(10), '{not json');
    expect(await evaluator.handle([fix(10, 0, 0, 36)])).toHaveLength(1);
  });

  it('applies linked fences to their device or group only, with the group from the registry cache', async () => {
    const links: GeofenceLinkRow[] = [
      { id: 1, geofenceId: 2, deviceId: 11, groupId: null, createdAt: new Date(T0) },
      { id: 2, geofenceId: 3, deviceId: null, groupId: 5, createdAt: new Date(T0) },
    ];
    const { evaluator, cache } = setup(
      [fenceRow(2, 'CIRCLE (0 36, 1000)', {}, null, 'other'), fenceRow(3, 'CIRCLE (0 36, 1000)', {}, null, 'other')],
      links,
    );
    await cache.set(
      'device:uid:imei-12',
      JSON.stringify({
        id: 12,
        uniqueId: 'imei-12',
        name: 'x',
        disabled: false,
        companyId: 4,
        groupId: 5,
        status: 'online',
        deleted: false,
      }),
    );
    const events = await evaluator.handle([fix(11, 0, 0, 36), fix(12, 0, 0, 36), fix(13, 0, 0, 36)]);
    expect(events.map((e) => [e.deviceId, e.geofenceId, e.attributes.companyId])).toEqual([
      [11, '2', undefined],
      [12, '3', 4],
    ]);
  });

  it("applies an association fence to every truck, a user's fence only through its links (device, group or a parent group)", async () => {
    const t = new Date(T0);
    const links: GeofenceLinkRow[] = [
      { id: 1, geofenceId: 4, deviceId: null, groupId: 50, createdAt: t },
      { id: 2, geofenceId: 5, deviceId: 22, groupId: null, createdAt: t },
    ];
    const { evaluator, cache } = setup(
      [
        { ...fenceRow(2, 'CIRCLE (0 36, 1000)', {}, null, 'inland_depot'), companyId: 4 }, // a company's depot, unlinked: none
        fenceRow(3, 'CIRCLE (0 36, 1000)', {}, null, 'border_post'), // the association's: all
        fenceRow(4, 'CIRCLE (0 36, 1000)', {}, null, 'other'), // linked to group 50, the parent of group 51
        fenceRow(5, 'CIRCLE (0 36, 1000)', {}, null, 'other'), // linked to device 22
        fenceRow(6, 'CIRCLE (0 36, 1000)', {}, null, 'other'), // drawn, never linked: none
      ],
      links,
    );
    await cache.set(
      cacheKeys.groups(),
      JSON.stringify([
        { id: 51, companyId: 4, groupId: 50 },
        { id: 50, companyId: 4, groupId: null },
      ]),
    );
    for (const [id, companyId, groupId] of [
      [21, 4, 51],
      [22, 9, null],
    ] as const) {
      await cache.set(
        `device:uid:imei-${id}`,
        JSON.stringify({ id, uniqueId: `imei-${id}`, name: 'x', disabled: false, companyId, groupId, status: 'online', deleted: false }),
      );
    }
    const events = await evaluator.handle([fix(21, 0, 0, 36), fix(22, 0, 0, 36)]);
    expect(events.map((e) => [e.deviceId, e.geofenceId]).sort()).toEqual([
      [21, '3'],
      [21, '4'],
      [22, '3'],
      [22, '5'],
    ]);
  });

  it("uses each fence's minimal dwell and exit margin", async () => {
    const { evaluator } = setup([fenceRow(4, 'CIRCLE (0 36, 1000)', { minDwellSeconds: 60, exitMarginMeters: 200 })]);
    const lat = (m: number) => (m / 6_378_137) * (180 / Math.PI);
    expect(await evaluator.handle([fix(14, 0, 0, 36), fix(14, 30, 0, 36)])).toEqual([]);
    expect(await evaluator.handle([fix(14, 60, 0, 36)])).toMatchObject([{ type: 'geofenceEnter', eventTime: new Date(T0).toISOString() }]);
    expect(await evaluator.handle([fix(14, 90, lat(1150), 36)])).toEqual([]); // 150 m outside: within the margin
    expect(await evaluator.handle([fix(14, 120, lat(1250), 36)])).toMatchObject([
      { type: 'geofenceExit', attributes: { dwellSeconds: 120 } },
    ]);
  });

  describe('a fence bound to a calendar (Mon-Fri 08:00-17:00 in Nairobi)', () => {
    // Saturday 16 and Monday 18 May 2026, as epoch ms of 00:00 in Nairobi (UTC+3)
    const SAT = Date.parse('2026-05-15T21:00:00Z');
    const MON = Date.parse('2026-05-17T21:00:00Z');
    const H = 3600;
    const office = { id: 5, data: officeHoursIcs() };
    const yard = fenceRow(20, 'CIRCLE (0 36, 1000)', {}, office.id);
    const kinds = (events: EventMessage[]) => events.map((e) => [e.type, e.eventTime]);

    it('raises nothing on Saturday, and enters on Monday 09:00', async () => {
      const { evaluator } = setup([yard], [], [office]);
      expect(
        await evaluator.handle([
          fix(30, 9 * H, 0.05, 36, {}, SAT),
          fix(30, 9 * H + 60, 0, 36, {}, SAT),
          fix(30, 11 * H, 0.05, 36, {}, SAT),
        ]),
      ).toEqual([]);
      const monday = await evaluator.handle([fix(30, 9 * H - 60, 0.05, 36, {}, MON), fix(30, 9 * H, 0, 36, {}, MON)]);
      expect(kinds(monday)).toEqual([['geofenceEnter', new Date(MON + 9 * H * 1000).toISOString()]]);
      const out = await evaluator.handle([fix(30, 10 * H, 0.05, 36, {}, MON)]);
      expect(out).toMatchObject([{ type: 'geofenceExit', attributes: { dwellSeconds: H } }]);
    });

    it('forgets a device inside when the window closes (no exit), and enters it again when the window opens', async () => {
      const { evaluator, cache } = setup([yard], [], [office]);
      expect(await evaluator.handle([fix(31, 16 * H, 0, 36, {}, MON)])).toHaveLength(1);
      expect(await readInside(cache, 20)).toHaveLength(1);
      // parked overnight, leaves at 06:00 Tuesday, before the window opens
      expect(
        await evaluator.handle([fix(31, 17 * H, 0, 36, {}, MON), fix(31, 23 * H, 0, 36, {}, MON), fix(31, 30 * H, 0.05, 36, {}, MON)]),
      ).toEqual([]);
      expect(await readInside(cache, 20)).toEqual([]);
      // back at 07:30, still inside when the window opens at 08:00: one enter, at the first fix inside the window
      const tuesday = await evaluator.handle([
        fix(31, 31.5 * H, 0, 36, {}, MON),
        fix(31, 32 * H + 30, 0, 36, {}, MON),
        fix(31, 33 * H, 0, 36, {}, MON),
      ]);
      expect(kinds(tuesday)).toEqual([['geofenceEnter', new Date(MON + (32 * H + 30) * 1000).toISOString()]]);
    });

    it('leaves fences without a calendar alone, and counts a fence whose calendar is unknown as active', async () => {
      const { evaluator } = setup([yard, fenceRow(21, 'CIRCLE (0 36, 1000)'), fenceRow(22, 'CIRCLE (0 36, 1000)', {}, 404)], [], [office]);
      const events = await evaluator.handle([fix(32, 9 * H, 0, 36, {}, SAT)]);
      expect(events.map((e) => e.geofenceId)).toEqual(['21', '22']);
    });

    it('does not read calendars while no fence has one', async () => {
      const { evaluator, cache } = setup([circle]);
      let reads = 0;
      const get = cache.get.bind(cache);
      cache.get = async (key: string) => {
        if (key === cacheKeys.calendars()) reads++;
        return get(key);
      };
      await evaluator.handle([fix(33, 0, 0, 36)]);
      expect(reads).toBe(0);
    });
  });

  describe('geofenceCrossed (event.geofence.segmentCrossing)', () => {
    // the 1 km circle at (0, 36), a polygon east of it and a corridor north of it, none containing (0.02, 35.98) or (0.02, 36.04)
    const square = fenceRow(40, 'POLYGON ((-0.01 36.02, 0.01 36.02, 0.01 36.03, -0.01 36.03))');
    const corridor = fenceRow(41, 'LINESTRING (0.05 35.9, 0.05 36.1)', { polylineDistance: 100 });
    const on = { 'event.geofence.segmentCrossing': true };
    const device = (id: number, attributes: Record<string, unknown>, groupId: number | null = null) =>
      JSON.stringify({
        id,
        uniqueId: `imei-${id}`,
        name: 'x',
        disabled: false,
        companyId: null,
        groupId,
        status: 'online',
        deleted: false,
        attributes,
      });
    const crossings = (events: EventMessage[]) => events.map((e) => [e.type, e.geofenceId]);

    it('is off by default: a jump straight across a fence gives nothing', async () => {
      const { evaluator } = setup([circle]);
      expect(await evaluator.handle([fix(50, 0, 0, 35.98), fix(50, 60, 0, 36.02)])).toEqual([]);
    });

    it('with the server setting: a crossing of a circle, a polygon and a corridor, at the new fix', async () => {
      const { evaluator, cache } = setup([circle, square, corridor]);
      await cache.set(cacheKeys.serverAttributes(), JSON.stringify([on]));
      // west to east along the equator: through the circle and the polygon
      const first = await evaluator.handle([fix(51, 0, 0, 35.98), fix(51, 60, 0, 36.04)]);
      expect(first.map((e) => [e.type, e.geofenceId, e.eventTime, e.positionId, e.latitude, e.longitude])).toEqual([
        ['geofenceCrossed', '1', new Date(T0 + 60_000).toISOString(), positionId(51, T0 + 60_000), 0, 36.04],
        ['geofenceCrossed', '40', new Date(T0 + 60_000).toISOString(), positionId(51, T0 + 60_000), 0, 36.04],
      ]);
      expect(first[0]!.id).toBe(`51-geofenceCrossed-1-${T0 + 60_000}`);
      expect(first[0]!.attributes).toMatchObject({ geofenceName: 'fence 1' });
      // north across the corridor, clear of the circle
      expect(crossings(await evaluator.handle([fix(51, 120, 0.1, 36.04)]))).toEqual([['geofenceCrossed', '41']]);
      // redelivered: nothing again
      expect(await evaluator.handle([fix(51, 60, 0, 36.04), fix(51, 120, 0.1, 36.04)])).toEqual([]);
    });

    it('a segment that only touches the circle counts; one that passes beside it does not', async () => {
      const { evaluator, cache } = setup([circle]);
      await cache.set(cacheKeys.serverAttributes(), JSON.stringify([on]));
      const r = (m: number) => (m / 6_378_137) * (180 / Math.PI);
      expect(crossings(await evaluator.handle([fix(52, 0, r(1000), 35.98), fix(52, 60, r(1000), 36.02)]))).toEqual([
        ['geofenceCrossed', '1'],
      ]);
      expect(await evaluator.handle([fix(52, 120, r(1001), 35.98), fix(52, 180, r(1001), 36.02)])).toEqual([]);
    });

    it('looked up on the device, then its group chain, then the server', async () => {
      const { evaluator, cache } = setup([circle]);
      await cache.set(cacheKeys.serverAttributes(), JSON.stringify([{ 'event.geofence.segmentCrossing': 'false' }]));
      await cache.set(
        cacheKeys.groups(),
        JSON.stringify([
          { id: 8, companyId: null, groupId: 9, attributes: {} },
          { id: 9, companyId: null, groupId: null, attributes: on },
        ]),
      );
      await cache.set('device:uid:imei-53', device(53, on)); // the device's own setting
      await cache.set('device:uid:imei-54', device(54, {}, 8)); // its group's parent's
      await cache.set('device:uid:imei-55', device(55, { 'event.geofence.segmentCrossing': false }, 8)); // the device's wins
      await cache.set('device:uid:imei-56', device(56, {})); // the server's: off
      const across = (id: number) => [fix(id, 0, 0, 35.98), fix(id, 60, 0, 36.02)];
      const events = await evaluator.handle([53, 54, 55, 56].flatMap(across));
      expect(events.map((e) => [e.deviceId, e.type])).toEqual([
        [53, 'geofenceCrossed'],
        [54, 'geofenceCrossed'],
      ]);
    });

    it('leaves enter and exit alone: a fix inside gives enter and exit, no crossing; exits come first, then crossings, then enters', async () => {
      const east = fenceRow(42, 'CIRCLE (0 36.05, 1000)');
      const { evaluator, cache } = setup([circle, east, square]);
      await cache.set(cacheKeys.serverAttributes(), JSON.stringify([on]));
      expect(crossings(await evaluator.handle([fix(57, 0, 0, 35.98), fix(57, 60, 0, 36), fix(57, 120, 0, 36.015)]))).toEqual([
        ['geofenceEnter', '1'],
        ['geofenceExit', '1'],
      ]);
      // from the west circle's edge region: out of nothing, across the polygon, into the east circle
      expect(crossings(await evaluator.handle([fix(57, 180, 0, 36.05)]))).toEqual([
        ['geofenceCrossed', '40'],
        ['geofenceEnter', '42'],
      ]);
      // from inside the east circle back across the polygon and the west circle
      expect(crossings(await evaluator.handle([fix(57, 240, 0, 35.98)]))).toEqual([
        ['geofenceExit', '42'],
        ['geofenceCrossed', '1'],
        ['geofenceCrossed', '40'],
      ]);
    });

    it('a state saved before crossings (no place of the last fix) crosses nothing at the next fix, then from there on', async () => {
      const { evaluator, cache } = setup([circle]);
      await cache.set(cacheKeys.serverAttributes(), JSON.stringify([on]));
      await cache.set(geofenceKeys.deviceState(59), JSON.stringify({ v: 1, lastFixTime: T0, fences: {} }));
      expect(await evaluator.handle([fix(59, 60, 0, 36.02)])).toEqual([]);
      expect(crossings(await evaluator.handle([fix(59, 120, 0, 35.98)]))).toEqual([['geofenceCrossed', '1']]);
    });

    it('no crossing of a fence the device is still a member of (within its exit margin), nor of a fence not linked to it', async () => {
      const margin = fenceRow(43, 'CIRCLE (0 36, 1000)', { exitMarginMeters: 500 });
      const linked = fenceRow(44, 'CIRCLE (0 36, 1000)', {}, null, 'other'); // a user's fence, linked to another device
      const links: GeofenceLinkRow[] = [{ id: 9, geofenceId: 44, deviceId: 999, groupId: null, createdAt: new Date(T0) }];
      const { evaluator, cache } = setup([margin, linked], links);
      await cache.set(cacheKeys.serverAttributes(), JSON.stringify([on]));
      const r = (m: number) => (m / 6_378_137) * (180 / Math.PI);
      expect(crossings(await evaluator.handle([fix(58, 0, 0, 36)]))).toEqual([['geofenceEnter', '43']]);
      expect(await evaluator.handle([fix(58, 60, 0, 36 - r(1200))])).toEqual([]); // 200 m out: within the margin
      // across the circle to 200 m out on the other side: still a member, no crossing and no exit
      expect(await evaluator.handle([fix(58, 120, 0, 36 + r(1200))])).toEqual([]);
      expect(crossings(await evaluator.handle([fix(58, 180, 0, 36.05)]))).toEqual([['geofenceExit', '43']]);
    });
  });
});
