import type { IncidentPlan } from '../../sim/incidents';

/**
 * The demo's scripted incidents, one per kind, on the first four simulated trucks: one leaves its
 * corridor, one stops where it may not, one goes silent, one speeds. Each begins 40 s after the
 * start (the journeys are active by then), lasts half an hour and comes back every hour, so the
 * flagged tab shows all four kinds within three minutes of `pnpm start` and keeps showing them.
 */
const round = { startAfterS: 40, durationS: 30 * 60, everyS: 60 * 60 };
const DEMO_INCIDENTS: readonly IncidentPlan[] = [
  { kind: 'offCorridor', ...round, offsetM: 6_000 },
  { kind: 'stop', ...round },
  { kind: 'silent', ...round },
  { kind: 'speed', ...round, overLimitKph: 35 },
];

/** Incident plans by simulated device id (the first trucks, in order). */
export function demoIncidents(uniqueIds: readonly string[]): Map<string, IncidentPlan> {
  return new Map(DEMO_INCIDENTS.flatMap((plan, i) => (uniqueIds[i] ? [[uniqueIds[i]!, plan] as const] : [])));
}
