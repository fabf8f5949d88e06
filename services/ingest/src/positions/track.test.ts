import { describe, expect, it } from 'vitest';
import { positionId, type PositionMessage } from '@corridor/contracts';
import { track, trackFromLatest, type TrackState } from './track';

const T0 = Date.UTC(2026, 2, 1, 6, 0, 0);
const at = (s: number, patch: Partial<PositionMessage> = {}, state = false): PositionMessage => ({
  id: positionId(3, T0 + s * 1000, state ? 'state' : 'fix'),
  deviceId: 3,
  uniqueId: 'u3',
  protocol: 'test',
  fixTime: new Date(T0 + s * 1000).toISOString(),
  serverTime: new Date(T0 + s * 1000).toISOString(),
  valid: true,
  latitude: -1.3,
  longitude: 36.8,
  speed: 20,
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
  attributes: state ? { outdated: true } : {},
  ...patch,
});
const opts = { motionThreshold: 0.01 };

function run(positions: PositionMessage[], start?: TrackState): { out: PositionMessage[]; state: TrackState | undefined } {
  let state = start;
  const out: PositionMessage[] = [];
  for (const p of positions) {
    const r = track(state, p, opts);
    out.push(r.position);
    state = r.state;
  }
  return { out, state };
}

describe('track (server-side accumulators)', () => {
  it('keeps the motion a device reports and derives it from speed otherwise', () => {
    const { out } = run([at(0, { speed: 0 }), at(10, { attributes: { motion: false } }), at(20, { speed: 0.02 })]);
    expect(out.map((p) => p.attributes.motion)).toEqual([false, false, true]);
  });

  it('adds no distance from or to an invalid fix, and keeps the last valid location for the next leg', () => {
    const { out } = run([at(0), at(10, { valid: false, latitude: 0, longitude: 0 }), at(20, { latitude: -1.31 })]);
    expect(out.map((p) => p.attributes.distance)).toEqual([0, 0, expect.closeTo(1112, -1)]);
  });

  it("takes the device's own engine hours when it reports them, and counts on from them", () => {
    const { out } = run([at(0, { ignition: true, attributes: { hours: 7_200_000 } }), at(60, { ignition: true })]);
    expect(out.map((p) => p.attributes.hours)).toEqual([7_200_000, 7_260_000]);
  });

  it('carries the last known ignition over records without one', () => {
    const { out } = run([at(0, { ignition: true }), at(60), at(120)]);
    expect(out.map((p) => p.attributes.hours)).toEqual([0, 60_000, 120_000]);
  });

  it('applies an accumulator override once, at its first in-order record', () => {
    const override = { totalDistance: 500, setAt: 1 };
    let r = track(undefined, at(0), { ...opts, override });
    expect(r.position.attributes.totalDistance).toBe(500);
    r = track(r.state, at(10), { ...opts, override }); // same override seen again: already applied
    expect(r.position.attributes.totalDistance).toBe(500);
    r = track(r.state, at(20, { latitude: -1.31 }), { ...opts, override: { totalDistance: 0, setAt: 2 } });
    expect(r.position.attributes.totalDistance).toBeCloseTo(1112, -1);
  });

  it('starts a device without state from its latest stored position', () => {
    const seeded = trackFromLatest(at(0, { ignition: true, attributes: { totalDistance: 9_000, hours: 3_600_000 } }));
    const { out } = run([at(30, { ignition: true, latitude: -1.31 })], seeded);
    expect(out[0]!.attributes.totalDistance).toBeCloseTo(9_000 + 1112, -1);
    expect(out[0]!.attributes.hours).toBe(3_630_000);
  });

  it('orders fixes among fixes and state records among all records: a fix a little behind a heartbeat still counts its leg', () => {
    const { out, state } = run([at(0), at(100, { ignition: true }, true), at(95, { latitude: -1.31 }), at(50, {}, true)]);
    expect(out[2]!.attributes.distance).toBeCloseTo(1112, -1); // behind the heartbeat, ahead of the last fix
    expect(out[3]!.attributes).toMatchObject({ distance: 0, totalDistance: out[2]!.attributes.totalDistance }); // stale state record
    expect(state!.time).toBe(T0 + 100_000);
  });
});
