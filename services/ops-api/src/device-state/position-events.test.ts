import { describe, expect, it } from 'vitest';
import { positionId, type EventMessage, type PositionMessage } from '@corridor/contracts';
import { defaultReportSettings } from '../reports/settings';
import { eventConfigOf } from './event-config';
import { positionEvents, type EventConfig, type PositionEventState } from './position-events';

const T0 = Date.UTC(2026, 2, 1, 6, 0, 0);
interface Fix {
  s: number;
  speed?: number;
  motion?: boolean;
  ignition?: boolean | null;
  /** metres */
  total?: number;
  outdated?: boolean;
}
const pos = ({ s, speed = 0, motion = speed > 0, ignition = null, total = 0, outdated = false }: Fix): PositionMessage => ({
  id: positionId(7, T0 + s * 1000, outdated ? 'state' : 'fix'), deviceId: 7, uniqueId: 'u7', protocol: 'gt06',
  fixTime: new Date(T0 + s * 1000).toISOString(), serverTime: new Date(T0 + s * 1000).toISOString(), valid: !outdated,
  latitude: -1, longitude: 36 + s / 1e5, speed, course: 0, altitude: null, accuracy: null, satellites: null, hdop: null, ignition,
  odometer: null, power: null, battery: null, alarm: null, crcValid: true, rawFrameId: null,
  attributes: { motion, totalDistance: total, ...(outdated ? { outdated: true } : {}) },
});

/** Traccar's defaults: minimal trip 300 s or 500 m, minimal parking 300 s. */
const cfg = (o: Partial<EventConfig> = {}): EventConfig => ({ ...eventConfigOf(defaultReportSettings().trips, 0, {}, null), ...o });

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
    const { events } = run([{ s: 0, ignition: false }, { s: 10 }, { s: 20, ignition: true }, { s: 30, ignition: true }, { s: 40, ignition: false, outdated: true }]);
    expect(brief(events)).toEqual(['ignitionOn@20', 'ignitionOff@40']);
    expect(events[0]).toMatchObject({ deviceId: 7, positionId: positionId(7, T0 + 20_000), id: `7-ignitionOn-${T0 + 20_000}` });
  });

  it('deviceMoving dated to where the motion began, once it lasted minimalTripDuration or covered minimalTripDistance', () => {
    const byTime = run([{ s: 0 }, { s: 100, speed: 20 }, { s: 200, speed: 20 }, { s: 400, speed: 20 }]);
    expect(brief(byTime.events)).toEqual(['deviceMoving@100']);
    const byDistance = run([{ s: 0 }, { s: 100, speed: 20, total: 0 }, { s: 160, speed: 20, total: 600 }]);
    expect(brief(byDistance.events)).toEqual(['deviceMoving@100']);
    expect(byDistance.events[0]!.positionId).toBe(positionId(7, T0 + 100_000));
  });

  it('a short movement (shorter and nearer than the minimal trip) gives nothing', () => {
    const { events } = run([{ s: 0 }, { s: 100, speed: 10, total: 10 }, { s: 160, speed: 10, total: 200 }, { s: 200, total: 220 }, { s: 900, total: 220 }]);
    expect(events).toEqual([]);
  });

  it('deviceStopped after minimalParkingDuration, settled by state records (heartbeats) too, or at once on ignition off with useIgnition', () => {
    const moving = run([{ s: 0, speed: 20 }]).state;
    const parked = run([{ s: 100 }, { s: 200, outdated: true }, { s: 401, outdated: true }], cfg(), moving);
    expect(brief(parked.events)).toEqual(['deviceStopped@100']);
    const ignition = run([{ s: 100, ignition: true }, { s: 130, ignition: false }], cfg({ useIgnition: true }), moving);
    expect(brief(ignition.events)).toEqual(['ignitionOff@130', 'deviceStopped@100']);
  });

  it('deviceOverspeed once per episode above the device speed limit, after the minimal duration, with speed and speedLimit', () => {
    const c = cfg({ speedLimit: 50, overspeedMinimalDuration: 20_000 });
    const { events } = run([{ s: 0, speed: 40 }, { s: 10, speed: 60 }, { s: 20, speed: 70 }, { s: 30, speed: 65 }, { s: 40, speed: 45 }, { s: 50, speed: 55 }, { s: 80, speed: 55 }], c);
    expect(brief(events.filter((e) => e.type === 'deviceOverspeed'))).toEqual(['deviceOverspeed@30', 'deviceOverspeed@80']);
    expect(events.find((e) => e.type === 'deviceOverspeed')!.attributes).toEqual({ speed: 65, speedLimit: 50 });
    expect(run([{ s: 0, speed: 90 }], cfg()).events.filter((e) => e.type === 'deviceOverspeed')).toEqual([]); // no limit, no event
    const fromPosition = positionEvents(undefined, { ...pos({ s: 0, speed: 45 }), attributes: { speedLimit: 40 } }, cfg({ speedLimit: 50 })).events;
    expect(fromPosition.map((e) => e.attributes)).toEqual([{ speed: 45, speedLimit: 40 }]); // the position's own limit wins
  });

  it('the speed limit comes from the device, else its group; trip thresholds from report.trip.* attributes', () => {
    const trips = defaultReportSettings().trips;
    expect(eventConfigOf(trips, 0, { speedLimit: 43.2 }, { speedLimit: 30 }).speedLimit).toBe(43.2);
    expect(eventConfigOf(trips, 0, {}, { speedLimit: '30' }).speedLimit).toBe(30);
    expect(eventConfigOf(trips, 0, { speedLimit: 'fast' }, null).speedLimit).toBeUndefined();
    expect(eventConfigOf(trips, 0, { 'report.trip.minimalTripDuration': 60 }, null).minimalTripDuration).toBe(60_000);
  });

  it('driverChanged when a new driverUniqueId is reported; fuel drop and increase past the device thresholds', () => {
    const at = (s: number, attributes: Record<string, unknown>) => ({ ...pos({ s }), attributes: { motion: false, ...attributes } });
    const c = eventConfigOf(defaultReportSettings().trips, 0, { fuelDropThreshold: 10 }, { fuelIncreaseThreshold: '20' });
    let state: PositionEventState | undefined;
    const events: EventMessage[] = [];
    for (const p of [at(0, { driverUniqueId: 'D1', fuel: 80 }), at(10, { driverUniqueId: 'D1', fuel: 75 }), at(20, {}), at(30, { driverUniqueId: 'D2', fuel: 64 }),
      at(40, { fuel: 70 }), at(50, { fuel: 95 })]) {
      const r = positionEvents(state, p, c);
      state = r.state;
      events.push(...r.events);
    }
    expect(brief(events)).toEqual(['driverChanged@0', 'driverChanged@30', 'deviceFuelDrop@30', 'deviceFuelIncrease@50']);
    expect(events.map((e) => e.attributes)).toEqual([{ driverUniqueId: 'D1' }, { driverUniqueId: 'D2' }, { fuelBefore: 75, fuel: 64 }, { fuelBefore: 70, fuel: 95 }]);
    const unset = positionEvents(positionEvents(undefined, at(0, { fuel: 80 }), cfg()).state, at(10, { fuel: 10 }), cfg());
    expect(unset.events).toEqual([]); // no fuel thresholds: no fuel events
  });

  it('a redelivered or late position gives no event again', () => {
    const first = run([{ s: 0, ignition: false }, { s: 20, ignition: true }]);
    expect(brief(first.events)).toEqual(['ignitionOn@20']);
    const again = run([{ s: 20, ignition: true }, { s: 10, ignition: false }], cfg(), first.state);
    expect(again.events).toEqual([]);
    expect(again.state).toEqual(first.state);
  });
});
