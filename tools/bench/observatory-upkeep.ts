import { setTimeout as sleep } from 'node:timers/promises';
import { factWriter } from '@corridor/geofence/observatory/fact-writer';
import type { ObservatoryMap } from '@corridor/geofence/observatory/observatory-map';
import { ObservatoryRollup } from '@corridor/geofence/observatory/rollup';
import { track, type TrackerState, type TrackFix } from '@corridor/geofence/observatory/tracker';
import { registry, type Analytics, type Logger } from '@corridor/platform';
import { planFleet } from '../sim/fleet';
import { seededRandom } from '../sim/random';
import { Truck } from '../sim/truck';
import { waitSeconds } from '../sim/waits';
import { load1m } from './parts';

/**
 * The cost of keeping the observatory current at 5,000 fixes/s, measured rather than extrapolated:
 * 10,000 simulated trucks (tools/sim) driving the corridors with a fix every 2 s (after an untimed
 * warm-up that gives the tracker's states a past, see fixesOf), fed in real time
 * as a consumer's polls (the fixes of each 100 ms in one batch) through what the geofence service
 * does with them: the tracker folds each fix, the facts of the batch are written to the store in
 * one insert per table (fact-writer.ts), and ObservatoryRollup recomputes the days they touched at
 * most once every 30 s (rollup.ts), on the store the suite filled (90 days of facts; the fixes are
 * on its last day, so each recomputation is of a day as full as the others). Left out: the
 * tracker's per-batch cache round trip for the devices' states (kept in a Map here) and the bus.
 *
 * Figures: the fixes offered and folded per second, how far the loop fell behind its schedule (a
 * rollup blocking the process shows here), the process's CPU over the run in cores (the tracker,
 * the inserts and, with chDB in the process, the store's own work on them and on the rollups), and
 * the rollups that completed in the run with their share of its wall time.
 */
const TRUCKS = Number(process.env.OBS_UPKEEP_TRUCKS ?? 10_000);
const FIX_EVERY_S = 2;
const SECONDS = Number(process.env.OBS_UPKEEP_SECONDS ?? 90);
const POLL_MS = 100;
/** the shortest warm-up: the tracker writes a day's running distance every 15 min of fixes */
const WARM_MS = 15 * 60_000;

interface Fold {
  device: number;
  fix: TrackFix;
}

/**
 * Each truck's fixes: a warm-up before the run (a fix every 30 s for 15 to 30 minutes, its length
 * spread over the trucks, so that the tracker's states are as in a running service: every truck's
 * day distance written every 15 min of fixes, about a tenth of them within a 90 s run, as in steady
 * state), then the run's fixes by poll, every 2 s, trucks staggered so the rate is even.
 */
function fixesOf(start: number): { warm: Fold[][]; polls: Fold[][]; fixes: number } {
  const plans = planFleet({ trucks: TRUCKS, random: seededRandom(11) });
  const silent = { protocol: 'bench', send: async () => true };
  const polls: Fold[][] = Array.from({ length: (SECONDS * 1000) / POLL_MS }, () => []);
  const warm: Fold[][] = [];
  let fixes = 0;
  plans.forEach((plan, i) => {
    const truck = new Truck(plan, { sender: silent, random: seededRandom(100 + i), waits: waitSeconds });
    const fold = (t: number): Fold => {
      const at = new Date(start + t);
      const f = truck.fix(at);
      return { device: i + 1, fix: { t: at.getTime(), lon: f.lon, lat: f.lat, speedKmh: f.speedKph } };
    };
    const own: Fold[] = [];
    let last = -WARM_MS - Math.floor((i * WARM_MS) / TRUCKS);
    for (let t = last; t < 0; t += 30_000) {
      truck.advance((t - last) / 1000, new Date(start + t));
      last = t;
      own.push(fold(t));
    }
    warm.push(own);
    for (let t = Math.floor((i * FIX_EVERY_S * 1000) / TRUCKS); t < SECONDS * 1000; t += FIX_EVERY_S * 1000) {
      truck.advance((t - last) / 1000, new Date(start + t));
      last = t;
      polls[Math.floor(t / POLL_MS)]!.push(fold(t));
      fixes++;
    }
  });
  return { warm, polls, fixes };
}

/** Completed recomputations so far and their seconds (the service's own histogram). */
async function rollupsSoFar(): Promise<{ runs: number; seconds: number }> {
  const metric = (await registry.getSingleMetric('observatory_rollup_seconds')?.get()) as
    { values: { metricName?: string; value: number }[] } | undefined;
  const value = (suffix: string) => metric?.values.find((v) => v.metricName === `observatory_rollup_seconds_${suffix}`)?.value ?? 0;
  return { runs: value('count'), seconds: value('sum') };
}

export async function upkeepAt5000FixesPerSecond(
  ch: Analytics,
  map: ObservatoryMap,
  logger: Logger,
  start: number,
): Promise<Record<string, number>> {
  const { warm, polls, fixes } = fixesOf(start);
  const write = factWriter(ch);
  const rollup = new ObservatoryRollup({ analytics: ch, logger });
  const states = new Map<number, TrackerState>();
  const companyOf = (device: number) => 1000 + (device % 50);
  // the warm-up, untimed: its facts written as the service would have written them (recomputed with the run's first rollup)
  const warmFacts = [];
  for (const own of warm) {
    for (const { device, fix } of own) {
      const r = track(states.get(device), device, fix, map);
      states.set(device, r.state);
      for (const f of r.facts) warmFacts.push(f);
    }
  }
  await write(warmFacts, companyOf);
  const out: Record<string, number> = {
    'upkeep.trucks': TRUCKS,
    'upkeep.fixes_per_s_offered': TRUCKS / FIX_EVERY_S,
    'upkeep.seconds': SECONDS,
    'upkeep.fixes': fixes,
    'load1m.before_upkeep': load1m(),
  };
  const before = await rollupsSoFar();
  let facts = 0;
  let behindMs = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (const [k, poll] of polls.entries()) {
    const wait = t0 + k * POLL_MS - performance.now();
    if (wait > 0) await sleep(wait);
    else behindMs = Math.max(behindMs, -wait);
    const made = [];
    for (const { device, fix } of poll) {
      const r = track(states.get(device), device, fix, map);
      states.set(device, r.state);
      for (const f of r.facts) made.push(f);
    }
    await write(made, companyOf);
    rollup.mark(made);
    facts += made.length;
  }
  const wallS = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const during = await rollupsSoFar();
  await rollup.close();
  out['upkeep.wall_s'] = Math.round(wallS * 10) / 10;
  out['upkeep.fixes_per_s_folded'] = Math.round(fixes / wallS);
  out['upkeep.max_behind_schedule_ms'] = Math.round(behindMs);
  out['upkeep.facts'] = facts;
  out['upkeep.process_cpu_cores'] = Math.round(((cpu.user + cpu.system) / 1e6 / wallS) * 1000) / 1000;
  out['upkeep.rollups_completed'] = during.runs - before.runs;
  out['upkeep.rollup_s_total'] = Math.round((during.seconds - before.seconds) * 100) / 100;
  out['upkeep.rollup_share_of_wall'] = Math.round(((during.seconds - before.seconds) / wallS) * 1000) / 1000;
  out['load1m.after_upkeep'] = load1m();
  return out;
}
