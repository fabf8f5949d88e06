import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DeviceRegistryMessage,
  EventMessage,
  GeofenceDefinitionMessage,
  positionId,
  Topics,
  type Device,
  type DeviceSessionMessage,
  type PositionMessage,
} from '@corridor/contracts';
import { cacheKeys, queryEvents, type ConsumedMessage, type Identity, type Subscription } from '@corridor/platform';
import { testUsers } from '@corridor/platform/testing/identity';
import { deviceStateSettingsFrom } from '../src/device-state/settings';
import { onPosition } from '../src/device-state/status';
import { dispatcherOf, startHarness, type Harness } from './tracking-harness';
import { eventually } from '@corridor/platform/testing/eventually';

/**
 * Device status end to end on the service's consumers: positions.v1 and device-status.v1 in,
 * status / lastUpdate / positionId out on GET /devices, PostgreSQL (the status filter) and
 * devices.v1, with deviceOnline / deviceOffline / deviceUnknown events in ClickHouse and on events.v1.
 */
let h: Harness;
let subs: Subscription[] = [];
const registry: DeviceRegistryMessage[] = [];
const events: EventMessage[] = [];
let truck: Device;
let tracker: Device;
let van: Device;
const TIMEOUT_S = 2;

const position = (d: Device, at: Date, o: Partial<PositionMessage> = {}): PositionMessage => ({
  id: positionId(d.id, at),
  deviceId: d.id,
  uniqueId: d.uniqueId,
  protocol: 'osmand',
  fixTime: at.toISOString(),
  serverTime: new Date().toISOString(),
  valid: true,
  latitude: -1.29,
  longitude: 36.82,
  speed: 0,
  course: 0,
  altitude: null,
  accuracy: null,
  satellites: null,
  hdop: null,
  ignition: null,
  odometer: null,
  power: null,
  battery: null,
  alarm: null,
  crcValid: true,
  rawFrameId: null,
  attributes: {},
  ...o,
});
const session = (d: Device, type: DeviceSessionMessage['type'], connectionId: string): DeviceSessionMessage => ({
  deviceId: d.id,
  uniqueId: d.uniqueId,
  type,
  connectionId,
  protocol: 'gt06',
  time: new Date().toISOString(),
});
const device = async (d: Device, user: Identity = testUsers.admin) => (await h.call(user, 'GET', `/api/devices/${d.id}`)).json<Device>();

beforeAll(async () => {
  h = await startHarness({
    deviceState: deviceStateSettingsFrom({ DEVICE_STATUS_TIMEOUT_S: TIMEOUT_S, DEVICE_STATE_PERSIST_S: 0, EVENT_SETTINGS_RELOAD_S: 0 }),
  });
  const mk = async (uniqueId: string, companyId: number) =>
    (await h.call(testUsers.admin, 'POST', '/api/devices', { name: `S-${uniqueId.slice(-2)}`, uniqueId, companyId })).json<Device>();
  truck = await mk('865000000000001', 101);
  tracker = await mk('865000000000002', 202);
  van = (
    await h.call(testUsers.admin, 'POST', '/api/devices', {
      name: 'S-van',
      uniqueId: '865000000000003',
      companyId: 101,
      attributes: { speedLimit: 50, 'report.trip.minimalTripDuration': 60 },
    })
  ).json<Device>();
  await h.svc.start();
  subs = [
    await h.adapters.bus.subscribe({
      groupId: 'device-state-test-registry',
      topics: [Topics.devices],
      fromBeginning: true,
      handler: async (msgs: ConsumedMessage[]) => void registry.push(...msgs.map((m) => DeviceRegistryMessage.parse(JSON.parse(m.value)))),
    }),
    await h.adapters.bus.subscribe({
      groupId: 'device-state-test-events',
      topics: [Topics.events],
      fromBeginning: true,
      handler: async (msgs: ConsumedMessage[]) => void events.push(...msgs.map((m) => EventMessage.parse(JSON.parse(m.value)))),
    }),
  ];
}, 120_000);
afterAll(async () => {
  for (const s of subs) await s.stop();
  await h?.close();
});

describe('device state', () => {
  it('is online with lastUpdate and positionId after a position, in GET /devices, PostgreSQL, devices.v1 and as a deviceOnline event', async () => {
    const p = position(truck, new Date(Date.now() - 5_000));
    await h.adapters.bus.publish(Topics.positions, [{ key: String(truck.id), value: p }]);
    const online = await eventually('the truck online', async () => {
      const d = await device(truck, dispatcherOf(101));
      return d.status === 'online' && d;
    });
    expect(online).toMatchObject({ lastUpdate: p.serverTime, positionId: p.id });
    const listed = (await h.call(testUsers.admin, 'GET', '/api/devices?status=online')).json<Device[]>();
    expect(listed.map((d) => d.id)).toContain(truck.id);
    const entry = await eventually('devices.v1 to say so', () => registry.find((e) => e.id === truck.id && e.status === 'online'));
    expect(entry).toMatchObject({
      uniqueId: truck.uniqueId,
      name: truck.name,
      positionId: p.id,
      lastUpdate: p.serverTime,
      companyId: 101,
      deleted: false,
    });
    const online1 = await eventually('the deviceOnline event', () =>
      events.find((e) => e.deviceId === truck.id && e.type === 'deviceOnline'),
    );
    const stored = await queryEvents(h.adapters.analytics)({
      deviceIds: [truck.id],
      from: new Date(Date.now() - 3600_000),
      to: new Date(Date.now() + 60_000),
      limit: 10,
    });
    expect(stored.map((e) => e.id)).toContain(online1.id);
  });

  it('becomes unknown when silent past DEVICE_STATUS_TIMEOUT_S, with a deviceUnknown event dated to the timeout', async () => {
    const before = await device(truck);
    const unknown = await eventually('the truck unknown', async () => {
      const d = await device(truck);
      return d.status === 'unknown' && d;
    });
    expect(unknown.lastUpdate).toBe(before.lastUpdate);
    const e = await eventually('the deviceUnknown event', () => events.find((x) => x.deviceId === truck.id && x.type === 'deviceUnknown'));
    expect(e.eventTime).toBe(new Date(Date.parse(before.lastUpdate!) + TIMEOUT_S * 1000).toISOString());
  });

  it('is online while a connection is open, offline when its last connection closes', async () => {
    await h.adapters.bus.publish(Topics.deviceStatus, [{ key: String(tracker.id), value: session(tracker, 'connected', 'i1:1') }]);
    await eventually('the tracker online', async () => (await device(tracker)).status === 'online');
    await h.adapters.bus.publish(Topics.deviceStatus, [
      { key: String(tracker.id), value: session(tracker, 'connected', 'i2:7') },
      { key: String(tracker.id), value: session(tracker, 'disconnected', 'i1:1') },
      { key: String(tracker.id), value: session(tracker, 'disconnected', 'i2:7') },
    ]);
    await eventually('the tracker offline', async () => (await device(tracker)).status === 'offline');
    const types = events.filter((e) => e.deviceId === tracker.id).map((e) => e.type);
    await eventually('the deviceOffline event', () => events.some((e) => e.deviceId === tracker.id && e.type === 'deviceOffline'));
    expect(types.filter((t) => t === 'deviceOnline')).toHaveLength(1);
    // another company does not see the tracker
    expect((await h.call(dispatcherOf(101), 'GET', `/api/devices/${tracker.id}`)).statusCode).toBe(404);
  });

  it('gives one deviceOnline per transition when the bus redelivers a batch', async () => {
    const p = position(truck, new Date(Date.now() - 1_000));
    const batch = [{ deviceId: truck.id, uniqueId: truck.uniqueId, apply: (s: Parameters<typeof onPosition>[0]) => onPosition(s, p) }];
    await h.svc.deviceState.apply(batch);
    await h.svc.deviceState.apply(batch); // redelivered
    const ids = await eventually('the second deviceOnline of the truck', () => {
      const online = events.filter((e) => e.deviceId === truck.id && e.type === 'deviceOnline').map((e) => e.id);
      return online.length >= 2 && online;
    });
    expect(new Set(ids).size).toBe(ids.length);
    expect((await device(truck)).status).toBe('online');
  });

  it("gives ignitionOn, deviceOverspeed (the device speedLimit) and deviceMoving (the trips report's motion state) from positions, in the events report too", async () => {
    const base = Date.now() - 600_000;
    // `total` metres east of the start (about 1.5 km by 100 s): the trip is back-dated to the fix it pulled away from
    const at = (s: number, speed: number, ignition: boolean, total: number) =>
      position(van, new Date(base + s * 1000), {
        speed,
        ignition,
        longitude: 36.82 + total / 111_320,
        attributes: { motion: speed > 0, totalDistance: total },
      });
    await h.adapters.bus.publish(
      Topics.positions,
      [at(0, 0, false, 0), at(10, 0, true, 0), at(20, 60, true, 0), at(100, 60, true, 1500)].map((p) => ({
        key: String(van.id),
        value: p,
      })),
    );
    const want = [
      ['ignitionOn', 10],
      ['deviceOverspeed', 20],
      ['deviceMoving', 20],
    ] as const;
    for (const [type, s] of want) {
      const e = await eventually(`${type} of the van`, () => events.find((x) => x.deviceId === van.id && x.type === type));
      expect(e).toMatchObject({ eventTime: new Date(base + s * 1000).toISOString(), positionId: positionId(van.id, base + s * 1000) });
    }
    expect(events.find((x) => x.deviceId === van.id && x.type === 'deviceOverspeed')!.attributes).toEqual({ speed: 60, speedLimit: 50 });
    const q = `deviceId=${van.id}&from=${new Date(base - 1000).toISOString()}&to=${new Date().toISOString()}`;
    const report = await eventually('the events report', async () => {
      const r = (await h.call(dispatcherOf(101), 'GET', `/api/reports/events?${q}`)).json<EventMessage[]>();
      return r.some((e) => e.type === 'deviceMoving') && r;
    });
    expect(report.map((e) => e.type)).toEqual(expect.arrayContaining(['deviceOnline', 'ignitionOn', 'deviceOverspeed', 'deviceMoving']));
    expect(events.filter((x) => x.deviceId === van.id && x.type === 'ignitionOff')).toEqual([]);
  });

  it('reads the event settings from the cache, a change applying from the next batch: a device limit, the server limit, a maintenance', async () => {
    const changed = await h.call(testUsers.admin, 'PUT', `/api/devices/${van.id}`, {
      name: van.name,
      uniqueId: van.uniqueId,
      companyId: 101,
      attributes: { speedLimit: 70, 'report.trip.minimalTripDuration': 60 },
    });
    expect(changed.statusCode).toBe(200);
    await h.adapters.cache.set(cacheKeys.serverAttributes(), JSON.stringify([{ speedLimit: 30 }])); // as the gateway publishes PUT /server
    const oil = await h.call(testUsers.admin, 'POST', '/api/maintenance', {
      name: 'Oil',
      type: 'totalDistance',
      start: 2000,
      period: 1000,
      companyId: 101,
    });
    expect(oil.statusCode).toBe(200);
    // a maintenance applies to the devices linked to it (Traccar): the truck, not the van
    const linked = await h.call(testUsers.admin, 'POST', '/api/links/objects', [
      { deviceId: truck.id, maintenanceId: oil.json<{ id: number }>().id },
    ]);
    expect(linked.statusCode, linked.body).toBe(204);
    const base = Date.now();
    const at = (d: Device, s: number, speed: number, total: number) =>
      position(d, new Date(base + s * 1000), { speed, attributes: { motion: speed > 0, totalDistance: total } });
    const send = (ps: PositionMessage[]) =>
      h.adapters.bus.publish(
        Topics.positions,
        ps.map((p) => ({ key: String(p.deviceId), value: p })),
      );
    await send([at(van, 1, 60, 1500), at(van, 2, 75, 1500)]);
    const vanOver = await eventually('the van over its new limit', () =>
      events.find((x) => x.deviceId === van.id && x.type === 'deviceOverspeed' && x.attributes.speedLimit === 70),
    );
    expect(vanOver).toMatchObject({ attributes: { speed: 75, speedLimit: 70 }, positionId: positionId(van.id, base + 2000) }); // 60 was under 70
    await send([at(truck, 1, 20, 1500), at(truck, 2, 40, 2500), at(truck, 3, 40, 2600)]);
    const truckOver = await eventually('the truck over the server limit', () =>
      events.find((x) => x.deviceId === truck.id && x.type === 'deviceOverspeed'),
    );
    expect(truckOver.attributes).toEqual({ speed: 40, speedLimit: 30 });
    const due = await eventually('the truck maintenance', () => events.find((x) => x.deviceId === truck.id && x.type === 'maintenance'));
    expect(due).toMatchObject({
      positionId: positionId(truck.id, base + 2000),
      attributes: { maintenanceId: oil.json<{ id: number }>().id, maintenanceName: 'Oil', totalDistance: 2500 },
    });
    await send([at(truck, 2, 40, 2500)]); // redelivered
    await send([at(truck, 4, 0, 2700)]);
    await eventually('the last truck fix processed', async () => (await device(truck)).positionId === positionId(truck.id, base + 4000));
    expect(events.filter((x) => x.deviceId === truck.id && x.type === 'maintenance')).toHaveLength(1);
    // the van crosses 2,000 m too, unlinked: no maintenance event
    await send([at(van, 3, 0, 2600)]);
    await eventually('the van fix processed', async () => (await device(van)).positionId === positionId(van.id, base + 3000));
    expect(events.filter((x) => x.deviceId === van.id && x.type === 'maintenance')).toEqual([]);
  });

  it('takes the speed limit of a geofence containing the fix (geofences.v1), over the device limit, with the geofenceId', async () => {
    const yard = GeofenceDefinitionMessage.parse({
      id: 9001,
      name: 'Depot',
      description: null,
      area: 'CIRCLE (-1.29 36.82, 500)',
      calendarId: null,
      kind: 'other',
      country: null,
      companyId: 101,
      attributes: { speedLimit: 40 },
      links: { deviceIds: [van.id], groupIds: [] },
      shape: { kind: 'circle', center: [36.82, -1.29], radius: 500 },
    }); // a company's fence: it applies to the devices linked to it (geofenceAppliesTo)
    await h.adapters.bus.publish(Topics.geofences, [{ key: '9001', value: yard }]); // as the geofence service publishes a fence
    await eventually('the fence held', () => h.svc.speedLimitFences.has(9001));
    const base = Date.now() + 10_000; // after the van's fixes of the test before
    const at = (s: number, speed: number) =>
      position(van, new Date(base + s * 1000), { speed, attributes: { motion: true, totalDistance: 1500 } });
    await h.adapters.bus.publish(
      Topics.positions,
      [at(1, 30), at(2, 50)].map((p) => ({ key: String(van.id), value: p })),
    );
    const e = await eventually('overspeed in the depot', () =>
      events.find((x) => x.deviceId === van.id && x.type === 'deviceOverspeed' && x.geofenceId === '9001'),
    );
    expect(e).toMatchObject({ attributes: { speed: 50, speedLimit: 40, geofenceId: 9001 }, positionId: positionId(van.id, base + 2000) }); // the van's own limit is 70
  });
});
