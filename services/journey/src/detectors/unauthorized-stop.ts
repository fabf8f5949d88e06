import { flagChange, KNOTS_TO_KMH, type DetectorContext, type JourneyFix, type StepResult } from './flag-change';

/**
 * Unauthorized stop: speed below `stopSpeedKmh` for longer than `unauthorizedStopMinutes`, where
 * neither the place the stop began nor the current fix lies in an approved stop area (origin and
 * destination included). Clears at the first fix at or above `stopSpeedKmh`.
 */
export interface UnauthorizedStopState {
  open: boolean;
  stoppedSince: number | null;
  /** where the stop began: [longitude, latitude] */
  anchor: [number, number] | null;
}

const initial: UnauthorizedStopState = { open: false, stoppedSince: null, anchor: null };

export function step(state: UnauthorizedStopState | undefined, fix: JourneyFix, ctx: DetectorContext): StepResult<UnauthorizedStopState> {
  const s = state ?? initial;
  const speedKmh = fix.speedKnots * KNOTS_TO_KMH;

  if (speedKmh >= ctx.thresholds.stopSpeedKmh) {
    if (!s.open) return { state: s.stoppedSince === null ? s : initial, flags: [] };
    const details = { durationS: Math.round((fix.time - (s.stoppedSince ?? fix.time)) / 1000) };
    return { state: initial, flags: [flagChange('unauthorizedStop', 'clear', fix, details)] };
  }

  const stoppedSince = s.stoppedSince ?? fix.time;
  const anchor = s.anchor ?? [fix.longitude, fix.latitude];
  const stopped: UnauthorizedStopState = { open: s.open, stoppedSince, anchor };
  if (s.open || fix.time - stoppedSince <= ctx.thresholds.unauthorizedStopMinutes * 60_000) return { state: stopped, flags: [] };
  const approved = ctx.route.stopAreaAt(anchor[0], anchor[1]) ?? ctx.route.stopAreaAt(fix.longitude, fix.latitude);
  if (approved) return { state: stopped, flags: [] };
  const details = {
    since: new Date(stoppedSince).toISOString(),
    durationS: Math.round((fix.time - stoppedSince) / 1000),
    alongM: Math.round(ctx.match.alongM),
  };
  return { state: { ...stopped, open: true }, flags: [flagChange('unauthorizedStop', 'open', fix, details)] };
}
