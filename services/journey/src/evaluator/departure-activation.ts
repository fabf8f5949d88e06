import type { RouteIndex } from '../corridor/route-index';
import { newJourneyState, type JourneyState, type JourneyTransition } from '../detectors/journey-evaluator';
import type { RuntimeJourney } from './runtime-journey';

/**
 * A planned journey whose planned departure has passed becomes active even if no fix has left the
 * origin yet. Silence then counts from the departure (or the last fix, if later), at the origin,
 * so a device that never reports raises signal loss.
 */
export function activateAtDeparture(
  state: JourneyState | undefined,
  j: RuntimeJourney,
  route: RouteIndex,
): { state: JourneyState; transition: JourneyTransition } {
  const departure = j.plannedDeparture!;
  const s = state ?? newJourneyState();
  const [lon, lat] = route.origin.center;
  const lastFixTime = Math.max(departure, s.lastFixTime ?? departure);
  const next: JourneyState = {
    ...s,
    status: 'active',
    startedAt: departure,
    schedule: { departureMs: departure, arrivalMs: j.plannedArrival ?? departure + route.expectedDurationMinutes * 60_000 },
    detectors: { ...s.detectors, signalLoss: { open: false, escalated: false, lastFixTime, lastLatitude: lat, lastLongitude: lon } },
  };
  return {
    state: next,
    transition: { from: 'planned', to: 'active', time: new Date(departure).toISOString(), latitude: lat, longitude: lon },
  };
}
