import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventMessage, positionId, ReportStop, ReportTrip, Topics, type Device, type PositionMessage } from '@corridor/contracts';
import { insertPositions, type ConsumedMessage, type Subscription } from '@corridor/platform';
import { eventually } from '@corridor/platform/testing/eventually';
import { testUsers } from '@corridor/platform/testing/identity';
import { eventConfigOf } from '../src/device-state/event-config';
import { positionEvents, type PositionEventState } from '../src/device-state/position-events';
import { deviceStateSettingsFrom } from '../src/device-state/settings';
import { defaultReportSettings } from '../src/reports/settings';
import { startHarness, type Harness } from './tracking-harness';

/**
 * One motion state behind deviceMoving / deviceStopped and the trips and stops reports (issue 24):
 * a constructed track (parked, a slow pull-away, a drive, a stop with GPS jitter, a short hop, a
 * stop settled by heartbeats, a drive) goes to positions.v1 (device events) and to the store
 * (reports); each trip starts at its deviceMoving's time and ends at its deviceStopped's, each stop
 * starts at a deviceStopped's, for Traccar's newer motion model (the default) and its older one.
 */
let h: Harness;
let sub: Subscription;
const events: EventMessage[] = [];
const T0 = Date.now() - 6 * 3600_000 - ((Date.now() - 6 * 3600_000) % 1000);
const LAT = -1.3;
const LON = 36.9;

/** minutes from T0 → [metres east of the start, knots]; fixes once a minute unless the track says otherwise */
function track(): [seconds: number, metres: number, speed: number, heartbeat?: boolean][] {
  const out: [number, number, number, boolean?][] = [];
  for (let m = 0; m <= 10; m++) out.push([m * 60, 0, 0]); // parked at the start
  out.push([11 * 60, 60, 4]); // creeping: 60 m in a minute, slower than 200 m / 180 s
  for (let m = 12; m <= 24; m++) out.push([m * 60, 60 + (m - 11) * 700, 25]); // driving ~700 m a minute
  const b = 60 + 13 * 700;
  for (let m = 25; m <= 40; m++) out.push([m * 60, b + (m % 2 ? 15 : -10), 0]); // stopped, the fix wandering ±15 m
  for (let m = 41; m <= 44; m++) out.push([m * 60, b + (m - 40) * 300, 10]); // a short hop of 1.2 km
  const c = b + 1200;
  out.push([45 * 60, c, 0]);
  for (let m = 46; m <= 60; m += 2) out.push([m * 60, c, 0, true]); // parked, status records only
  for (let m = 61; m <= 70; m++) out.push([m * 60, c + (m - 60) * 800, 26]); // away again
  return out;
}

const position = (d: Device, [s, metres, speed, heartbeat]: ReturnType<typeof track>[number]): PositionMessage => {
  const at = T0 + s * 1000;
  return {
    id: positionId(d.id, at, heartbeat ? 'state' : 'fix'),
    deviceId: d.id,
    uniqueId: d.uniqueId,
    protocol: 'gt06',
    fixTime: new Date(at).toISOString(),
    serverTime: new Date(at + 500).toISOString(),
    valid: !heartbeat,
    latitude: LAT,
    longitude: LON + metres / 111_320,
    speed,
    course: 90,
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
    attributes: { motion: speed > 0, ...(heartbeat ? { outdated: true } : {}) },
  };
};

beforeAll(async () => {
  h = await startHarness({ deviceState: deviceStateSettingsFrom({ DEVICE_STATE_PERSIST_S: 0, EVENT_SETTINGS_RELOAD_S: 0 }) });
  await h.svc.start();
  sub = await h.adapters.bus.subscribe({
    groupId: 'motion-one-state-events',
    topics: [Topics.events],
    fromBeginning: true,
    handler: async (msgs: ConsumedMessage[]) => void events.push(...msgs.map((m) => EventMessage.parse(JSON.parse(m.value)))),
  });
}, 120_000);
afterAll(async () => {
  await sub?.stop();
  await h?.close();
});

describe('one motion state behind the motion events and the trips and stops reports', () => {
  for (const [model, attributes] of [
    ['newer (default)', {}],
    ['older', { 'report.trip.newLogic': false }],
  ] as const) {
    it(`dates each trip to its deviceMoving and deviceStopped, each stop to its deviceStopped (${model} model)`, async () => {
      const uniqueId = `86510000000${model === 'older' ? 2 : 1}`;
      const made = await h.call(testUsers.admin, 'POST', '/api/devices', { name: `Motion ${model}`, uniqueId, companyId: 101, attributes });
      expect(made.statusCode, made.body).toBe(200);
      const d = made.json<Device>();
      const fixes = track().map((f) => position(d, f));
      await insertPositions(h.adapters.analytics)(fixes);
      await h.adapters.bus.publish(
        Topics.positions,
        fixes.map((p) => ({ key: String(d.id), value: p })),
      );
      // the last fix's own events settle nothing more: wait until the device state has passed it (its positionId)
      const last = fixes.at(-1)!;
      await eventually(
        'the device state at the last fix',
        async () => (await h.call(testUsers.admin, 'GET', `/api/devices/${d.id}`)).json<Device>().positionId === last.id,
      );
      const motion = events.filter((e) => e.deviceId === d.id && (e.type === 'deviceMoving' || e.type === 'deviceStopped'));
      const moving = motion.filter((e) => e.type === 'deviceMoving').map((e) => e.eventTime);
      const stopped = motion.filter((e) => e.type === 'deviceStopped').map((e) => e.eventTime);
      expect(moving.length, JSON.stringify(motion.map((e) => [e.type, e.eventTime]))).toBe(3);
      expect(stopped.length).toBe(2);

      const q = new URLSearchParams({
        deviceId: String(d.id),
        from: new Date(T0).toISOString(),
        to: new Date(T0 + 3 * 3600_000).toISOString(),
      });
      const trips = (await h.call(testUsers.admin, 'GET', `/api/reports/trips?${q}`)).json<unknown[]>().map((t) => ReportTrip.parse(t));
      const stops = (await h.call(testUsers.admin, 'GET', `/api/reports/stops?${q}`)).json<unknown[]>().map((t) => ReportStop.parse(t));
      const iso = (t: string | Date) => new Date(t).toISOString();
      expect(trips.map((t) => iso(t.startTime))).toEqual(moving);
      // the last trip is still going at the period's end: it closes at the last fix, as in Traccar
      expect(trips.map((t) => iso(t.endTime))).toEqual([...stopped, last.fixTime]);
      // the first stop is the parked start (the first fix sets the state: no event), the others begin at a deviceStopped
      expect(stops.map((s) => iso(s.startTime))).toEqual([new Date(T0).toISOString(), ...stopped]);
      expect(stops.map((s) => iso(s.endTime))).toEqual(moving);
    });
  }

  it('gives the same deviceMoving and deviceStopped when the device state restarts mid-track (the window read back from the stored positions)', async () => {
    const made = await h.call(testUsers.admin, 'POST', '/api/devices', {
      name: 'Motion restarts',
      uniqueId: '865100000000003',
      companyId: 101,
    });
    expect(made.statusCode, made.body).toBe(200);
    const d = made.json<Device>();
    const fixes = track().map((f) => position(d, f));
    await insertPositions(h.adapters.analytics)(fixes);
    // the uninterrupted motion state: the same steps with the window carried in the state
    let state: PositionEventState | undefined;
    const expected: string[] = [];
    for (const p of fixes) {
      const r = positionEvents(state, p, eventConfigOf(defaultReportSettings().trips, 0));
      state = r.state;
      expected.push(
        ...r.events.filter((e) => e.type === 'deviceMoving' || e.type === 'deviceStopped').map((e) => `${e.type}@${e.eventTime}`),
      );
    }
    expect(expected.length).toBe(5);
    // restarts: in the creep before the drive (its start is back-dated over the window), twice while the stop settles, in the short hop
    let from = 0;
    for (const at of [12, 26, 27, 42, fixes.length]) {
      await h.adapters.bus.publish(
        Topics.positions,
        fixes.slice(from, at).map((p) => ({ key: String(d.id), value: p })),
      );
      const last = fixes[at - 1]!;
      await eventually(
        `the device state at fix ${at - 1}`,
        async () => (await h.call(testUsers.admin, 'GET', `/api/devices/${d.id}`)).json<Device>().positionId === last.id,
      );
      if (at < fixes.length) {
        await h.svc.deviceState.stop(); // what the instance held in memory is gone; the cache keeps the thin state
        await h.svc.deviceState.start();
      }
      from = at;
    }
    const seen = () =>
      new Map(
        events
          .filter((e) => e.deviceId === d.id && (e.type === 'deviceMoving' || e.type === 'deviceStopped'))
          .map((e) => [e.id, `${e.type}@${e.eventTime}`]),
      );
    await eventually('the motion events on events.v1', () => seen().size >= expected.length);
    expect([...seen().values()]).toEqual(expected);
  });
});
