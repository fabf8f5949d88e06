import type { RouteIndex } from '../corridor/route-index';
import * as backtracking from './backtracking';
import { flagChange, type DetectorContext, type FlagChange, type FlagType, type JourneyFix, type ScheduleWindow } from './flag-change';
import * as lateEta from './late-eta';
import * as offCorridor from './off-corridor';
import * as overspeed from './overspeed';
import * as sealBreach from './seal-breach';
import * as signalLoss from './signal-loss';
import type { JourneyThresholds } from './thresholds';
import * as unauthorizedStop from './unauthorized-stop';

export type JourneyStatus = 'planned' | 'active' | 'completed';

/** Planned times in epoch ms; missing ones come from the activation time and the route's expected duration. */
export interface JourneyPlan {
  plannedDeparture?: number | null;
  plannedArrival?: number | null;
}

/** Hot state of one journey: plain JSON (numbers, booleans, null), kept in Redis between fixes. */
export interface JourneyState {
  version: 1;
  status: JourneyStatus;
  /** fix time (epoch ms) of the last fix processed; older or equal fixes are ignored */
  lastFixTime: number | null;
  startedAt: number | null;
  completedAt: number | null;
  schedule: ScheduleWindow | null;
  /** last matched segment, the hint for the next match */
  segmentIndex: number | null;
  alongM: number | null;
  distanceM: number | null;
  /** set once the truck has been outside the destination area while active (round trips start inside it) */
  leftDestination: boolean;
  detectors: {
    offCorridor: offCorridor.OffCorridorState | null;
    unauthorizedStop: unauthorizedStop.UnauthorizedStopState | null;
    overspeed: overspeed.OverspeedState | null;
    signalLoss: signalLoss.SignalLossState | null;
    backtracking: backtracking.BacktrackingState | null;
    lateEta: lateEta.LateEtaState | null;
    /** absent in states stored before the seal detector existed */
    sealBreach?: sealBreach.SealBreachState | null;
  };
}

export interface JourneyTransition {
  from: JourneyStatus;
  to: JourneyStatus;
  /** ISO 8601 UTC */
  time: string;
  latitude: number;
  longitude: number;
}

export interface EvaluationResult {
  state: JourneyState;
  flags: FlagChange[];
  transitions: JourneyTransition[];
}

export function newJourneyState(): JourneyState {
  return {
    version: 1,
    status: 'planned',
    lastFixTime: null,
    startedAt: null,
    completedAt: null,
    schedule: null,
    segmentIndex: null,
    alongM: null,
    distanceM: null,
    leftDestination: false,
    detectors: {
      offCorridor: null,
      unauthorizedStop: null,
      overspeed: null,
      signalLoss: null,
      backtracking: null,
      lateEta: null,
      sealBreach: null,
    },
  };
}

/** Detectors whose open flag the journey's completion clears (a seal breach stays open for review). */
type DetectorName = Exclude<keyof JourneyState['detectors'], 'sealBreach'>;
const FLAG_OF: Record<DetectorName, FlagType> = {
  offCorridor: 'offCorridor',
  unauthorizedStop: 'unauthorizedStop',
  overspeed: 'overspeed',
  signalLoss: 'signalLoss',
  backtracking: 'backtracking',
  lateEta: 'lateEta',
};

/**
 * Feeds one fix to a journey. Invalid fixes (valid === false), fixes not newer than the last one
 * processed (redelivery, reordering) and fixes after completion change nothing.
 * planned → active on the first fix outside the origin area; active → completed on the first fix
 * inside the destination area after having been outside it; completion clears every open flag
 * (details.reason = 'journeyCompleted'), except seal breaches, which wait for a person. Detectors run
 * only while active, so loading at the origin raises nothing; the fix that activates the journey is
 * the first one they see. The seal detector runs before all that, on every fix of a planned or active
 * journey, invalid and late ones included: a seal event reported without a fix still counts.
 */
export function evaluate(
  state: JourneyState | undefined,
  fix: JourneyFix,
  route: RouteIndex,
  thresholds: JourneyThresholds,
  plan: JourneyPlan = {},
): EvaluationResult {
  const before = state ?? newJourneyState();
  if (before.status === 'completed') return { state: before, flags: [], transitions: [] };
  const sealBefore = before.detectors.sealBreach ?? undefined;
  const seal = sealBreach.step(sealBefore, fix, route);
  const s: JourneyState =
    seal.state !== (sealBefore ?? sealBreach.SEAL_INITIAL)
      ? { ...before, detectors: { ...before.detectors, sealBreach: seal.state } }
      : before;
  if (fix.valid === false || (s.lastFixTime !== null && fix.time <= s.lastFixTime)) {
    return { state: s, flags: seal.flags, transitions: [] };
  }
  const match = route.match(fix.longitude, fix.latitude, s.segmentIndex ?? undefined);
  const base: JourneyState = {
    ...s,
    lastFixTime: fix.time,
    segmentIndex: match.segmentIndex,
    alongM: match.alongM,
    distanceM: match.distanceM,
  };
  const transitions: JourneyTransition[] = [];
  const at = (): Omit<JourneyTransition, 'from' | 'to'> => ({
    time: new Date(fix.time).toISOString(),
    latitude: fix.latitude,
    longitude: fix.longitude,
  });

  let schedule = s.schedule;
  if (s.status === 'planned') {
    if (route.inArea(fix.longitude, fix.latitude, route.origin)) return { state: base, flags: seal.flags, transitions };
    const departureMs = plan.plannedDeparture ?? fix.time;
    schedule = { departureMs, arrivalMs: plan.plannedArrival ?? departureMs + route.expectedDurationMinutes * 60_000 };
    transitions.push({ from: 'planned', to: 'active', ...at() });
  }
  const active: ScheduleWindow = schedule ?? { departureMs: fix.time, arrivalMs: fix.time + route.expectedDurationMinutes * 60_000 };
  const ctx: DetectorContext = { match, route, thresholds, schedule: active };
  const d = s.detectors;
  const flags: FlagChange[] = [...seal.flags];
  const sl = signalLoss.step(d.signalLoss ?? undefined, fix);
  const oc = offCorridor.step(d.offCorridor ?? undefined, fix, ctx);
  const us = unauthorizedStop.step(d.unauthorizedStop ?? undefined, fix, ctx);
  const os = overspeed.step(d.overspeed ?? undefined, fix, ctx);
  const bt = backtracking.step(d.backtracking ?? undefined, fix, ctx);
  const le = lateEta.step(d.lateEta ?? undefined, fix, ctx);
  flags.push(...sl.flags, ...oc.flags, ...us.flags, ...os.flags, ...bt.flags, ...le.flags);

  const inDestination = route.inArea(fix.longitude, fix.latitude, route.destination);
  const next: JourneyState = {
    ...base,
    status: 'active',
    startedAt: s.startedAt ?? fix.time,
    schedule: active,
    leftDestination: s.leftDestination || !inDestination,
    detectors: {
      signalLoss: sl.state,
      offCorridor: oc.state,
      unauthorizedStop: us.state,
      overspeed: os.state,
      backtracking: bt.state,
      lateEta: le.state,
      sealBreach: s.detectors.sealBreach ?? null,
    },
  };
  if (!(next.leftDestination && inDestination)) return { state: next, flags, transitions };

  for (const name of Object.keys(FLAG_OF) as DetectorName[]) {
    if (next.detectors[name]?.open) flags.push(flagChange(FLAG_OF[name], 'clear', fix, { reason: 'journeyCompleted' }));
  }
  transitions.push({ from: 'active', to: 'completed', ...at() });
  return { state: { ...next, status: 'completed', completedAt: fix.time, detectors: newJourneyState().detectors }, flags, transitions };
}

/** Timer-driven check for an active journey's silence (signal loss and its escalation); `now` in epoch ms. */
export function sweep(state: JourneyState, now: number, thresholds: JourneyThresholds): { state: JourneyState; flags: FlagChange[] } {
  if (state.status !== 'active' || state.detectors.signalLoss === null) return { state, flags: [] };
  const result = signalLoss.sweep(state.detectors.signalLoss, now, thresholds);
  if (result.flags.length === 0) return { state, flags: [] };
  return { state: { ...state, detectors: { ...state.detectors, signalLoss: result.state } }, flags: result.flags };
}
