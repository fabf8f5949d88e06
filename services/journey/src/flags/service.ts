import type { JourneyFlag, JourneyFlagReview } from '@corridor/contracts';
import { AppError, notFound, type Clock, type Identity, type Orm } from '@corridor/platform';
import { recordAudit } from '../audit/audit';
import { flagReviewEvent } from '../events/journey-events';
import type { EventSink } from '../events/event-sink';
import { journeyScope } from '../journeys/access';
import { journeyRef, NEXT_REVIEWS, reviewOf, toFlag } from '../journeys/mapping';
import type { JourneysRepository } from '../journeys/repository';
import type { FlagsRepository } from './repository';

/**
 * A dispatcher's review of a flag: acknowledge (seen, being handled), then resolve (dealt with).
 * Each step is audited with who, when and the note, and announced as an event.
 */
export function flagsService(deps: { db: Orm; flags: FlagsRepository; journeys: JourneysRepository; events: EventSink; clock: Clock }) {
  const { db, flags, journeys, events, clock } = deps;

  async function review(
    flagId: number,
    to: Exclude<JourneyFlagReview, 'new'>,
    note: string | null,
    actor: Identity,
    requestId?: string,
  ): Promise<JourneyFlag> {
    const scope = journeyScope(actor);
    const at = clock.now();
    const { row, journey } = await db.transaction(async (tx) => {
      const before = await flags.getForUpdate(flagId, tx);
      const j = before ? await journeys.get(before.journeyId, tx) : undefined;
      if (!before || !j || (scope !== undefined && j.companyId !== scope)) throw notFound('Flag', flagId);
      const current = reviewOf(before);
      if (!NEXT_REVIEWS[current].includes(to)) {
        throw new AppError('INVALID_TRANSITION', `A flag that is ${current} cannot be ${to}`, { current, allowed: NEXT_REVIEWS[current] });
      }
      const r = await flags.review(
        flagId,
        to === 'acknowledged'
          ? { acknowledgedBy: actor.userId, acknowledgedAt: at, acknowledgedNote: note }
          : { resolvedBy: actor.userId, resolvedAt: at, resolvedNote: note },
        tx,
      );
      await recordAudit(tx, actor, {
        action: to === 'acknowledged' ? 'flag.acknowledge' : 'flag.resolve',
        entityType: 'flag',
        entityId: flagId,
        companyId: j.companyId,
        before: { review: current },
        after: { review: to, journeyId: j.id, type: r.type },
        note,
        requestId,
      });
      return { row: r, journey: j };
    });
    await events.emitAfterCommit([flagReviewEvent(journeyRef(journey), row, to, at.toISOString(), actor.userId, note)]);
    return toFlag(row);
  }

  return {
    acknowledge: (flagId: number, note: string | null, actor: Identity, requestId?: string) =>
      review(flagId, 'acknowledged', note, actor, requestId),
    resolve: (flagId: number, note: string, actor: Identity, requestId?: string) => review(flagId, 'resolved', note, actor, requestId),
  };
}
export type FlagsService = ReturnType<typeof flagsService>;
