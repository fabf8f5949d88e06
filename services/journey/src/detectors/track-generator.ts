import CheapRuler from 'cheap-ruler';
import type { CorridorRouteInput, LonLat, StopArea } from '../corridor/route-definition';
import type { RouteIndex } from '../corridor/route-index';
import { KNOTS_TO_KMH, type JourneyFix } from './flag-change';
import { seededRandom, type SeededRandom } from './seeded-random';

export interface SyntheticCorridorOptions {
  id?: string;
  lengthKm: number;
  /** metres between vertices (default 250) */
  vertexSpacingM?: number;
  /** default Mombasa port, heading inland */
  start?: LonLat;
  /** compass bearing of the overall direction (default 300°, towards Nairobi) */
  bearingDeg?: number;
  /** amplitude of the slow lateral meander, metres (default 1500) */
  meanderM?: number;
  widthM?: number;
  speedLimitKmh?: number;
  expectedDurationMinutes?: number;
  stopAreas?: StopArea[];
  seed?: number;
}

/** A straight-ish synthetic corridor: the overall bearing plus a slow meander and small random bends. */
export function syntheticCorridor(options: SyntheticCorridorOptions): CorridorRouteInput {
  const spacing = options.vertexSpacingM ?? 250;
  const bearing = options.bearingDeg ?? 300;
  const meander = options.meanderM ?? 1500;
  const rnd = seededRandom(options.seed ?? 1);
  const start = options.start ?? [39.66, -4.05];
  const count = Math.max(2, Math.round((options.lengthKm * 1000) / spacing) + 1);
  const line: LonLat[] = [];
  let wobble = 0;
  for (let i = 0; i < count; i++) {
    const s = i * spacing;
    wobble = 0.9 * wobble + rnd.gaussian(8);
    const lateral = meander * Math.sin((2 * Math.PI * s) / 40_000) + wobble;
    const ruler = new CheapRuler(start[1], 'meters');
    const onAxis = ruler.destination(start, s, bearing);
    line.push(new CheapRuler(onAxis[1], 'meters').destination(onAxis, lateral, bearing + 90));
  }
  return {
    id: options.id ?? 'synthetic',
    line,
    widthM: options.widthM ?? 300,
    speedLimitKmh: options.speedLimitKmh ?? 80,
    expectedDurationMinutes: options.expectedDurationMinutes ?? Math.round((options.lengthKm / 50) * 60),
    stopAreas: options.stopAreas ?? [],
  };
}

/**
 * One phase of a generated track. `drive` moves along the route (backwards with `reverse`) for a
 * duration, a distance, or until a progress mark, ramping the lateral offset (metres left of the
 * line) to `lateralM` over the phase. `stop` stands still. `delivered: false` drops the phase's fixes
 * (a silent device keeps moving).
 */
export type TrackPhase =
  | {
      kind: 'drive';
      speedKmh: number;
      durationS?: number;
      distanceM?: number;
      untilAlongM?: number;
      reverse?: boolean;
      lateralM?: number;
      positionNoiseM?: number;
      delivered?: boolean;
    }
  | { kind: 'stop'; durationS: number; positionNoiseM?: number; delivered?: boolean };

export interface TrackOptions {
  startTime: number;
  startAlongM?: number;
  startLateralM?: number;
  /** seconds between fixes (default 15) */
  intervalS?: number;
  /** GPS position noise, standard deviation in metres (default 6) */
  positionNoiseM?: number;
  /** reported speed noise, standard deviation in km/h (default 1.5) */
  speedNoiseKmh?: number;
  seed?: number;
}

export interface GeneratedTrack {
  fixes: JourneyFix[];
  /** time of the last generated (possibly undelivered) fix */
  endTime: number;
  endAlongM: number;
}

export function generateTrack(route: RouteIndex, phases: readonly TrackPhase[], options: TrackOptions): GeneratedTrack {
  const rnd = seededRandom(options.seed ?? 1);
  const interval = options.intervalS ?? 15;
  const speedNoise = options.speedNoiseKmh ?? 1.5;
  const fixes: JourneyFix[] = [];
  let time = options.startTime;
  let along = options.startAlongM ?? 0;
  let lateral = options.startLateralM ?? 0;

  for (const phase of phases) {
    const noise = phase.positionNoiseM ?? options.positionNoiseM ?? 6;
    const delivered = phase.delivered ?? true;
    if (phase.kind === 'stop') {
      for (let n = Math.round(phase.durationS / interval); n > 0; n--) {
        time += interval * 1000;
        if (delivered) fixes.push(fixAt(route, rnd, time, along, lateral, noise, Math.abs(rnd.gaussian(0.6))));
      }
      continue;
    }
    const stepM = (phase.speedKmh / 3.6) * interval;
    const steps = stepsFor(phase, along, stepM, interval);
    const lateralFrom = lateral;
    for (let n = 1; n <= steps; n++) {
      time += interval * 1000;
      along = Math.min(route.lengthM, Math.max(0, along + (phase.reverse ? -stepM : stepM)));
      if (phase.lateralM !== undefined) lateral = lateralFrom + ((phase.lateralM - lateralFrom) * n) / steps;
      const reported = Math.max(0, phase.speedKmh + rnd.gaussian(speedNoise));
      if (delivered) fixes.push(fixAt(route, rnd, time, along, lateral, noise, reported));
    }
  }
  return { fixes, endTime: time, endAlongM: along };
}

function stepsFor(phase: Extract<TrackPhase, { kind: 'drive' }>, along: number, stepM: number, interval: number): number {
  if (phase.durationS !== undefined) return Math.max(1, Math.round(phase.durationS / interval));
  if (phase.distanceM !== undefined) return Math.max(1, Math.ceil(phase.distanceM / stepM));
  if (phase.untilAlongM !== undefined) return Math.max(1, Math.ceil(Math.abs(phase.untilAlongM - along) / stepM));
  throw new Error('drive phase needs durationS, distanceM or untilAlongM');
}

function fixAt(
  route: RouteIndex,
  rnd: SeededRandom,
  time: number,
  along: number,
  lateral: number,
  noiseM: number,
  speedKmh: number,
): JourneyFix {
  const [lon, lat] = route.pointAt(along, lateral);
  return {
    time,
    longitude: lon + rnd.gaussian(noiseM) / route.ruler.kx,
    latitude: lat + rnd.gaussian(noiseM) / route.ruler.ky,
    speedKnots: speedKmh / KNOTS_TO_KMH,
    valid: true,
  };
}
