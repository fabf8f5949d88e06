import { PositionMessage, Topics } from '@corridor/contracts';
import { consumeValidated, counter, histogram, type Bus, type Logger, type Subscription } from '@corridor/platform';
import { evaluate, type JourneyState } from '../detectors/journey-evaluator';
import { fixFromPosition } from '../detectors/position-fix';
import type { EventSink } from '../events/event-sink';
import type { DeviceJourneys } from './device-journeys';
import type { HotState } from './hot-state';
import { logChanges, type FlagOutcome, type OutcomeStore, type TransitionOutcome } from './outcome-store';
import type { RouteIndexes } from './route-indexes';
import { currentJourney, planOf } from './runtime-journey';

export const EVALUATOR_GROUP = 'journey-evaluator';

const evaluated = counter('journey_positions_evaluated_total', 'Positions fed to a journey evaluation');
const batchSeconds = histogram('journey_evaluation_batch_seconds', 'Time to evaluate and store one batch of positions');

export interface PositionEvaluatorDeps {
  bus: Bus;
  logger: Logger;
  deviceJourneys: DeviceJourneys;
  routeIndexes: RouteIndexes;
  hot: HotState;
  store: OutcomeStore;
  events: EventSink;
  /** a planned journey takes fixes from this long before its planned departure */
  earlyStartMs: number;
  /** how long a batch waits for device locks held by the sweep before it is retried */
  lockWaitMs: number;
}

/**
 * Evaluates positions.v1 against each device's current journey. Per batch (one partition, in
 * order): look up the devices' journeys, lock those devices, load the journeys' hot state, run the
 * detectors fix by fix, then store flag changes and transitions in PostgreSQL, the events in
 * ClickHouse and on events.v1, and only then the new hot state. A crash before the last step
 * replays the batch from the old state into the same, idempotent writes.
 */
export function positionEvaluator(deps: PositionEvaluatorDeps) {
  const { deviceJourneys, routeIndexes, hot, store, events } = deps;

  async function handle(positions: PositionMessage[]): Promise<void> {
    const end = batchSeconds.startTimer();
    const byDevice = new Map<number, PositionMessage[]>();
    for (const p of positions) {
      const list = byDevice.get(p.deviceId);
      if (list) list.push(p);
      else byDevice.set(p.deviceId, [p]);
    }
    const lookup = await deviceJourneys.forDevices([...byDevice.keys()]);
    routeIndexes.observeVersion(lookup.routesVersion);
    const devices = [...byDevice.keys()].filter((d) => lookup.journeys.get(d)?.length);
    if (!devices.length) return void end();

    await hot.lockAll(devices, deps.lockWaitMs);
    try {
      const states = await hot.load(devices.flatMap((d) => lookup.journeys.get(d)!.map((j) => j.id)));
      const changed = new Map<number, JourneyState>();
      const finished = new Set<number>();
      const deviceOf = new Map<number, number>();
      const flagOutcomes: FlagOutcome[] = [];
      const transitions: TransitionOutcome[] = [];
      let count = 0;
      for (const deviceId of devices) {
        const journeys = lookup.journeys.get(deviceId)!.map((j) => ({ ...j }));
        for (const p of byDevice.get(deviceId)!) {
          const fix = fixFromPosition(p);
          const j = currentJourney(journeys, fix.time, deps.earlyStartMs);
          if (!j) continue;
          const route = await routeIndexes.get(j);
          const before = states.get(j.id);
          const r = evaluate(before, fix, route.index, route.thresholds, planOf(j));
          count++;
          if (r.state === before) continue;
          states.set(j.id, r.state);
          changed.set(j.id, r.state);
          deviceOf.set(j.id, deviceId);
          for (const change of r.flags) flagOutcomes.push({ journey: j, change, distanceM: r.state.distanceM, positionId: p.id });
          for (const transition of r.transitions) {
            transitions.push({ journey: j, transition, positionId: p.id });
            if (transition.to === 'active') j.state = 'active';
            else {
              finished.add(j.id);
              journeys.splice(journeys.indexOf(j), 1);
            }
          }
        }
      }
      evaluated.inc(count);
      if (flagOutcomes.length || transitions.length) {
        const stored = await store.persist(flagOutcomes, transitions);
        await events.emit(stored.events);
        logChanges(deps.logger, stored.events);
        for (const id of stored.rejected) finished.add(id);
      }
      for (const id of finished) changed.delete(id);
      await hot.save(changed);
      await hot.drop(finished);
      const moved = [...transitions.map((t) => t.journey.id), ...finished];
      if (moved.length) await deviceJourneys.bump(moved.map((id) => deviceOf.get(id)!));
    } catch (err) {
      deviceJourneys.forget(devices);
      throw err;
    } finally {
      await hot.unlock(devices);
      end();
    }
  }

  return {
    handle,
    /** Subscribes to positions.v1 in the evaluator's consumer group. */
    start(): Promise<Subscription> {
      return consumeValidated({
        bus: deps.bus,
        logger: deps.logger,
        groupId: EVALUATOR_GROUP,
        topic: Topics.positions,
        schema: PositionMessage,
        fromBeginning: true,
        handle: (positions) => handle(positions),
      });
    },
  };
}
export type PositionEvaluator = ReturnType<typeof positionEvaluator>;
