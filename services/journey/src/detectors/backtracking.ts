import { flagChange, round1, type DetectorContext, type JourneyFix, type StepResult } from './flag-change';

/**
 * Backtracking (wrong direction): progress along the route has fallen more than `backtrackMeters`
 * behind the furthest progress reached, on `backtrackMinFixes` consecutive fixes. Clears once the
 * truck has advanced `backtrackResumeMeters` from the lowest progress of the reversal; the furthest
 * mark then restarts from there. Fixes beyond width + offCorridorMeters are skipped: their projection
 * onto the route says little about progress.
 */
export interface BacktrackingState {
  open: boolean;
  furthestAlongM: number | null;
  lowestAlongM: number | null;
  behindFixes: number;
}

const initial: BacktrackingState = { open: false, furthestAlongM: null, lowestAlongM: null, behindFixes: 0 };

export function step(state: BacktrackingState | undefined, fix: JourneyFix, ctx: DetectorContext): StepResult<BacktrackingState> {
  const s = state ?? initial;
  const t = ctx.thresholds;
  if (ctx.match.distanceM > ctx.route.widthM + t.offCorridorMeters) return { state: s, flags: [] };
  const along = ctx.match.alongM;
  const furthest = Math.max(s.furthestAlongM ?? along, along);
  const lowest = Math.min(s.lowestAlongM ?? along, along);

  if (s.open) {
    if (along - lowest < t.backtrackResumeMeters) return { state: { ...s, lowestAlongM: lowest }, flags: [] };
    const details = { lostM: round1(furthest - lowest), alongM: Math.round(along) };
    return {
      state: { open: false, furthestAlongM: along, lowestAlongM: null, behindFixes: 0 },
      flags: [flagChange('backtracking', 'clear', fix, details)],
    };
  }

  if (furthest - along <= t.backtrackMeters) {
    return { state: { open: false, furthestAlongM: furthest, lowestAlongM: null, behindFixes: 0 }, flags: [] };
  }
  const behindFixes = s.behindFixes + 1;
  if (behindFixes < t.backtrackMinFixes) {
    return { state: { open: false, furthestAlongM: furthest, lowestAlongM: lowest, behindFixes }, flags: [] };
  }
  const details = { lostM: round1(furthest - along), furthestAlongM: Math.round(furthest), alongM: Math.round(along) };
  return {
    state: { open: true, furthestAlongM: furthest, lowestAlongM: lowest, behindFixes },
    flags: [flagChange('backtracking', 'open', fix, details)],
  };
}
