import type { EventMessage, PositionMessage } from '@corridor/contracts';
import type { TripThresholds } from '../reports/settings';
import { motionStep as motionOf, type MotionHolder, type MotionState } from './motion-state';

/**
 * Server-side device events from a device's positions, in order (Traccar's IgnitionEventHandler,
 * MotionEventHandler and OverspeedEventHandler, which also run on each device's latest positions):
 * - ignitionOn / ignitionOff: the reported ignition differs from the last reported one (a record
 *   without ignition changes nothing; the first known value gives no event);
 * - deviceMoving / deviceStopped: the motion state the trips and stops reports read (motion-state.ts:
 *   the same detector, thresholds and fix totals), so a trip starts at its deviceMoving and a stop at
 *   its deviceStopped; the event is dated to the position the detector dates the change to;
 * - deviceOverspeed (Traccar's OverspeedEventHandler): a fix faster than limit × thresholdMultiplier,
 *   once per episode, after it lasted minimalDuration (0: at the first fix); the event is dated to
 *   the fix that settles it, with `speed` and `speedLimit` (the limit, knots) attributes. The limit:
 *   the highest `speedLimit` among the geofences containing the fix (the lowest with preferLowest),
 *   which also gives the event its geofenceId; else the position's `speedLimit` attribute; else the
 *   device's, its group's or the server's (event-config.ts). The episode ends at a fix at or below
 *   the threshold;
 * - maintenance (Traccar's MaintenanceEventHandler): a maintenance's watched value (totalDistance,
 *   hours, odometer or another numeric position value) went from the last position's value to this
 *   one's across `start` or across `start + k·period`: one event per crossing (several periods
 *   passed at once still give one), with `maintenanceId`, `maintenanceName` and the value reached;
 *   the first value seen (or a 0) gives none;
 * - driverChanged: a reported `driverUniqueId` other than the last one reported (the first too), with
 *   the `driverUniqueId` attribute;
 * - deviceFuelDrop / deviceFuelIncrease: the `fuel` attribute fell (rose) by at least the device's
 *   (else its group's) `fuelDropThreshold` (`fuelIncreaseThreshold`) since the last position that
 *   reported it (0 or none: off), with `fuelBefore` / `fuel`.
 * Only positions later (fix time, then id) than the last one processed count: a redelivered or late
 * position gives nothing. State records (attributes.outdated) take part in ignition and motion (a
 * parked truck's heartbeats settle its stop), not in overspeed (their speed is the last fix's).
 */

/** A maintenance that applies to the device (Traccar's Maintenance). */
export interface MaintenanceRule {
  id: number;
  name: string;
  /** the watched position value: totalDistance (m), hours (ms), odometer (m) or a numeric attribute */
  type: string;
  start: number;
  period: number;
}

/** A geofence with a `speedLimit` (knots) that contains the fix and applies to the device. */
export interface FenceLimit {
  geofenceId: number;
  speedLimit: number;
}

export interface EventConfig {
  /** knots, the device's, its group's or the server's; undefined: none */
  speedLimit?: number;
  /** the event fires above limit × this (Traccar event.overspeed.thresholdMultiplier, 1) */
  thresholdMultiplier: number;
  /** of several containing geofences, take the lowest limit rather than the highest */
  preferLowest: boolean;
  /** ms an overspeed must last before the event */
  overspeedMinimalDuration: number;
  /** the device's trip thresholds (the reports' own: motion-state.ts) */
  trips: TripThresholds;
  /** fuel units (as the device reports `fuel`); undefined: no fuel events */
  fuelDropThreshold?: number;
  fuelIncreaseThreshold?: number;
  maintenances: MaintenanceRule[];
  /** The geofences with a speed limit that contain a point and apply to the device (speed-limit-fences.ts). */
  fencesAt?: (lon: number, lat: number) => FenceLimit[];
}

interface Mark {
  time: number;
  positionId: number;
  latitude: number;
  longitude: number;
  /** attributes.totalDistance at the mark, metres */
  distance: number;
}

export interface PositionEventState {
  /** The last position processed (fix time, id). */
  last: { time: number; id: number } | null;
  ignition: boolean | null;
  /** The motion detector's state (absent before the first position, and in states kept before it was: then the next position sets it). */
  motionState?: MotionState;
  /** In an overspeed episode since (null: not over the limit). */
  overspeedSince: Mark | null;
  /** The episode's event was sent. */
  overspeedSent: boolean;
  /** The last reported driverUniqueId and fuel (absent in states from before they were kept). */
  driver?: string | null;
  fuel?: number | null;
  /** The last value seen of each watched maintenance type (absent in states from before maintenance events). */
  watched?: Record<string, number>;
}

const freshEventState = (): PositionEventState => ({
  last: null,
  ignition: null,
  overspeedSince: null,
  overspeedSent: false,
  driver: null,
  fuel: null,
});

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function markOf(p: PositionMessage, time: number): Mark {
  return { time, positionId: p.id, latitude: p.latitude, longitude: p.longitude, distance: num(p.attributes.totalDistance) ?? 0 };
}

function event(
  deviceId: number,
  type: EventMessage['type'],
  at: Mark,
  attributes: Record<string, unknown> = {},
  o: { idPart?: string; geofenceId?: number } = {},
): EventMessage {
  return {
    id: `${deviceId}-${type}-${o.idPart ? `${o.idPart}-` : ''}${at.time}`,
    type,
    eventTime: new Date(at.time).toISOString(),
    deviceId,
    positionId: at.positionId,
    journeyId: null,
    geofenceId: o.geofenceId === undefined ? null : String(o.geofenceId),
    latitude: at.latitude,
    longitude: at.longitude,
    attributes,
  };
}

const steps: Step[] = [overspeedStep, driverStep, fuelStep, maintenanceStep];
type Step = (
  s: PositionEventState,
  p: PositionMessage,
  here: Mark,
  cfg: EventConfig,
  fences: readonly FenceLimit[],
) => { s: PositionEventState; e?: EventMessage[] | EventMessage };

function motionStep(
  s: PositionEventState,
  p: PositionMessage,
  cfg: EventConfig,
  memory: MotionHolder | undefined,
): { s: PositionEventState; e?: EventMessage[] } {
  const r = motionOf(s.motionState, p, cfg.trips, memory);
  const e = r.events.map((m) =>
    event(p.deviceId, m.type === 'moving' ? 'deviceMoving' : 'deviceStopped', {
      time: m.fix.time,
      positionId: m.fix.id,
      latitude: m.fix.latitude,
      longitude: m.fix.longitude,
      distance: 0,
    }),
  );
  return { s: { ...s, motionState: r.state }, e };
}

/** The limit that applies to the fix (knots), and the geofence it comes from. */
function limitOf(p: PositionMessage, cfg: EventConfig, fences: readonly FenceLimit[]): { limit: number; geofenceId?: number } | undefined {
  let best: FenceLimit | undefined;
  for (const f of fences) {
    if (!(f.speedLimit > 0)) continue;
    if (!best || (cfg.preferLowest ? f.speedLimit < best.speedLimit : f.speedLimit > best.speedLimit)) best = f;
  }
  if (best) return { limit: best.speedLimit, geofenceId: best.geofenceId };
  const fromPosition = num(p.attributes.speedLimit);
  if (fromPosition !== undefined && fromPosition > 0) return { limit: fromPosition };
  return cfg.speedLimit === undefined ? undefined : { limit: cfg.speedLimit };
}

function overspeedStep(
  s: PositionEventState,
  p: PositionMessage,
  here: Mark,
  cfg: EventConfig,
  fences: readonly FenceLimit[],
): { s: PositionEventState; e?: EventMessage } {
  const found = limitOf(p, cfg, fences);
  if (found === undefined || p.attributes.outdated === true || !p.valid) return { s };
  if (p.speed <= found.limit * cfg.thresholdMultiplier) return { s: { ...s, overspeedSince: null, overspeedSent: false } };
  const since = s.overspeedSince ?? here;
  const next = { ...s, overspeedSince: since };
  if (s.overspeedSent || here.time - since.time < cfg.overspeedMinimalDuration) return { s: next };
  const attributes = {
    speed: p.speed,
    speedLimit: found.limit,
    ...(found.geofenceId === undefined ? {} : { geofenceId: found.geofenceId }),
  };
  return {
    s: { ...next, overspeedSent: true },
    e: event(p.deviceId, 'deviceOverspeed', here, attributes, found.geofenceId === undefined ? {} : { geofenceId: found.geofenceId }),
  };
}

/** The value a maintenance watches, from the position (totalDistance and hours: the accumulators ingest puts in the attributes). */
function watchedOf(p: PositionMessage, type: string): number | undefined {
  const own = (p as unknown as Record<string, unknown>)[type];
  return num(type !== 'attributes' && own !== undefined && own !== null ? own : p.attributes[type]);
}

function maintenanceStep(
  s: PositionEventState,
  p: PositionMessage,
  here: Mark,
  cfg: EventConfig,
): { s: PositionEventState; e?: EventMessage[] } {
  if (!cfg.maintenances.length) return { s };
  const before = s.watched ?? {};
  const watched: Record<string, number> = {};
  const events: EventMessage[] = [];
  for (const m of cfg.maintenances) {
    const value = watchedOf(p, m.type);
    if (value === undefined) {
      if (before[m.type] !== undefined) watched[m.type] = before[m.type]!;
      continue;
    }
    watched[m.type] = value;
    const old = before[m.type];
    if (old === undefined || old === 0 || value === 0 || value < m.start || !(m.period > 0)) continue;
    const crossed = old < m.start || Math.floor((old - m.start) / m.period) < Math.floor((value - m.start) / m.period);
    if (crossed) {
      events.push(
        event(p.deviceId, 'maintenance', here, { maintenanceId: m.id, maintenanceName: m.name, [m.type]: value }, { idPart: String(m.id) }),
      );
    }
  }
  return { s: { ...s, watched }, e: events };
}

function driverStep(s: PositionEventState, p: PositionMessage, here: Mark): { s: PositionEventState; e?: EventMessage } {
  const driver = p.attributes.driverUniqueId;
  if (typeof driver !== 'string' || driver === '' || driver === s.driver) return { s };
  return { s: { ...s, driver }, e: event(p.deviceId, 'driverChanged', here, { driverUniqueId: driver }) };
}

function fuelStep(s: PositionEventState, p: PositionMessage, here: Mark, cfg: EventConfig): { s: PositionEventState; e?: EventMessage } {
  const fuel = num(p.attributes.fuel);
  if (fuel === undefined) return { s };
  const before = s.fuel ?? null;
  const next = { ...s, fuel };
  if (before === null || fuel === before) return { s: next };
  const threshold = fuel < before ? cfg.fuelDropThreshold : cfg.fuelIncreaseThreshold;
  if (threshold === undefined || Math.abs(fuel - before) < threshold) return { s: next };
  return { s: next, e: event(p.deviceId, fuel < before ? 'deviceFuelDrop' : 'deviceFuelIncrease', here, { fuelBefore: before, fuel }) };
}

/**
 * The events one position of the device gives, and the device's next event state. `fences`: the
 * geofences with a speed limit that contain the fix and apply to the device. `memory`: where the
 * instance holds the motion detectors (the state then leaves the newer model's window out).
 */
export function positionEvents(
  state: PositionEventState | undefined,
  p: PositionMessage,
  cfg: EventConfig,
  given?: readonly FenceLimit[],
  memory?: MotionHolder,
): { state: PositionEventState; events: EventMessage[] } {
  let s = state ?? freshEventState();
  const time = Date.parse(p.fixTime);
  if (s.last && (time < s.last.time || (time === s.last.time && p.id <= s.last.id))) return { state: s, events: [] };
  const here = markOf(p, time);
  const events: EventMessage[] = [];
  if (p.ignition !== null && p.ignition !== undefined) {
    if (s.ignition !== null && p.ignition !== s.ignition) events.push(event(p.deviceId, p.ignition ? 'ignitionOn' : 'ignitionOff', here));
    s = { ...s, ignition: p.ignition };
  }
  const fences = given ?? (p.valid && p.attributes.outdated !== true ? cfg.fencesAt?.(p.longitude, p.latitude) : undefined) ?? [];
  const motion = motionStep(s, p, cfg, memory);
  s = motion.s;
  if (motion.e) events.push(...motion.e);
  for (const step of steps) {
    const r = step(s, p, here, cfg, fences);
    s = r.s;
    if (Array.isArray(r.e)) events.push(...r.e);
    else if (r.e) events.push(r.e);
  }
  return { state: { ...s, last: { time, id: p.id } }, events };
}
