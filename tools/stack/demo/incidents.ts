import type { IncidentPlan } from '../../sim/incidents';
import type { TruckPlan } from '../../sim/truck';

/**
 * The demo's scripted incidents, one per kind, on the first four simulated trucks: one leaves its
 * corridor, one stops where it may not, one goes silent, one speeds. Each begins 40 s after the
 * start (the journeys are active by then), lasts half an hour and comes back every hour, so the
 * flagged tab shows all four kinds within about seven minutes of `pnpm start` (the off-corridor truck
 * drives a few minutes to its side road, the stopping one first clears the places on its corridor)
 * and keeps showing them through the round (incidents.test.ts).
 */
export const DEMO_INCIDENT_ROUND = { startAfterS: 40, durationS: 30 * 60, everyS: 60 * 60 } as const;
const OVER_LIMIT_KPH = 35;
const DEMO_INCIDENTS: readonly IncidentPlan[] = [
  { kind: 'offCorridor', ...DEMO_INCIDENT_ROUND, offsetM: 6_000 },
  { kind: 'stop', ...DEMO_INCIDENT_ROUND },
  { kind: 'silent', ...DEMO_INCIDENT_ROUND },
  { kind: 'speed', ...DEMO_INCIDENT_ROUND, overLimitKph: OVER_LIMIT_KPH },
];

/** Incident plans by simulated device id (the first trucks, in order). */
export function demoIncidents(uniqueIds: readonly string[]): Map<string, IncidentPlan> {
  return new Map(DEMO_INCIDENTS.flatMap((plan, i) => (uniqueIds[i] ? [[uniqueIds[i]!, plan] as const] : [])));
}

/** How far a truck may drive in a round at the most (its corridor's highest limit, and over it), and 20 km more. */
const roundDriveM = (plan: TruckPlan): number =>
  ((Math.max(...plan.corridor.speedLimitsKph) + OVER_LIMIT_KPH) / 3.6) * DEMO_INCIDENT_ROUND.durationS + 20_000;
/** Metres ahead to the end of its corridor the truck drives towards. */
const toItsEndM = (plan: TruckPlan): number =>
  plan.direction === 'forward' ? plan.corridor.lengthKm * 1000 - plan.startAlong : plan.startAlong;
/** Moves tried for an incident truck's start (its past's first day), a prime number of kilometres apart. */
const SHIFT_M = 37_000;
const TRIES = 12;

/**
 * The fleet's plans with each incident truck placed where a round of its incident shows: where its
 * past (`live`: the demo's history continued, observatory-history.ts continuingHistory) leaves it,
 * a round's drive from the end of its corridor. Left where the history happened to leave them, a
 * truck could begin at that end, waiting there for up to an hour (never driving off its corridor),
 * or reach it within the round, its journey completed and its flag cleared: which one depended on
 * the minute the stack started (a kind missing from the flagged board for a while in the first
 * round in 29 of 111 start minutes over a day, issue 29). A truck not so placed gets its start (weeks back) moved until it is; the history is
 * stored from the same plans, so the live truck still goes on where its past leaves it.
 */
export function placedForIncidents(plans: readonly TruckPlan[], live: (plan: TruckPlan) => TruckPlan): TruckPlan[] {
  const incidents = demoIncidents(plans.map((p) => p.deviceId));
  return plans.map((plan) => {
    if (!incidents.has(plan.deviceId)) return plan;
    const length = plan.corridor.lengthKm * 1000;
    for (let i = 0; i < TRIES; i++) {
      const tried = i === 0 ? plan : { ...plan, startAlong: (plan.startAlong + i * SHIFT_M) % length };
      const then = live(tried);
      if (toItsEndM(then) >= roundDriveM(then)) return tried;
    }
    return plan;
  });
}
