import type { JourneyArea } from '@corridor/contracts';
import type { JourneyRow } from '../db/schema';
import type { JourneyPlan } from '../detectors/journey-evaluator';

/** What the evaluator keeps in process about a planned or active journey. */
export interface RuntimeJourney {
  id: number;
  deviceId: number;
  routeId: number;
  companyId: number | null;
  state: 'planned' | 'active';
  /** epoch ms */
  plannedDeparture: number | null;
  plannedArrival: number | null;
  origin: JourneyArea | null;
  destination: JourneyArea | null;
}

export function runtimeJourney(row: JourneyRow): RuntimeJourney | undefined {
  if (row.state !== 'planned' && row.state !== 'active') return undefined;
  return {
    id: row.id,
    deviceId: row.deviceId,
    routeId: row.routeId,
    companyId: row.companyId,
    state: row.state,
    plannedDeparture: row.plannedDeparture?.getTime() ?? null,
    plannedArrival: row.plannedArrival?.getTime() ?? null,
    origin: row.origin,
    destination: row.destination,
  };
}

export const planOf = (j: RuntimeJourney): JourneyPlan => ({ plannedDeparture: j.plannedDeparture, plannedArrival: j.plannedArrival });

/**
 * The journey a device's fix belongs to: its active journey, else the planned one due first
 * (a planned journey counts from `earlyStartMs` before its planned departure, so a truck on an
 * earlier errand does not start it; one without a planned departure counts at once).
 */
export function currentJourney(journeys: readonly RuntimeJourney[], time: number, earlyStartMs: number): RuntimeJourney | undefined {
  const active = journeys.find((j) => j.state === 'active');
  if (active) return active;
  let best: RuntimeJourney | undefined;
  for (const j of journeys) {
    if (j.plannedDeparture !== null && time < j.plannedDeparture - earlyStartMs) continue;
    if (
      !best ||
      (j.plannedDeparture ?? -Infinity) < (best.plannedDeparture ?? -Infinity) ||
      ((j.plannedDeparture ?? -Infinity) === (best.plannedDeparture ?? -Infinity) && j.id < best.id)
    )
      best = j;
  }
  return best;
}
