import { flagChange, round1, type DetectorContext, type JourneyFix, type StepResult } from './flag-change';

/**
 * Off corridor: the truck is more than `offCorridorMeters` beyond the route width.
 * Opens once an excursion has lasted `offCorridorMinFixes` fixes beyond that line AND
 * `offCorridorMinSeconds`; clears when back within `offCorridorClearFactor` × width. A pending
 * excursion is dropped only when the truck is back inside the width, so fixes wandering in the band
 * between width and threshold neither count nor reset it. One open per excursion; the gap between
 * the open line (width + threshold) and the clear line (0.8 × width) keeps edge jitter from flapping.
 */
export interface OffCorridorState {
  open: boolean;
  /** fix time of the first fix beyond the threshold in the current excursion */
  excursionStart: number | null;
  excursionFixes: number;
  openedAt: number | null;
  maxDistanceM: number;
}

const initial: OffCorridorState = { open: false, excursionStart: null, excursionFixes: 0, openedAt: null, maxDistanceM: 0 };

export function step(state: OffCorridorState | undefined, fix: JourneyFix, ctx: DetectorContext): StepResult<OffCorridorState> {
  const s = state ?? initial;
  const { distanceM, segmentIndex } = ctx.match;
  const widthM = ctx.route.widthM;
  const t = ctx.thresholds;

  if (s.open) {
    const maxDistanceM = Math.max(s.maxDistanceM, distanceM);
    if (distanceM > t.offCorridorClearFactor * widthM) return { state: { ...s, maxDistanceM }, flags: [] };
    const details = {
      distanceM: round1(distanceM),
      widthM,
      maxDistanceM: round1(maxDistanceM),
      durationS: Math.round((fix.time - (s.excursionStart ?? fix.time)) / 1000),
    };
    return { state: initial, flags: [flagChange('offCorridor', 'clear', fix, details)] };
  }

  if (distanceM > widthM + t.offCorridorMeters) {
    const excursionStart = s.excursionStart ?? fix.time;
    const excursionFixes = s.excursionFixes + 1;
    const maxDistanceM = Math.max(s.maxDistanceM, distanceM);
    const next = { open: false, excursionStart, excursionFixes, openedAt: null, maxDistanceM };
    if (excursionFixes < t.offCorridorMinFixes || fix.time - excursionStart < t.offCorridorMinSeconds * 1000) {
      return { state: next, flags: [] };
    }
    const details = {
      distanceM: round1(distanceM),
      widthM,
      segmentIndex,
      excursionStart: new Date(excursionStart).toISOString(),
    };
    return { state: { ...next, open: true, openedAt: fix.time }, flags: [flagChange('offCorridor', 'open', fix, details)] };
  }
  if (distanceM <= widthM) return { state: initial, flags: [] };
  return { state: s, flags: [] };
}
