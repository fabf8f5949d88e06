import type { EventMessage } from '@corridor/contracts';
import { counter, type Logger, type Orm } from '@corridor/platform';
import type { FlagChange } from '../detectors/flag-change';
import type { JourneyTransition } from '../detectors/journey-evaluator';
import { flagChangeEvent, transitionEvent } from '../events/journey-events';
import { flagKey, type FlagsRepository } from '../flags/repository';
import type { JourneysRepository } from '../journeys/repository';
import type { RuntimeJourney } from './runtime-journey';

const flagChanges = counter('journey_flag_changes_total', 'Flag openings, escalations and clearings stored', ['type', 'action']);

export interface FlagOutcome {
  journey: RuntimeJourney;
  change: FlagChange;
  /** distance from the centre line at the change, metres */
  distanceM: number | null;
  positionId: number | null;
}

export interface TransitionOutcome {
  journey: RuntimeJourney;
  transition: JourneyTransition;
  positionId: number | null;
}

export interface StoredOutcome {
  /** events for every change stored (or already stored by an earlier delivery) */
  events: EventMessage[];
  /** journeys no longer planned or active (cancelled meanwhile): nothing was written for them */
  rejected: Set<number>;
}

/**
 * Writes the evaluator's flag changes and state transitions in one transaction, under row locks of
 * the journeys involved (so a cancellation cannot interleave). Every write is idempotent.
 */
export function outcomeStore(deps: { db: Orm; journeys: JourneysRepository; flags: FlagsRepository }) {
  const { db, journeys, flags } = deps;
  return {
    async persist(flagOutcomes: FlagOutcome[], transitions: TransitionOutcome[]): Promise<StoredOutcome> {
      const ids = [...new Set([...flagOutcomes, ...transitions].map((o) => o.journey.id))];
      if (!ids.length) return { events: [], rejected: new Set() };
      return db.transaction(async (tx) => {
        const states = await journeys.lockStates(ids, tx);
        const rejected = new Set(ids.filter((id) => states.get(id) !== 'planned' && states.get(id) !== 'active'));
        const live = flagOutcomes.filter((o) => !rejected.has(o.journey.id));
        const isEscalation = (c: FlagChange) => c.action === 'open' && c.details.escalated === true;
        const opened = await flags.openMany(
          live
            .filter((o) => o.change.action === 'open' && !isEscalation(o.change))
            .map(({ journey: j, change: c, distanceM }) => ({
              journeyId: j.id,
              deviceId: j.deviceId,
              type: c.type,
              openedAt: new Date(c.time),
              latitude: c.latitude,
              longitude: c.longitude,
              distanceM: typeof c.details.distanceM === 'number' ? c.details.distanceM : distanceM,
              details: c.details,
            })),
          tx,
        );
        const escalated = new Map<string, number | null>();
        for (const { journey: j, change: c } of live.filter((o) => isEscalation(o.change))) {
          escalated.set(flagKey(j.id, c.type, new Date(c.time)), await flags.escalate(j.id, c.type, new Date(c.time), c.details, tx));
        }
        const cleared = await flags.clearMany(
          live
            .filter((o) => o.change.action === 'clear')
            .map(({ journey: j, change: c }) => ({ journeyId: j.id, type: c.type, at: new Date(c.time), details: c.details })),
          tx,
        );
        const events: EventMessage[] = live.map(({ journey: j, change: c, positionId }) => {
          const key = flagKey(j.id, c.type, new Date(c.time));
          const flagId = c.action === 'clear' ? cleared.get(key) : isEscalation(c) ? escalated.get(key) : opened.get(key);
          flagChanges.inc({ type: c.type, action: isEscalation(c) ? 'escalate' : c.action });
          return flagChangeEvent(j, c, flagId ?? null, positionId);
        });
        for (const t of transitions) {
          if (rejected.has(t.journey.id)) continue;
          const at = new Date(t.transition.time);
          if (t.transition.to === 'active') await journeys.markActive(t.journey.id, at, tx);
          else await journeys.markCompleted(t.journey.id, at, tx);
          events.push(transitionEvent(t.journey, t.transition, t.positionId));
        }
        events.sort((a, b) => Date.parse(a.eventTime) - Date.parse(b.eventTime));
        return { events, rejected };
      });
    },
  };
}
export type OutcomeStore = ReturnType<typeof outcomeStore>;

/** One log line per stored change, with the journey and device ids. */
export function logChanges(logger: Logger, events: EventMessage[]): void {
  for (const e of events) {
    logger.info(
      { journeyId: e.journeyId, deviceId: e.deviceId, event: e.type, flagType: e.attributes.flagType, at: e.eventTime },
      'journey change stored',
    );
  }
}
