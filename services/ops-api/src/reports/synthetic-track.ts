import { offsetMetres } from '@corridor/geodata/geo-math';
import type { LonLat } from '@corridor/geodata';
import { positionId, type PositionMessage } from '@corridor/contracts';
import type { ReportFixRow } from '../clickhouse/report-positions';
import { MPS_TO_KNOTS } from './fixes';

/**
 * Generated tracks with known answers, for the report tests and the benchmark: a truck that drives
 * straight legs at constant speed and parks, reporting a fix every `everySeconds`. A drive segment's
 * fixes start where the truck stands and carry the driving speed; the fix at its end belongs to the
 * next segment (standing, speed 0). A gap sends nothing and moves the truck. The device reports an
 * odometer (metres driven), `hours` (engine time, ms) and `fuelUsed` (litres) when asked.
 */
export type Segment =
  | { kind: 'drive'; seconds: number; kmh: number; bearing?: number }
  | { kind: 'stop'; seconds: number; /** ignition stays on this long after arriving */ idleSeconds?: number }
  | { kind: 'gap'; seconds: number; metres: number; bearing?: number };

export interface TrackPlan {
  start: Date;
  origin: LonLat;
  everySeconds: number;
  segments: Segment[];
  /** Report odometer, hours and fuelUsed (else only position, speed and ignition). */
  counters?: boolean;
  /** Litres per km for fuelUsed. */
  litresPerKm?: number;
}

export interface TrackFix {
  time: number;
  lonLat: LonLat;
  kmh: number;
  ignition: boolean;
  odometer: number;
  hours: number;
  fuelUsed: number;
}

export function buildTrack(plan: TrackPlan): TrackFix[] {
  const out: TrackFix[] = [];
  const step = plan.everySeconds;
  let t = plan.start.getTime();
  let here = plan.origin;
  let odometer = 1_000_000;
  let hours = 3_600_000 * 1000;
  let fuelUsed = 5000;
  let lastIgnition = false;
  const emit = (kmh: number, ignition: boolean): void => {
    out.push({ time: t, lonLat: here, kmh, ignition, odometer, hours, fuelUsed });
    lastIgnition = ignition;
  };
  for (const seg of plan.segments) {
    const end = t + seg.seconds * 1000;
    if (seg.kind === 'gap') {
      here = offsetMetres(here, seg.metres, seg.bearing ?? 90);
      odometer += seg.metres;
      fuelUsed += (seg.metres / 1000) * (plan.litresPerKm ?? 0.35);
      t = end;
      continue;
    }
    const arrived = t;
    for (; t < end; t += step * 1000) {
      const ignition = seg.kind === 'drive' || t - arrived < (seg.idleSeconds ?? 0) * 1000;
      emit(seg.kind === 'drive' ? seg.kmh : 0, ignition);
      if (lastIgnition) hours += step * 1000;
      if (seg.kind === 'drive') {
        const metres = (seg.kmh / 3.6) * step;
        here = offsetMetres(here, metres, seg.bearing ?? 90);
        odometer += metres;
        fuelUsed += (metres / 1000) * (plan.litresPerKm ?? 0.35);
      }
    }
    t = end;
  }
  return out;
}

/** As positions.v1 messages, every field set (for insertPositions). */
export function trackPositions(deviceId: number, uniqueId: string, fixes: TrackFix[], counters = true): PositionMessage[] {
  return fixes.map((f) => ({
    id: positionId(deviceId, new Date(f.time)),
    deviceId,
    uniqueId,
    protocol: 'osmand',
    fixTime: new Date(f.time).toISOString(),
    serverTime: new Date(f.time + 2000).toISOString(),
    valid: true,
    latitude: f.lonLat[1],
    longitude: f.lonLat[0],
    speed: (f.kmh / 3.6) * MPS_TO_KNOTS,
    course: 90,
    altitude: null,
    accuracy: null,
    satellites: null,
    hdop: null,
    ignition: f.ignition,
    odometer: counters ? f.odometer : null,
    power: null,
    battery: null,
    alarm: null,
    crcValid: true,
    rawFrameId: null,
    attributes: counters ? { hours: f.hours, fuelUsed: Math.round(f.fuelUsed * 1000) / 1000 } : ({} as Record<string, number>),
  }));
}

/** As the rows the report stream gives (for the pure report tests). */
export function trackRows(deviceId: number, fixes: TrackFix[], counters = true): ReportFixRow[] {
  return fixes.map((f) => ({
    deviceId,
    id: positionId(deviceId, new Date(f.time)),
    time: f.time,
    latitude: f.lonLat[1],
    longitude: f.lonLat[0],
    speed: (f.kmh / 3.6) * MPS_TO_KNOTS,
    valid: true,
    ignition: f.ignition,
    odometer: counters ? f.odometer : null,
    hours: counters ? f.hours : null,
    fuelUsed: counters ? Math.round(f.fuelUsed * 1000) / 1000 : null,
    fuel: null,
    fuelLevel: null,
    driverUniqueId: null,
    motion: null,
  }));
}
