import type { RouteIndex, RouteMatch } from '../corridor/route-index';
import type { JourneyThresholds } from './thresholds';

export type FlagType = 'offCorridor' | 'unauthorizedStop' | 'overspeed' | 'signalLoss' | 'backtracking' | 'lateEta' | 'sealBreach';

export type FlagDetails = Record<string, string | number | boolean | null>;

/**
 * A flag opening or clearing. `time` is ISO 8601 UTC. A signal-loss escalation is a second `open`
 * of the already-open flag with `details.escalated === true` (update the open flag, do not insert one).
 */
export interface FlagChange {
  type: FlagType;
  action: 'open' | 'clear';
  time: string;
  latitude: number;
  longitude: number;
  details: FlagDetails;
}

/**
 * What a position says about an electronic seal (see seal-breach.ts): an opening (`unlock` alarm),
 * a tampering (`tampering` alarm of a seal, one with `sealEvent`), and the lock state it reports.
 */
export interface SealSignal {
  opened: boolean;
  tampered: boolean;
  /** true locked, false unlocked, null not reported */
  locked: boolean | null;
  /** the device's seal event reason (`unlocked`, `ropeCut`, `wrongPassword`, ...) */
  sealEvent: string | null;
}

/** One position as the detectors read it. `time` is the fix time in epoch milliseconds; speed in knots as on positions.v1. */
export interface JourneyFix {
  time: number;
  latitude: number;
  longitude: number;
  speedKnots: number;
  valid?: boolean;
  /** present when the position carries seal state or a seal event */
  seal?: SealSignal;
}

/** When the journey should leave and arrive, epoch milliseconds, resolved when it becomes active. */
export interface ScheduleWindow {
  departureMs: number;
  arrivalMs: number;
}

export interface DetectorContext {
  match: RouteMatch;
  route: RouteIndex;
  thresholds: JourneyThresholds;
  schedule: ScheduleWindow;
}

export interface StepResult<S> {
  state: S;
  flags: FlagChange[];
}

export const KNOTS_TO_KMH = 1.852;

export function flagChange(
  type: FlagType,
  action: FlagChange['action'],
  at: { time: number; latitude: number; longitude: number },
  details: FlagDetails,
): FlagChange {
  return { type, action, time: new Date(at.time).toISOString(), latitude: at.latitude, longitude: at.longitude, details };
}

/** Rounds for flag details so they stay readable (metres, km/h, minutes). */
export function round1(value: number): number {
  return Math.round(value * 10) / 10;
}
