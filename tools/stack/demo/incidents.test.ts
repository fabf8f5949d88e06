import { describe, expect, it } from 'vitest';
import { measureLine, projectOnLine } from '@corridor/geodata';
import { IncidentScript } from '../../sim/incidents';
import { seededRandom } from '../../sim/random';
import { simDeviceIds, simFleetPlans } from '../../sim/simulator';
import { Truck, type TruckPlan } from '../../sim/truck';
import { truckReports } from '../../sim/truck-reports';
import { DEMO_INCIDENT_ROUND, demoIncidents, placedForIncidents } from './incidents';
import { continuingHistory } from './observatory-history';

const acceptAll = { protocol: 'test', send: async () => true };
/** The console's browser stack: 12 trucks, two weeks of history (apps/console/e2e/support/global-setup.ts). */
const TRUCKS = 12;
const DAYS = 14;
const KINDS = ['offCorridor', 'unauthorizedStop', 'signalLoss', 'overspeed'] as const;

/**
 * When each demo kind would be on the flagged board through the first round, for a stack started at
 * `startedAt` as tools/stack does: the four incident trucks driven second by second as the simulator
 * drives them, judged as the journey service judges their fixes (a corridor 2 km wide either side, a
 * stop of a minute, no fix, a speed over the segment's limit), and never at the end of their corridor
 * (their journey would complete there and its flags clear). Minutes: when the kind first shows, and
 * the stretches of the round it does not.
 */
function firstRound(startedAt: Date): Record<(typeof KINDS)[number], { first: number | null; gaps: string[] }> {
  const t0 = startedAt.getTime();
  const ids = simDeviceIds(TRUCKS);
  const cache = new Map<TruckPlan, TruckPlan>();
  const live = (p: TruckPlan) => cache.get(p) ?? cache.set(p, continuingHistory(p, startedAt, DAYS)).get(p)!;
  const plans = placedForIncidents(simFleetPlans(TRUCKS, ids), live).slice(0, 4).map(live);
  const incidents = demoIncidents(ids);
  const random = seededRandom(20240501);
  const roundEndS = DEMO_INCIDENT_ROUND.startAfterS + DEMO_INCIDENT_ROUND.durationS - 30;
  return Object.fromEntries(
    plans.map((plan, i) => {
      const line = measureLine(plan.corridor.line);
      const truck = new Truck(plan, { sender: acceptAll, random });
      const reports = truckReports(truck, new IncidentScript(incidents.get(plan.deviceId)!, plan.corridor.id, t0, 1), 1, t0);
      let first: number | null = null;
      let since: number | null = null;
      let missing: number | null = null;
      const gaps: string[] = [];
      for (let s = 0; s <= roundEndS; s++) {
        const fix = reports(t0 + s * 1000, true);
        if (s < DEMO_INCIDENT_ROUND.startAfterS) continue; // nothing is scripted before the round
        const state = truck.state();
        const held = !!fix && fix.speedKph === 0 && !state.stoppedAt;
        since = held ? (since ?? s) : null;
        const shows =
          state.stoppedAt !== 'terminal' &&
          [
            () => !!fix && projectOnLine(line, [fix.lon, fix.lat]).offset > 2_400,
            () => since !== null && s - since > 65,
            () => !fix,
            () => !!fix && fix.speedKph > truck.currentLimitKph() + 1,
          ][i]!();
        if (shows && first === null) first = s;
        if (first !== null && !shows && missing === null) missing = s;
        if (shows && missing !== null) {
          gaps.push(`${(missing / 60).toFixed(1)}-${(s / 60).toFixed(1)} min`);
          missing = null;
        }
      }
      if (missing !== null) gaps.push(`${(missing / 60).toFixed(1)} min-the round's end`);
      return [KINDS[i]!, { first: first === null ? null : Math.round(first / 6) / 10, gaps }];
    }),
  ) as ReturnType<typeof firstRound>;
}

describe("the demo's incidents, wherever the trucks' past leaves them", () => {
  // starts whose trucks the history left badly, before placedForIncidents and the trucks kept driving
  // (issue 29): 10:44 the stopping truck waits an hour at its corridor's end; 10:54 the one that leaves its
  // corridor does; 10:56 the speeding truck waits 18 minutes at the Gairo parking; 10:58 the one off its
  // corridor reaches its end 13 minutes in; the others were fine and stay so
  it.each(['10:40', '10:44', '10:50', '10:54', '10:56', '10:58', '11:04', '11:10'])(
    'a stack started at %s shows every kind within 6 minutes and keeps showing it until the round ends',
    (hhmm) => {
      const round = firstRound(new Date(`2026-11-29T${hhmm}:00Z`));
      for (const kind of KINDS) {
        expect(round[kind].first, `${kind} first shows (min)`).not.toBeNull();
        expect(round[kind].first!, `${kind} first shows (min)`).toBeLessThanOrEqual(6);
        expect(round[kind].gaps, `${kind} missing from the board`).toEqual([]);
      }
    },
  );

  it('moves only the incident trucks, and none where their past leaves them room (or there is no past)', () => {
    const plans = simFleetPlans(TRUCKS, simDeviceIds(TRUCKS));
    expect(placedForIncidents(plans, (p) => p)).toEqual(plans);
    const startedAt = new Date('2026-11-29T10:54:00Z');
    const placed = placedForIncidents(plans, (p) => continuingHistory(p, startedAt, DAYS));
    expect(placed.slice(4)).toEqual(plans.slice(4));
    expect(placed.slice(0, 4).filter((p, i) => p !== plans[i]).length).toBeGreaterThan(0);
  });
});
