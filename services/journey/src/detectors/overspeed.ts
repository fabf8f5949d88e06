import { flagChange, KNOTS_TO_KMH, round1, type DetectorContext, type JourneyFix, type StepResult } from './flag-change';

/**
 * Overspeed: above the matched segment's limit (+ `overspeedToleranceKmh`) for longer than
 * `overspeedSeconds`, measured from the first fix above it; clears at the first fix at or under the limit.
 * Positions carry knots; limits are km/h.
 */
export interface OverspeedState {
  open: boolean;
  aboveSince: number | null;
  maxSpeedKmh: number;
}

const initial: OverspeedState = { open: false, aboveSince: null, maxSpeedKmh: 0 };

export function step(state: OverspeedState | undefined, fix: JourneyFix, ctx: DetectorContext): StepResult<OverspeedState> {
  const s = state ?? initial;
  const speedKmh = fix.speedKnots * KNOTS_TO_KMH;
  const limitKmh = ctx.match.speedLimitKmh;

  if (speedKmh <= limitKmh + ctx.thresholds.overspeedToleranceKmh) {
    if (!s.open) return { state: s.aboveSince === null ? s : initial, flags: [] };
    const details = {
      speedKmh: round1(speedKmh),
      limitKmh,
      maxSpeedKmh: round1(s.maxSpeedKmh),
      durationS: Math.round((fix.time - (s.aboveSince ?? fix.time)) / 1000),
    };
    return { state: initial, flags: [flagChange('overspeed', 'clear', fix, details)] };
  }

  const aboveSince = s.aboveSince ?? fix.time;
  const maxSpeedKmh = Math.max(s.maxSpeedKmh, speedKmh);
  if (s.open || fix.time - aboveSince <= ctx.thresholds.overspeedSeconds * 1000) {
    return { state: { open: s.open, aboveSince, maxSpeedKmh }, flags: [] };
  }
  const details = {
    speedKmh: round1(speedKmh),
    limitKmh,
    segmentIndex: ctx.match.segmentIndex,
    since: new Date(aboveSince).toISOString(),
  };
  return { state: { open: true, aboveSince, maxSpeedKmh }, flags: [flagChange('overspeed', 'open', fix, details)] };
}
