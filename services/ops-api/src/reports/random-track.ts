import { positionId, type PositionMessageInput } from '@corridor/contracts';

/**
 * Random tracks for the report property tests (track-runs.test.ts, motion-runs.test.ts), where the
 * fold over every fix is the oracle: runs of a few to a hundred fixes, moving or parked (a run of
 * one to five now and then); gaps up to 3 h, and of 5 to 30 min; speeds that flicker at rest and
 * jump after a gap; positions that jump tens of kilometres now and then (too fast to drive: a gap
 * in the track, platform report-jumps.ts); ignition unknown now and then; the `motion` attribute sometimes; a state record
 * of the same second now and then; and redeliveries (a later server time, other values), returned
 * apart so they can be inserted as second rows of their keys.
 */
export interface RandomTrackPlan {
  deviceId: number;
  fixes: number;
  seed: number;
  /** Epoch ms; the first fix is up to an hour later. */
  start: number;
  /** Engine hours, fuel used and odometer counters, and a driver now and then. */
  counters?: boolean;
  /**
   * Chance that a parked fix repeats the previous one exactly (position, speed, ignition, `motion`),
   * only later: runs of identical fixes, as a parked tracker sends.
   */
  still?: number;
}

/** Park–Miller-style generator: the same seed gives the same track. */
export function lcg(seed: number): () => number {
  let x = seed;
  return () => (x = (x * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

export function randomTrack(plan: RandomTrackPlan): { fixes: PositionMessageInput[]; again: PositionMessageInput[] } {
  const { deviceId, counters = false, still = 0 } = plan;
  const rnd = lcg(plan.seed);
  const jumps = lcg(plan.seed + 7_919); // a stream of its own: the rest of the track is as it was before jumps were added
  let t = plan.start + Math.round(rnd() * 3_600) * 1000;
  let [lat, lon, odometer, hours] = [-1.2 - rnd(), 36.8 + rnd(), 100_000, 5e8];
  let driving = rnd() < 0.5;
  let left = 0;
  let previous: PositionMessageInput | undefined;
  const fixes: PositionMessageInput[] = [];
  const again: PositionMessageInput[] = [];
  for (let i = 0; i < plan.fixes; i++) {
    if (--left <= 0) {
      driving = !driving;
      left = Math.round(1 + rnd() * (rnd() < 0.3 ? 4 : 100));
    }
    const r = rnd();
    const gap = r < 0.02 ? Math.round(rnd() * 3 * 3_600) : r < 0.05 ? Math.round(300 + rnd() * 1_500) : Math.round(1 + rnd() * 60);
    t += gap * 1000; // whole seconds: the store's resolution
    hours += gap * 1000;
    if (!driving && previous && rnd() < still) {
      const p: PositionMessageInput = {
        ...previous,
        id: positionId(deviceId, t),
        fixTime: new Date(t).toISOString(),
        serverTime: new Date(t + 1000).toISOString(),
        attributes: counters ? { ...previous.attributes, hours } : previous.attributes,
      };
      fixes.push(p);
      previous = p;
      if (rnd() < 0.03) again.push({ ...p, speed: 7, serverTime: new Date(t + 5000).toISOString() });
      continue;
    }
    const step = driving ? 0.001 + rnd() * 0.005 : rnd() < 0.1 ? 0.0015 : rnd() * 0.0003; // parked: jitter, now and then a jump
    lat += (rnd() - 0.5) * step;
    lon += (rnd() - 0.3) * step;
    if (jumps() < 0.01) lat += (jumps() < 0.5 ? 1 : -1) * (0.2 + jumps() * 0.3); // a jump of 20 to 55 km
    const speed = driving
      ? gap > 300 && rnd() < 0.5
        ? 90
        : Math.round(rnd() * 6000) / 100
      : rnd() < 0.85
        ? 0
        : Math.round(rnd() * 200) / 100; // fast after a gap now and then
    odometer += speed * 8;
    const attributes: Record<string, number | boolean | string> = counters ? { hours, fuelUsed: Math.round(odometer / 10) / 100 } : {};
    if (rnd() < 0.08) attributes['motion'] = rnd() < 0.5;
    if (counters && rnd() < 0.05) attributes['driverUniqueId'] = `D${deviceId}`;
    const p: PositionMessageInput = {
      id: positionId(deviceId, t),
      deviceId,
      uniqueId: `rnd-${deviceId}`,
      protocol: 'teltonika',
      fixTime: new Date(t).toISOString(),
      serverTime: new Date(t + 1000).toISOString(),
      valid: true,
      latitude: lat,
      longitude: lon,
      speed,
      course: 0,
      ignition: rnd() < 0.15 ? null : driving ? rnd() < 0.95 : rnd() < 0.2,
      odometer: counters ? odometer : null,
      attributes,
    };
    fixes.push(p);
    previous = p;
    // a state record of the same second (no fix: the last location, not valid): a row of its own
    if (rnd() < 0.02) fixes.push({ ...p, id: positionId(deviceId, t, 'state'), valid: false, speed: 0, attributes: { outdated: true } });
    if (rnd() < 0.03)
      again.push({ ...p, speed: Math.round(rnd() * 4000) / 100, latitude: lat + 0.01, serverTime: new Date(t + 5000).toISOString() });
  }
  return { fixes, again };
}
