import { describe, expect, it } from 'vitest';
import { positionId, type EventMessage, type PositionMessage } from '@corridor/contracts';
import { defaultReportSettings } from '../reports/settings';
import { eventConfigOf, noSources, type EventSettingSources } from './event-config';
import { positionEvents, type EventConfig, type PositionEventState } from './position-events';

const T0 = Date.UTC(2026, 2, 1, 6, 0, 0);
interface Fix {
  s: number;
  speed?: number;
  motion?: boolean;
  ignition?: boolean | null;
  /** metres east of the start (where the fix lies; also its totalDistance) */
  total?: number;
  outdated?: boolean;
}
const pos = ({ s, speed = 0, motion = speed > 0, ignition = null, total = 0, outdated = false }: Fix): PositionMessage => ({
  id: positionId(7, T0 + s * 1000, outdated ? 'state' : 'fix'),
  deviceId: 7,
  uniqueId: 'u7',
  protocol: 'gt06',
  fixTime: new Date(T0 + s * 1000).toISOString(),
  serverTime: new Date(T0 + s * 1000).toISOString(),
  valid: !outdated,
  latitude: -1,
  longitude: 36 + total / 111_320,
  speed,
  course: 0,
  altitude: null,
  accuracy: null,
  satellites: null,
  hdop: null,
  ignition,
  odometer: null,
  power: null,
  battery: null,
  alarm: null,
  crcValid: true,
  rawFrameId: null,
  attributes: { motion, totalDistance: total, ...(outdated ? { outdated: true } : {}) },
});

/** Traccar's defaults: the newer motion model (200 m, 180 s); the older one's minimal trip 300 s or 500 m, minimal parking 300 s. */
const cfg = (o: Partial<EventConfig> = {}): EventConfig => ({ ...eventConfigOf(defaultReportSettings().trips, 0), ...o });
const oldModel = (o: Partial<EventConfig['trips']> = {}): EventConfig =>
  cfg({ trips: { ...defaultReportSettings().trips, newLogic: false, ...o } });

function run(fixes: Fix[], c = cfg(), from?: PositionEventState): { events: EventMessage[]; state: PositionEventState | undefined } {
  let state = from;
  const events: EventMessage[] = [];
  for (const f of fixes) {
    const r = positionEvents(state, pos(f), c);
    state = r.state;
    events.push(...r.events);
  }
  return { events, state };
}
const brief = (es: EventMessage[]) => es.map((e) => `${e.type}@${(Date.parse(e.eventTime) - T0) / 1000}`);

describe('device events from positions', () => {
  it('ignitionOn / ignitionOff when the reported ignition changes, not for the first value nor records without one', () => {
    const { events } = run([
      { s: 0, ignition: false },
      { s: 10 },
      { s: 20, ignition: true },
      { s: 30, ignition: true },
      { s: 40, ignition: false, outdated: true },
    ]);
    expect(brief(events)).toEqual(['ignitionOn@20', 'ignitionOff@40']);
    expect(events[0]).toMatchObject({ deviceId: 7, positionId: positionId(7, T0 + 20_000), id: `7-ignitionOn-${T0 + 20_000}` });
  });

  it('deviceMoving (older model) dated to where the motion began, once it lasted minimalTripDuration or covered minimalTripDistance', () => {
    const byTime = run([{ s: 0 }, { s: 100, speed: 20 }, { s: 200, speed: 20 }, { s: 400, speed: 20 }], oldModel());
    expect(brief(byTime.events)).toEqual(['deviceMoving@100']);
    const byDistance = run([{ s: 0 }, { s: 100, speed: 20, total: 0 }, { s: 160, speed: 20, total: 600 }], oldModel());
    expect(brief(byDistance.events)).toEqual(['deviceMoving@100']);
    expect(byDistance.events[0]!.positionId).toBe(positionId(7, T0 + 100_000));
  });

  it('a short movement (older model: shorter and nearer than the minimal trip) gives nothing', () => {
    const { events } = run(
      [{ s: 0 }, { s: 100, speed: 10, total: 10 }, { s: 160, speed: 10, total: 200 }, { s: 200, total: 220 }, { s: 900, total: 220 }],
      oldModel(),
    );
    expect(events).toEqual([]);
  });

  it('deviceStopped (older model) after minimalParkingDuration, settled by state records (heartbeats) too, or at once on ignition off with useIgnition', () => {
    const moving = run([{ s: 0, speed: 20 }], oldModel()).state;
    const parked = run([{ s: 100 }, { s: 200, outdated: true }, { s: 401, outdated: true }], oldModel(), moving);
    expect(brief(parked.events)).toEqual(['deviceStopped@100']);
    const ignition = run(
      [
        { s: 100, ignition: true },
        { s: 130, ignition: false },
      ],
      oldModel({ useIgnition: true }),
      moving,
    );
    expect(brief(ignition.events)).toEqual(['ignitionOff@130', 'deviceStopped@100']);
  });

  it('deviceMoving (newer model, the default) once 200 m from the last event, back-dated to the fix it pulled away from; deviceStopped once 180 s within 200 m', () => {
    const { events, state } = run([
      { s: 0 },
      { s: 60 },
      { s: 120, speed: 10, total: 50 },
      { s: 180, speed: 30, total: 600 },
      { s: 240, speed: 30, total: 1500 },
      { s: 300, total: 1600 },
      { s: 360, total: 1610 },
      { s: 420, total: 1620 },
      { s: 480, total: 1620 },
    ]);
    // 60 → 120 ran 50 m in 60 s, slower than 200 m / 180 s: the trip starts at 120
    expect(brief(events)).toEqual(['deviceMoving@120', 'deviceStopped@480']);
    expect(state?.motionState).toMatchObject({ logic: 'new', moving: false });
    // the state goes on from JSON (as the cache keeps it) and a device switched to the older model starts afresh
    const again = run(
      [
        { s: 540, speed: 30, total: 2500 },
        { s: 600, speed: 30, total: 3500 },
      ],
      cfg(),
      JSON.parse(JSON.stringify(state)) as PositionEventState,
    );
    expect(brief(again.events)).toEqual(['deviceMoving@480']);
    expect(run([{ s: 540, speed: 30, total: 2500 }], oldModel(), state).state?.motionState).toMatchObject({ logic: 'old', streak: true });
  });

  it('deviceOverspeed once per episode above the device speed limit, after the minimal duration, with speed and speedLimit', () => {
    const c = cfg({ speedLimit: 50, overspeedMinimalDuration: 20_000 });
    const { events } = run(
      [
        { s: 0, speed: 40 },
        { s: 10, speed: 60 },
        { s: 20, speed: 70 },
        { s: 30, speed: 65 },
        { s: 40, speed: 45 },
        { s: 50, speed: 55 },
        { s: 80, speed: 55 },
      ],
      c,
    );
    expect(brief(events.filter((e) => e.type === 'deviceOverspeed'))).toEqual(['deviceOverspeed@30', 'deviceOverspeed@80']);
    expect(events.find((e) => e.type === 'deviceOverspeed')!.attributes).toEqual({ speed: 65, speedLimit: 50 });
    expect(run([{ s: 0, speed: 90 }], cfg()).events.filter((e) => e.type === 'deviceOverspeed')).toEqual([]); // no limit, no event
    const fromPosition = positionEvents(
      undefined,
      { ...pos({ s: 0, speed: 45 }), attributes: { speedLimit: 40 } },
      cfg({ speedLimit: 50 }),
    ).events;
    expect(fromPosition.map((e) => e.attributes)).toEqual([{ speed: 45, speedLimit: 40 }]); // the position's own limit wins
  });

  it('the speed limit comes from the device, else its group, else the server; trip thresholds from report.trip.* attributes', () => {
    const trips = defaultReportSettings().trips;
    const src = (o: Partial<EventSettingSources>): EventSettingSources => ({ ...noSources(), ...o });
    expect(
      eventConfigOf(trips, 0, src({ device: { speedLimit: 43.2 }, groups: [{ speedLimit: 30 }], server: { speedLimit: 20 } })).speedLimit,
    ).toBe(43.2);
    expect(eventConfigOf(trips, 0, src({ groups: [{}, { speedLimit: '30' }], server: { speedLimit: 20 } })).speedLimit).toBe(30); // the parent group's
    expect(eventConfigOf(trips, 0, src({ device: { speedLimit: 0 }, server: { speedLimit: 20 } })).speedLimit).toBe(20);
    expect(eventConfigOf(trips, 0, src({ device: { speedLimit: 'fast' } })).speedLimit).toBeUndefined();
    expect(eventConfigOf(trips, 0, src({ device: { 'report.trip.minimalTripDuration': 60 } })).trips.minimalTripDuration).toBe(60_000);
  });

  it('thresholdMultiplier, minimalDuration and preferLowest are looked up as the speed limit (Traccar keys), with their defaults', () => {
    const trips = defaultReportSettings().trips;
    const defaults = eventConfigOf(trips, 5_000);
    expect(defaults).toMatchObject({ thresholdMultiplier: 1, overspeedMinimalDuration: 5_000, preferLowest: false });
    const set = eventConfigOf(trips, 5_000, {
      ...noSources(),
      device: { 'event.overspeed.minimalDuration': 0 },
      groups: [{ 'event.overspeed.preferLowest': 'true' }],
      server: { 'event.overspeed.thresholdMultiplier': 1.1, 'event.overspeed.minimalDuration': 30 },
    });
    expect(set).toMatchObject({ thresholdMultiplier: 1.1, overspeedMinimalDuration: 0, preferLowest: true });
  });

  it('overspeed: a containing geofence limit wins over the position and device limits, with its geofenceId; the highest of several unless preferLowest', () => {
    const over = (
      speed: number,
      c: EventConfig,
      fences: { geofenceId: number; speedLimit: number }[],
      attributes: Record<string, unknown> = {},
    ) =>
      positionEvents(undefined, { ...pos({ s: 0, speed }), attributes: { motion: true, ...attributes } }, c, fences).events.filter(
        (e) => e.type === 'deviceOverspeed',
      );
    const c = cfg({ speedLimit: 60 });
    const fenced = over(45, c, [{ geofenceId: 3, speedLimit: 40 }], { speedLimit: 50 });
    expect(fenced.map((e) => [e.attributes, e.geofenceId])).toEqual([[{ speed: 45, speedLimit: 40, geofenceId: 3 }, '3']]);
    expect(over(45, c, [{ geofenceId: 3, speedLimit: 50 }])).toEqual([]); // the fence allows more than the device: its limit still applies
    expect(
      over(45, c, [
        { geofenceId: 3, speedLimit: 30 },
        { geofenceId: 4, speedLimit: 50 },
      ]),
    ).toEqual([]); // the highest, 50
    const lowest = over(45, cfg({ speedLimit: 60, preferLowest: true }), [
      { geofenceId: 3, speedLimit: 30 },
      { geofenceId: 4, speedLimit: 50 },
    ]);
    expect(lowest.map((e) => e.attributes)).toEqual([{ speed: 45, speedLimit: 30, geofenceId: 3 }]);
    expect(over(65, c, []).map((e) => [e.attributes, e.geofenceId])).toEqual([[{ speed: 65, speedLimit: 60 }, null]]); // no fence: the device's
  });

  it('overspeed above limit × thresholdMultiplier only; the event carries the limit itself', () => {
    const c = cfg({ speedLimit: 50, thresholdMultiplier: 1.1 });
    const { events } = run(
      [
        { s: 0, speed: 54 },
        { s: 10, speed: 55 },
        { s: 20, speed: 56 },
      ],
      c,
    );
    expect(events.filter((e) => e.type === 'deviceOverspeed').map((e) => e.attributes)).toEqual([{ speed: 56, speedLimit: 50 }]);
  });

  it('maintenance once per crossing of start + k·period, for each maintenance, never again on redelivery', () => {
    const maintenances = [
      { id: 1, name: 'Oil', type: 'totalDistance', start: 10_000, period: 5_000 },
      { id: 2, name: 'Service', type: 'hours', start: 0, period: 3_600_000 },
    ];
    const c = cfg({ maintenances });
    const at = (s: number, totalDistance: number, hours: number) => ({
      ...pos({ s }),
      attributes: { motion: false, totalDistance, hours },
    });
    let state: PositionEventState | undefined;
    const events: EventMessage[] = [];
    const feed = (ps: PositionMessage[]) => {
      for (const p of ps) {
        const r = positionEvents(state, p, c);
        state = r.state;
        events.push(...r.events);
      }
    };
    // 9 km → 10.5 km crosses start; 14.9 → 21 km crosses 15 and 20 km at once (one event); 21 → 22 km none
    feed([at(0, 9_000, 1_000), at(10, 10_500, 2_000), at(20, 14_900, 3_000), at(30, 21_000, 3_700_000), at(40, 22_000, 3_800_000)]);
    expect(events.map((e) => [e.type, (Date.parse(e.eventTime) - T0) / 1000, e.attributes.maintenanceId])).toEqual([
      ['maintenance', 10, 1],
      ['maintenance', 30, 1],
      ['maintenance', 30, 2],
    ]);
    expect(events[1]).toMatchObject({
      id: `7-maintenance-1-${T0 + 30_000}`,
      attributes: { maintenanceId: 1, maintenanceName: 'Oil', totalDistance: 21_000 },
    });
    const before = events.length;
    feed([at(30, 21_000, 3_700_000), at(20, 14_900, 3_000)]); // redelivered, late
    expect(events.length).toBe(before);
    const first = positionEvents(undefined, at(0, 50_000, 0), c);
    expect(first.events).toEqual([]); // the first value seen gives none
  });

  it('driverChanged when a new driverUniqueId is reported; fuel drop and increase past the device thresholds', () => {
    const at = (s: number, attributes: Record<string, unknown>) => ({ ...pos({ s }), attributes: { motion: false, ...attributes } });
    const c = eventConfigOf(defaultReportSettings().trips, 0, {
      ...noSources(),
      device: { fuelDropThreshold: 10 },
      groups: [{ fuelIncreaseThreshold: '20' }],
    });
    let state: PositionEventState | undefined;
    const events: EventMessage[] = [];
    for (const p of [
      at(0, { driverUniqueId: 'D1', fuel: 80 }),
      at(10, { driverUniqueId: 'D1', fuel: 75 }),
      at(20, {}),
      at(30, { driverUniqueId: 'D2', fuel: 64 }),
      at(40, { fuel: 70 }),
      at(50, { fuel: 95 }),
    ]) {
      const r = positionEvents(state, p, c);
      state = r.state;
      events.push(...r.events);
    }
    expect(brief(events)).toEqual(['driverChanged@0', 'driverChanged@30', 'deviceFuelDrop@30', 'deviceFuelIncrease@50']);
    expect(events.map((e) => e.attributes)).toEqual([
      { driverUniqueId: 'D1' },
      { driverUniqueId: 'D2' },
      { fuelBefore: 75, fuel: 64 },
      { fuelBefore: 70, fuel: 95 },
    ]);
    const unset = positionEvents(positionEvents(undefined, at(0, { fuel: 80 }), cfg()).state, at(10, { fuel: 10 }), cfg());
    expect(unset.events).toEqual([]); // no fuel thresholds: no fuel events
  });

  it('a redelivered or late position gives no event again', () => {
    const first = run([
      { s: 0, ignition: false },
      { s: 20, ignition: true },
    ]);
    expect(brief(first.events)).toEqual(['ignitionOn@20']);
    const again = run(
      [
        { s: 20, ignition: true },
        { s: 10, ignition: false },
      ],
      cfg(),
      first.state,
    );
    expect(again.events).toEqual([]);
    expect(again.state).toEqual(first.state);
  });
});
