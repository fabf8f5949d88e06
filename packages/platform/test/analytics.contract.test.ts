import { afterAll, describe, expect, it } from 'vitest';
import { parsePositionId, positionId, type PositionMessage } from '@corridor/contracts';
import type { Analytics } from '../src/adapters/analytics';
import { countPositions, insertPositions, queryPositionHistory, queryPositionsById } from '../src/clickhouse/positions';
import { insertEvents, queryEvents } from '../src/clickhouse/events';
import { migrateAnalytics } from '../src/clickhouse/migrate';
import { analyticsVariants, uniqueName } from './adapter-variants';

const database = uniqueName('contract');
const variants = await analyticsVariants(database);

const pos = (deviceId: number, t: string, lat = -1.29): PositionMessage => ({
  id: positionId(deviceId, t),
  deviceId,
  uniqueId: `dev${deviceId}`,
  protocol: 'osmand',
  fixTime: t,
  serverTime: new Date().toISOString(),
  valid: true,
  latitude: lat,
  longitude: 36.82,
  speed: 30,
  course: 45,
  altitude: 1650,
  accuracy: 5,
  satellites: 9,
  hdop: 0.9,
  ignition: true,
  odometer: 1000,
  power: 24.1,
  battery: null,
  alarm: null,
  crcValid: true,
  rawFrameId: null,
  attributes: { fuel: 42 },
});

describe.each(variants)('Analytics contract: $name', ({ create }) => {
  let ch: Analytics;
  afterAll(async () => {
    await ch?.close();
  });

  it('stores positions and returns a history in order, duplicates collapsed', async () => {
    ch = await create();
    await migrateAnalytics(ch);
    const ps = [pos(1, '2026-03-01T10:00:02.000Z'), pos(1, '2026-03-01T10:00:00.000Z'), pos(2, '2026-03-01T10:00:01.000Z')];
    await insertPositions(ch)(ps);
    await insertPositions(ch)([ps[0]!]); // redelivery
    const history = await queryPositionHistory(ch)({
      deviceIds: [1],
      from: new Date('2026-03-01T00:00:00Z'),
      to: new Date('2026-03-02T00:00:00Z'),
      limit: 100,
    });
    expect(history.map((p) => p.fixTime)).toEqual(['2026-03-01T10:00:00.000Z', '2026-03-01T10:00:02.000Z']);
    expect(history[0]).toMatchObject({
      deviceId: 1,
      uniqueId: 'dev1',
      latitude: -1.29,
      speed: 30,
      ignition: true,
      attributes: { fuel: 42 },
    });
    expect(await countPositions(ch)([1, 2])).toBe(3);
    expect(
      (await queryPositionsById(ch)([ps[0]!.id, positionId(2, '2026-03-01T10:00:01.000Z'), positionId(2, '2026-03-01T10:00:05Z')])).map(
        (p) => p.id,
      ),
    ).toEqual([ps[0]!.id, positionId(2, '2026-03-01T10:00:01.000Z')]);
  });

  it('keeps a state record and a fix of the same second apart, and stores fix times to the second', async () => {
    const fix = pos(3, '2026-03-01T12:00:00.000Z');
    const state = {
      ...pos(3, '2026-03-01T12:00:00.000Z'),
      id: positionId(3, '2026-03-01T12:00:00.000Z', 'state'),
      valid: false,
      attributes: { outdated: true, batteryLevel: 70 },
    };
    await insertPositions(ch)([fix, state, { ...pos(3, '2026-03-01T12:00:07.450Z'), id: positionId(3, '2026-03-01T12:00:07Z') }]);
    const history = await queryPositionHistory(ch)({
      deviceIds: [3],
      from: new Date('2026-03-01T12:00:00Z'),
      to: new Date('2026-03-01T13:00:00Z'),
      limit: 10,
    });
    expect(history.map((p) => [p.fixTime, parsePositionId(p.id)?.kind])).toEqual([
      ['2026-03-01T12:00:00.000Z', 'fix'],
      ['2026-03-01T12:00:00.000Z', 'state'],
      ['2026-03-01T12:00:07.000Z', 'fix'],
    ]);
  });

  it('stores every field of a position the same in the compact rows as in the row objects of before', async () => {
    // edge cases of the text: quotes, tabs, newlines and non-ASCII in strings, an offset time, sub-second
    // device and server times, no deviceTime (stored as the fix time), nulls and zeros, a failed checksum
    const full = (deviceId: number): PositionMessage => ({
      ...pos(deviceId, '2026-03-01T15:00:09.999+03:00', -89.999999),
      uniqueId: `imei"\t\n\\${deviceId}é`,
      protocol: 'gt06',
      deviceTime: '2026-03-01T11:59:58.123Z',
      serverTime: '2026-03-01T12:00:10.456Z',
      valid: false,
      longitude: 179.123456789,
      speed: 868.5,
      course: 359.9,
      altitude: -12.5,
      accuracy: 0,
      satellites: 0,
      hdop: null,
      ignition: false,
      odometer: 123456789.25,
      power: null,
      battery: 3.7,
      alarm: 'sos "now"',
      crcValid: false,
      rawFrameId: 'gt06:2026-03-01:42',
      attributes: { text: 'line\n"quoted"\ttab \u{1F69A}', n: 1.5, flag: true, clockAhead: 0 },
    });
    const bare = (deviceId: number): PositionMessage => {
      const { deviceTime: _unused, ...p } = {
        ...pos(deviceId, '2026-03-01T12:00:00Z'),
        serverTime: '2026-03-01T12:00:01Z',
        altitude: null,
        accuracy: null,
        satellites: null,
        ignition: null,
        odometer: null,
        alarm: null,
        attributes: {},
      };
      return p;
    };
    const read = (ids: number[]) =>
      queryPositionHistory(ch)({ deviceIds: ids, from: new Date('2026-03-01T00:00:00Z'), to: new Date('2026-03-02T00:00:00Z'), limit: 10 });
    await insertPositions(ch, 'objects')([full(11), bare(12)]);
    await insertPositions(ch, 'compact')([full(13), bare(14)]);
    const before = await read([11, 12]);
    const after = await read([13, 14]);
    expect(before).toHaveLength(2);
    // the same rows but for the device (its id, its unique id and the position id that holds it)
    const withoutDevice = ({ id: _id, deviceId: _d, uniqueId: _u, ...rest }: PositionMessage) => rest;
    expect(after.map(withoutDevice)).toEqual(before.map(withoutDevice));
    expect(after.map((p) => p.id)).toEqual([full(13).id, bare(14).id]);
    // every field as written: the fix time to the second in UTC, a missing device time as the fix time
    expect(after[0]).toEqual({ ...full(13), fixTime: '2026-03-01T12:00:09.000Z' });
    expect(after[1]).toEqual({
      ...bare(14),
      fixTime: '2026-03-01T12:00:00.000Z',
      deviceTime: '2026-03-01T12:00:00.000Z',
      serverTime: '2026-03-01T12:00:01.000Z',
    });
  });

  it('stores events and filters them by type and period', async () => {
    await insertEvents(ch)([
      {
        id: 'e1',
        type: 'alarm',
        eventTime: '2026-03-01T10:00:00.000Z',
        deviceId: 1,
        positionId: null,
        journeyId: null,
        geofenceId: null,
        latitude: null,
        longitude: null,
        attributes: { alarm: 'sos' },
      },
      {
        id: 'e2',
        type: 'geofenceEnter',
        eventTime: '2026-03-01T11:00:00.000Z',
        deviceId: 1,
        positionId: null,
        journeyId: null,
        geofenceId: '7',
        latitude: -1,
        longitude: 36,
        attributes: {},
      },
    ]);
    const alarms = await queryEvents(ch)({
      deviceIds: [1],
      from: new Date('2026-03-01T00:00:00Z'),
      to: new Date('2026-03-02T00:00:00Z'),
      types: ['alarm'],
      limit: 10,
    });
    expect(alarms).toHaveLength(1);
    expect(alarms[0]).toMatchObject({ id: 'e1', attributes: { alarm: 'sos' } });
    const all = await queryEvents(ch)({
      deviceIds: [1],
      from: new Date('2026-03-01T00:00:00Z'),
      to: new Date('2026-03-02T00:00:00Z'),
      limit: 10,
    });
    expect(all.map((e) => e.id)).toEqual(['e1', 'e2']);
  });
});
