import type { RouteIndex } from '../corridor/route-index';
import type { FlagChange, JourneyFix } from './flag-change';
import { evaluate, sweep, type JourneyPlan, type JourneyState, type JourneyTransition } from './journey-evaluator';
import type { JourneyThresholds } from './thresholds';

export interface ReplayOptions {
  /** sweep cadence in seconds; sweeps fall on multiples of it since the epoch, so split runs sweep at the same moments (default 60) */
  sweepEveryS?: number;
  /** keep sweeping after the last fix up to this time (epoch ms) */
  sweepUntil?: number;
  /** hook to transform the state between fixes (e.g. a JSON round trip, as Redis would do) */
  carry?: (state: JourneyState) => JourneyState;
}

export interface ReplayResult {
  state: JourneyState | undefined;
  flags: FlagChange[];
  transitions: JourneyTransition[];
}

/** Feeds fixes to one journey in order, running the sweep timer between them as a consumer would. */
export function replayJourney(
  initial: JourneyState | undefined,
  fixes: readonly JourneyFix[],
  route: RouteIndex,
  thresholds: JourneyThresholds,
  plan: JourneyPlan = {},
  options: ReplayOptions = {},
): ReplayResult {
  const every = (options.sweepEveryS ?? 60) * 1000;
  const carry = options.carry ?? ((s: JourneyState) => s);
  let state = initial;
  const flags: FlagChange[] = [];
  const transitions: JourneyTransition[] = [];
  let lastTime = state?.lastFixTime ?? fixes[0]?.time ?? 0;

  const sweepUntil = (until: number): void => {
    if (!state) return;
    for (let t = Math.floor(lastTime / every) * every + every; t < until; t += every) {
      const swept = sweep(state, t, thresholds);
      state = carry(swept.state);
      flags.push(...swept.flags);
    }
  };

  for (const fix of fixes) {
    if (fix.time > lastTime) sweepUntil(fix.time);
    const result = evaluate(state, fix, route, thresholds, plan);
    state = carry(result.state);
    flags.push(...result.flags);
    transitions.push(...result.transitions);
    lastTime = Math.max(lastTime, fix.time);
  }
  if (options.sweepUntil !== undefined) sweepUntil(options.sweepUntil);
  return { state, flags, transitions };
}
