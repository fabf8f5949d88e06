import type { PositionMessage } from '@corridor/contracts';
import { distanceMetres } from '@corridor/geodata/geo-math';

/** The last located fix of a device: where a state record is placed (Traccar's getLastLocation). */
export interface LastFix {
  time: number;
  latitude: number;
  longitude: number;
  altitude: number | null;
  speed: number;
  course: number;
  accuracy: number | null;
  valid: boolean;
  motion: boolean;
}

/**
 * A device's server-side accumulators and last location, as ingest keeps them between positions
 * (Traccar's DistanceHandler, EngineHoursHandler and MotionHandler read the previous position for
 * the same). `time` is the newest record (fix or state record) accepted.
 */
export interface TrackState {
  v: 1;
  time: number;
  fix: LastFix | null;
  /** metres */
  totalDistance: number;
  /** engine hours, ms */
  hours: number;
  /** last known ignition, carried over records that do not report it */
  ignition: boolean | null;
  /** setAt of the last accumulator override applied */
  overrideAt?: number;
}

/** Values PUT /devices/{id}/accumulators set (at `setAt`, epoch ms); they become the base of the next record. */
export interface AccumulatorOverride {
  totalDistance?: number;
  hours?: number;
  setAt: number;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const round2 = (v: number): number => Math.round(v * 100) / 100;

/** The accumulators a state record or fix starts from when ingest has no state yet: the latest stored position's. */
export function trackFromLatest(p: PositionMessage | undefined): TrackState | undefined {
  if (!p) return undefined;
  const outdated = p.attributes.outdated === true;
  return {
    v: 1,
    time: Date.parse(p.fixTime),
    fix: outdated ? null : lastFixOf(p),
    totalDistance: num(p.attributes.totalDistance) ?? 0,
    hours: num(p.attributes.hours) ?? 0,
    ignition: p.ignition ?? null,
  };
}

/** The location kept for the next leg and for state records: a state record or an invalid fix never replaces a valid fix. */
function nextFix(last: LastFix | null, p: PositionMessage, outdated: boolean): LastFix | null {
  if (outdated || (!p.valid && last?.valid)) return last;
  return lastFixOf(p);
}

function lastFixOf(p: PositionMessage): LastFix {
  return {
    time: Date.parse(p.fixTime),
    latitude: p.latitude,
    longitude: p.longitude,
    altitude: p.altitude,
    speed: p.speed,
    course: p.course,
    accuracy: p.accuracy,
    valid: p.valid,
    motion: p.attributes.motion === true,
  };
}

/**
 * Adds Traccar's server-side attributes to one position of a device, in arrival order, and returns
 * the device's next state:
 * - `motion` (when the device did not report it): speed above `motionThreshold` knots (a state
 *   record keeps its last fix's);
 * - `distance`: metres from the last valid fix, only for a valid fix (a state record, an invalid fix
 *   or the first fix adds 0, so a (0, 0) glitch does not reach the odometer);
 * - `totalDistance`: the running sum (PUT /devices/{id}/accumulators sets its base);
 * - `hours`: the device's own engine hours when it reports them, else the running sum of the time
 *   between consecutive records with ignition on at both (the last known ignition carries over
 *   records that do not report one; Traccar reads a missing ignition as off).
 * Fixes are ordered by fix time among fixes, state records (stamped with the message's time, which
 * may run ahead of a device's fix times) among all records: a fix older than the last fix, or a
 * state record older than the newest record, adds nothing and moves nothing (distance 0, current
 * totals). Time between records counts from the newest one, never backwards. A record marked
 * `clockAhead` (dated past the allowed skew) is treated as stale too: it moves nothing.
 */
export function track(
  state: TrackState | undefined,
  p: PositionMessage,
  opts: { motionThreshold: number; override?: AccumulatorOverride },
): { position: PositionMessage; state: TrackState | undefined } {
  const t = Date.parse(p.fixTime);
  const outdated = p.attributes.outdated === true;
  const attributes = { ...p.attributes };
  if (typeof attributes.motion !== 'boolean') attributes.motion = outdated ? (state?.fix?.motion ?? false) : p.speed > opts.motionThreshold;
  const override = opts.override && opts.override.setAt > (state?.overrideAt ?? 0) ? opts.override : undefined;
  const base = {
    totalDistance: override?.totalDistance ?? state?.totalDistance ?? 0,
    hours: override?.hours ?? state?.hours ?? 0,
  };
  const deviceHours = num(p.attributes.hours);
  const last = state?.fix;
  const stale = state !== undefined && (outdated ? t < state.time : !!last && t < last.time);
  // a record from a clock running ahead (clockAhead: intake.ts) would hold back every current one until its time came
  const ahead = typeof p.attributes.clockAhead === 'number';
  if (stale || ahead) {
    Object.assign(attributes, { distance: 0, totalDistance: round2(base.totalDistance), hours: deviceHours ?? Math.round(base.hours) });
    return { position: { ...p, attributes }, state };
  }
  const distance = !outdated && p.valid && last?.valid ? distanceMetres([last.longitude, last.latitude], [p.longitude, p.latitude]) : 0;
  const ignition = p.ignition ?? state?.ignition ?? null;
  const elapsed = state ? Math.max(0, t - state.time) : 0;
  const hours = deviceHours ?? base.hours + (state?.ignition === true && ignition === true ? elapsed : 0);
  const totalDistance = base.totalDistance + distance;
  Object.assign(attributes, { distance: round2(distance), totalDistance: round2(totalDistance), hours: Math.round(hours) });
  const position = { ...p, attributes };
  return {
    position,
    state: {
      v: 1,
      time: Math.max(t, state?.time ?? t),
      fix: nextFix(last ?? null, position, outdated),
      totalDistance,
      hours,
      ignition,
      ...(override || state?.overrideAt ? { overrideAt: override?.setAt ?? state?.overrideAt } : {}),
    },
  };
}
