import { afterAll, describe, expect, it } from 'vitest';
import { parsePositionId, positionId, type PositionMessage } from '@corridor/contracts';
import type { Analytics } from '../src/adapters/analytics';
import { countPositions, ensurePositionsTable, insertPositions, queryPositionHistory, queryPositionsById } from '../src/clickhouse/positions';
import { ensureEventsTable, insertEvents, queryEvents } from '../src/clickhouse/events';
import { analyticsVariants, uniqueName } from './adapter-variants';

const database = uniqueName('contract');
const variants = await analyticsVariants(database);

const pos = (deviceId: number, t: string, lat = -1.29): PositionMessage => ({
  id: positionId(deviceId, t), deviceId, uniqueId: `dev${deviceId}`, protocol: 'osmand', fixTime: t,
  serverTime: new Date().toISOString(), valid: true, latitude: lat, longitude: 36.82, speed: 30, course: 45, altitude: 1650,
  accuracy: 5, satellites: 9, hdop: 0.9, ignition: true, odometer: 1000, power: 24.1, battery: null, alarm: null,
  crcValid: true, rawFrameId: null, attributes: { fuel: 42 },
});

describe.each(variants)('Analytics contract: $name', ({ create }) => {
  let ch: Analytics;
  afterAll(async () => { await ch?.close(); });

  it('stores positions and returns a history in order, duplicates collapsed', async () => {
    ch = await create();
    await ensurePositionsTable(ch);
    const ps = [pos(1, '2026-03-01T10:00:02.000Z'), pos(1, '2026-03-01T10:00:00.000Z'), pos(2, '2026-03-01T10:00:01.000Z')];
    await insertPositions(ch)(ps);
    await insertPositions(ch)([ps[0]!]); // redelivery
    const history = await queryPositionHistory(ch)({ deviceIds: [1], from: new Date('2026-03-01T00:00:00Z'), to: new Date('2026-03-02T00:00:00Z'), limit: 100 });
    expect(history.map((p) => p.fixTime)).toEqual(['2026-03-01T10:00:00.000Z', '2026-03-01T10:00:02.000Z']);
    expect(history[0]).toMatchObject({ deviceId: 1, uniqueId: 'dev1', latitude: -1.29, speed: 30, ignition: true, attributes: { fuel: 42 } });
    expect(await countPositions(ch)([1, 2])).toBe(3);
    expect((await queryPositionsById(ch)([ps[0]!.id, positionId(2, '2026-03-01T10:00:01.000Z'), positionId(2, '2026-03-01T10:00:05Z')])).map((p) => p.id))
      .toEqual([ps[0]!.id, positionId(2, '2026-03-01T10:00:01.000Z')]);
  });

  it('keeps a state record and a fix of the same second apart, and stores fix times to the second', async () => {
    const fix = pos(3, '2026-03-01T12:00:00.000Z');
    const state = { ...pos(3, '2026-03-01T12:00:00.000Z'), id: positionId(3, '2026-03-01T12:00:00.000Z', 'state'), valid: false, attributes: { outdated: true, batteryLevel: 70 } };
    await insertPositions(ch)([fix, state, { ...pos(3, '2026-03-01T12:00:07.450Z'), id: positionId(3, '2026-03-01T12:00:07Z') }]);
    const history = await queryPositionHistory(ch)({ deviceIds: [3], from: new Date('2026-03-01T12:00:00Z'), to: new Date('2026-03-01T13:00:00Z'), limit: 10 });
    expect(history.map((p) => [p.fixTime, parsePositionId(p.id)?.kind])).toEqual([
      ['2026-03-01T12:00:00.000Z', 'fix'], ['2026-03-01T12:00:00.000Z', 'state'], ['2026-03-01T12:00:07.000Z', 'fix'],
    ]);
  });

  it('migrates a positions table and an events table from string position ids', async () => {
    const legacy = await create();
    const db = `${legacy.database}`;
    const t = Date.parse('2026-02-01T08:00:00.250Z');
    await legacy.client.command({ query: `DROP TABLE IF EXISTS ${db}.positions` });
    await legacy.client.command({ query: `DROP TABLE IF EXISTS ${db}.events` });
    await legacy.client.command({ query: `CREATE TABLE ${db}.positions (id String, device_id UInt64, unique_id String, protocol LowCardinality(String),
      fix_time DateTime64(3, 'UTC'), device_time DateTime64(3, 'UTC'), server_time DateTime64(3, 'UTC'), valid Bool, latitude Float64, longitude Float64,
      speed Float32, course Float32, altitude Nullable(Float32), accuracy Nullable(Float32), satellites Nullable(UInt16), hdop Nullable(Float32),
      ignition Nullable(Bool), odometer Nullable(Float64), power Nullable(Float32), battery Nullable(Float32), alarm Nullable(String), crc_valid Bool,
      raw_frame_id Nullable(String), attributes String) ENGINE = ReplacingMergeTree(server_time) PARTITION BY toYYYYMM(fix_time) ORDER BY (device_id, fix_time)` });
    const chTime = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
    await legacy.client.insert({ table: `${db}.positions`, format: 'JSONEachRow', values: [0, 60_000].map((dt) => ({
      id: `5-${t + dt}`, device_id: 5, unique_id: 'dev5', protocol: 'gt06', fix_time: chTime(t + dt), device_time: chTime(t + dt), server_time: chTime(t + dt),
      valid: true, latitude: -1, longitude: 36, speed: 0, course: 0, altitude: null, accuracy: null, satellites: null, hdop: null, ignition: null,
      odometer: null, power: null, battery: null, alarm: null, crc_valid: true, raw_frame_id: null, attributes: '{}',
    })) });
    await legacy.client.command({ query: `CREATE TABLE ${db}.events (id String, type LowCardinality(String), event_time DateTime64(3, 'UTC'), device_id UInt64,
      position_id Nullable(String), journey_id Nullable(String), geofence_id Nullable(String), latitude Nullable(Float64), longitude Nullable(Float64),
      attributes String, inserted_at DateTime64(3, 'UTC') DEFAULT now64(3)) ENGINE = ReplacingMergeTree(inserted_at) PARTITION BY toYYYYMM(event_time)
      ORDER BY (device_id, event_time, id)` });
    await legacy.client.insert({ table: `${db}.events`, format: 'JSONEachRow', values: [
      { id: 'g1', type: 'geofenceEnter', event_time: chTime(t), device_id: 5, position_id: `5-${t}`, journey_id: null, geofence_id: '9', latitude: -1, longitude: 36, attributes: '{}' },
      { id: 'a1', type: 'alarm', event_time: chTime(t), device_id: 5, position_id: null, journey_id: null, geofence_id: null, latitude: null, longitude: null, attributes: '{}' },
    ] });
    await Promise.all([ensurePositionsTable(legacy), ensurePositionsTable(legacy)]); // two services starting at once
    await ensureEventsTable(legacy);
    const history = await queryPositionHistory(legacy)({ deviceIds: [5], from: new Date(t - 1000), to: new Date(t + 3600_000), limit: 10 });
    expect(history.map((p) => [p.id, p.fixTime])).toEqual([
      [positionId(5, t), '2026-02-01T08:00:00.000Z'], [positionId(5, t + 60_000), '2026-02-01T08:01:00.000Z'],
    ]);
    const events = await queryEvents(legacy)({ deviceIds: [5], from: new Date(t - 1000), to: new Date(t + 1000), limit: 10 });
    expect(events.map((e) => [e.id, e.positionId])).toEqual([['a1', null], ['g1', positionId(5, t)]]);
    const rs = await legacy.client.query({ query: `SELECT name FROM system.tables WHERE database = '${db}' AND name LIKE '%legacy%'`, format: 'JSONEachRow' });
    expect(await rs.json()).toEqual([]);
    await legacy.close();
  });

  it('stores events and filters them by type and period', async () => {
    await ensureEventsTable(ch);
    await insertEvents(ch)([
      { id: 'e1', type: 'alarm', eventTime: '2026-03-01T10:00:00.000Z', deviceId: 1, positionId: null, journeyId: null, geofenceId: null, latitude: null, longitude: null, attributes: { alarm: 'sos' } },
      { id: 'e2', type: 'geofenceEnter', eventTime: '2026-03-01T11:00:00.000Z', deviceId: 1, positionId: null, journeyId: null, geofenceId: '7', latitude: -1, longitude: 36, attributes: {} },
    ]);
    const alarms = await queryEvents(ch)({ deviceIds: [1], from: new Date('2026-03-01T00:00:00Z'), to: new Date('2026-03-02T00:00:00Z'), types: ['alarm'], limit: 10 });
    expect(alarms).toHaveLength(1);
    expect(alarms[0]).toMatchObject({ id: 'e1', attributes: { alarm: 'sos' } });
    const all = await queryEvents(ch)({ deviceIds: [1], from: new Date('2026-03-01T00:00:00Z'), to: new Date('2026-03-02T00:00:00Z'), limit: 10 });
    expect(all.map((e) => e.id)).toEqual(['e1', 'e2']);
  });
});
