import { flagChange, round1, type DetectorContext, type JourneyFix, type StepResult } from './flag-change';

/**
 * Late ETA: projects arrival as fix time + remaining distance at the planned average speed
 * (route length over the planned departure→arrival window), and opens when that lands more than
 * `lateEtaToleranceMinutes` after the planned arrival. Clears once back within tolerance minus
 * `lateEtaClearMarginMinutes`, so progress noise near the line cannot flap.
 */
export interface LateEtaState {
  open: boolean;
  maxLateMinutes: number;
}

const initial: LateEtaState = { open: false, maxLateMinutes: 0 };

/** Projected arrival in epoch ms for a truck `alongM` metres into the route at `time`. */
function projectArrival(time: number, alongM: number, ctx: Pick<DetectorContext, 'route' | 'schedule'>): number {
  const { departureMs, arrivalMs } = ctx.schedule;
  const plannedMs = arrivalMs > departureMs ? arrivalMs - departureMs : ctx.route.expectedDurationMinutes * 60_000;
  const remainingM = Math.max(0, ctx.route.lengthM - alongM);
  return time + (remainingM / ctx.route.lengthM) * plannedMs;
}

export function step(state: LateEtaState | undefined, fix: JourneyFix, ctx: DetectorContext): StepResult<LateEtaState> {
  const s = state ?? initial;
  const t = ctx.thresholds;
  const projected = projectArrival(fix.time, ctx.match.alongM, ctx);
  const lateMinutes = (projected - ctx.schedule.arrivalMs) / 60_000;
  if (s.open) {
    if (lateMinutes > t.lateEtaToleranceMinutes - t.lateEtaClearMarginMinutes) {
      return { state: lateMinutes > s.maxLateMinutes ? { open: true, maxLateMinutes: lateMinutes } : s, flags: [] };
    }
    const details = { ...describeLateness(lateMinutes, projected, ctx.schedule.arrivalMs), maxLateMinutes: round1(s.maxLateMinutes) };
    return { state: initial, flags: [flagChange('lateEta', 'clear', fix, details)] };
  }
  if (lateMinutes <= t.lateEtaToleranceMinutes) return { state: s, flags: [] };
  return {
    state: { open: true, maxLateMinutes: lateMinutes },
    flags: [flagChange('lateEta', 'open', fix, describeLateness(lateMinutes, projected, ctx.schedule.arrivalMs))],
  };
}

function describeLateness(lateMinutes: number, projected: number, plannedArrival: number) {
  return {
    lateMinutes: round1(lateMinutes),
    projectedArrival: new Date(projected).toISOString(),
    plannedArrival: new Date(plannedArrival).toISOString(),
  };
}
