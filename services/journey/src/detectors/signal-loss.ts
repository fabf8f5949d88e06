import { flagChange, type FlagChange, type JourneyFix, type StepResult } from './flag-change';
import type { JourneyThresholds } from './thresholds';

/**
 * Signal loss: no position for longer than `signalLossMinutes` while the journey is active.
 * Silence produces no fixes, so a timer calls sweep(state, now); step() records each fix and clears.
 *
 * Escalation (chosen form): when the silence passes `signalLossEscalateMinutes`, sweep emits a
 * second `open` change for the same flag with `details.escalated === true`; consumers update the
 * open flag rather than inserting another. Change times are the moments the thresholds were
 * crossed (last fix + threshold), so they do not depend on how often the sweep runs.
 */
export interface SignalLossState {
  open: boolean;
  escalated: boolean;
  lastFixTime: number | null;
  lastLatitude: number;
  lastLongitude: number;
}

export function step(state: SignalLossState | undefined, fix: JourneyFix): StepResult<SignalLossState> {
  const next: SignalLossState = {
    open: false,
    escalated: false,
    lastFixTime: fix.time,
    lastLatitude: fix.latitude,
    lastLongitude: fix.longitude,
  };
  if (!state?.open || state.lastFixTime === null) return { state: next, flags: [] };
  const details = { gapS: Math.round((fix.time - state.lastFixTime) / 1000), escalated: state.escalated };
  return { state: next, flags: [flagChange('signalLoss', 'clear', fix, details)] };
}

export function sweep(state: SignalLossState | undefined, now: number, thresholds: JourneyThresholds): StepResult<SignalLossState> {
  if (!state || state.lastFixTime === null) return { state: state ?? emptyState, flags: [] };
  const last = state.lastFixTime;
  const where = { latitude: state.lastLatitude, longitude: state.lastLongitude };
  const openAt = last + thresholds.signalLossMinutes * 60_000;
  const escalateAt = last + thresholds.signalLossEscalateMinutes * 60_000;
  const flags: FlagChange[] = [];
  let { open, escalated } = state;
  if (!open && now > openAt) {
    open = true;
    flags.push(flagChange('signalLoss', 'open', { ...where, time: openAt }, { lastFix: new Date(last).toISOString(), escalated: false }));
  }
  if (open && !escalated && now > escalateAt) {
    escalated = true;
    flags.push(
      flagChange('signalLoss', 'open', { ...where, time: escalateAt }, { lastFix: new Date(last).toISOString(), escalated: true }),
    );
  }
  return { state: flags.length === 0 ? state : { ...state, open, escalated }, flags };
}

const emptyState: SignalLossState = { open: false, escalated: false, lastFixTime: null, lastLatitude: 0, lastLongitude: 0 };
