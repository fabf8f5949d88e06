import { counter, gauge, histogram, type Clock, type Logger } from '@corridor/platform';
import type { EventSink } from '../events/event-sink';
import type { JourneysRepository } from '../journeys/repository';
import type { DeviceJourneys } from './device-journeys';
import type { HotState } from './hot-state';
import { logChanges, type OutcomeStore } from './outcome-store';
import type { RouteIndexes } from './route-indexes';
import { currentJourney, runtimeJourney, type RuntimeJourney } from './runtime-journey';
import { sweepStep } from './sweep-step';

const activeJourneys = gauge('journey_active', 'Active journeys seen by the last sweep');
const sweepSeconds = histogram('journey_sweep_seconds', 'Duration of one signal-loss sweep', [], [0.01, 0.05, 0.1, 0.5, 1, 2, 5, 10, 30]);
const skipped = counter('journey_sweep_skipped_total', 'Journeys the sweep left to the next round because the consumer held their device');

export interface SweeperDeps {
  journeys: JourneysRepository;
  deviceJourneys: DeviceJourneys;
  routeIndexes: RouteIndexes;
  hot: HotState;
  store: OutcomeStore;
  events: EventSink;
  clock: Clock;
  logger: Logger;
  /** early-start window, as the position evaluator uses it */
  earlyStartMs: number;
  /** the routes version as the cache holds it */
  routesVersion: () => Promise<string | null>;
}

export interface SweepReport {
  checked: number;
  changed: number;
  /** left to the next sweep: the consumer held the device */
  skipped: number;
  /** left to the next sweep after an error (logged) */
  failed: number;
}

/**
 * The timer half of the evaluator: silence produces no positions, so signal loss (and activation
 * at the planned departure) need a sweep over the journeys that are active or due. Time comes from
 * the injected clock. A journey is rewritten only under its device's lock, after re-reading its
 * state, so it never overwrites what the position consumer just stored.
 */
export function journeySweeper(deps: SweeperDeps) {
  const { journeys, routeIndexes, hot, store, events } = deps;
  let timer: NodeJS.Timeout | undefined;
  let chain: Promise<unknown> = Promise.resolve();
  let timerBusy = false;

  async function sweepOnce(): Promise<SweepReport> {
    const end = sweepSeconds.startTimer();
    const now = deps.clock.now().getTime();
    routeIndexes.observeVersion(await deps.routesVersion());
    const byDevice = new Map<number, RuntimeJourney[]>();
    for (const row of await journeys.sweepCandidates(new Date(now))) {
      const j = runtimeJourney(row);
      if (j) byDevice.set(j.deviceId, [...(byDevice.get(j.deviceId) ?? []), j]);
    }
    const current = [...byDevice.values()]
      .map((list) => currentJourney(list, now, deps.earlyStartMs))
      .filter((j): j is RuntimeJourney => !!j);
    activeJourneys.set(current.filter((j) => j.state === 'active').length);
    const states = await hot.load(current.map((j) => j.id));
    const report: SweepReport = { checked: current.length, changed: 0, skipped: 0, failed: 0 };
    const due: RuntimeJourney[] = [];
    for (const j of current) {
      try {
        if (sweepStep(j, states.get(j.id), now, await routeIndexes.get(j))) due.push(j);
      } catch (err) {
        report.failed++;
        deps.logger.error({ err, journeyId: j.id, deviceId: j.deviceId }, 'journey not swept');
      }
    }

    for (const j of due) {
      if (!(await hot.tryLock(j.deviceId))) {
        report.skipped++;
        skipped.inc();
        continue;
      }
      try {
        const state = (await hot.load([j.id])).get(j.id);
        const step = sweepStep(j, state, now, await routeIndexes.get(j));
        if (!step) continue;
        const outcome = await store.persist(
          step.flags.map((change) => ({ journey: j, change, distanceM: step.state.distanceM, positionId: null })),
          step.transitions.map((transition) => ({ journey: j, transition, positionId: null })),
        );
        await events.emit(outcome.events);
        logChanges(deps.logger, outcome.events);
        if (outcome.rejected.has(j.id)) await hot.drop([j.id]);
        else await hot.save(new Map([[j.id, step.state]]));
        if (step.transitions.length || outcome.rejected.size) await deps.deviceJourneys.bump([j.deviceId]);
        report.changed++;
      } catch (err) {
        // one journey's failure (a database hiccup) must not starve the others; the next sweep retries it
        report.failed++;
        deps.logger.error({ err, journeyId: j.id, deviceId: j.deviceId }, 'journey not swept');
      } finally {
        await hot.unlock([j.deviceId]);
      }
    }
    end();
    return report;
  }

  /** One sweep at the clock's current time, after any sweep already running (sweeps never overlap). */
  function run(): Promise<SweepReport> {
    const next = chain.then(sweepOnce);
    chain = next.catch(() => undefined);
    return next;
  }

  return {
    run,
    start(intervalMs: number): void {
      if (intervalMs <= 0) return;
      timer = setInterval(() => {
        if (timerBusy) return;
        timerBusy = true;
        run()
          .catch((err: unknown) => deps.logger.error({ err }, 'journey sweep failed; the next one retries'))
          .finally(() => {
            timerBusy = false;
          });
      }, intervalMs);
      timer.unref();
    },
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = undefined;
      await chain;
    },
  };
}
export type JourneySweeper = ReturnType<typeof journeySweeper>;
