import type { FlagChange } from '../detectors/flag-change';
import { sweep, type JourneyState, type JourneyTransition } from '../detectors/journey-evaluator';
import { activateAtDeparture } from './departure-activation';
import type { PreparedRoute } from './route-indexes';
import type { RuntimeJourney } from './runtime-journey';

export interface SweepStep {
  state: JourneyState;
  flags: FlagChange[];
  transitions: JourneyTransition[];
}

/**
 * What the timer does to one journey at `now` (epoch ms): an active one is checked for silence
 * (signal loss and its escalation); a planned one past its planned departure becomes active and is
 * then checked. Undefined when nothing changes.
 */
export function sweepStep(j: RuntimeJourney, state: JourneyState | undefined, now: number, route: PreparedRoute): SweepStep | undefined {
  if (state?.status === 'active') {
    const r = sweep(state, now, route.thresholds);
    return r.flags.length ? { state: r.state, flags: r.flags, transitions: [] } : undefined;
  }
  if (state?.status === 'completed' || j.state !== 'planned' || j.plannedDeparture === null || j.plannedDeparture > now) return undefined;
  const activated = activateAtDeparture(state, j, route.index);
  const r = sweep(activated.state, now, route.thresholds);
  return { state: r.state, flags: r.flags, transitions: [activated.transition] };
}
