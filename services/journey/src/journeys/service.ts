import type { Journey, JourneyDetail, JourneyInput, JourneyTrackPoint } from '@corridor/contracts';
import {
  AppError,
  notFound,
  queryPositionHistory,
  unavailable,
  type Analytics,
  type Cache,
  type Clock,
  type Identity,
  type Logger,
  type Orm,
} from '@corridor/platform';
import { recordAudit } from '../audit/audit';
import type { JourneyRow } from '../db/schema';
import { journeyKeys } from '../evaluator/journey-keys';
import { cancelledEvent, flagChangeEvent, flagReviewEvent } from '../events/journey-events';
import type { EventSink } from '../events/event-sink';
import type { FlagsRepository } from '../flags/repository';
import { toRoute } from '../routes/corridor-route';
import type { RoutesRepository } from '../routes/repository';
import { fieldError } from '../routes/validation';
import { journeyScope } from './access';
import { journeyRef, NEXT_STATES, toFlag, toJourney } from './mapping';
import type { JourneyFilter, JourneyListKind, JourneysRepository } from './repository';

export interface JourneysServiceDeps {
  db: Orm;
  journeys: JourneysRepository;
  routes: RoutesRepository;
  flags: FlagsRepository;
  analytics: Analytics;
  cache: Cache;
  events: EventSink;
  clock: Clock;
  logger: Logger;
}

/**
 * Journeys: declaration, lists, the detail a client draws (planned route, actual track, flags) and
 * cancellation. A change to a device's journeys bumps its version in the cache so every evaluator
 * instance reloads them.
 */
export function journeysService(deps: JourneysServiceDeps) {
  const { db, journeys, routes, flags, cache, events, clock, logger } = deps;
  const history = queryPositionHistory(deps.analytics);

  async function announce(deviceId: number, journeyId?: number): Promise<void> {
    try {
      if (journeyId !== undefined) await cache.del(journeyKeys.state(journeyId));
      await cache.incr(journeyKeys.deviceVersion(deviceId));
    } catch (err) {
      logger.error({ err, deviceId, journeyId }, 'journey change not announced to the evaluators');
    }
  }

  async function present(rows: JourneyRow[]): Promise<Journey[]> {
    const routeRows = await routes.byIds([...new Set(rows.map((r) => r.routeId))]);
    const byId = new Map(routeRows.map((r) => [r.id, r]));
    const open = await flags.openTypes(rows.map((r) => r.id));
    return rows.map((r) => toJourney(r, byId.get(r.routeId), open.get(r.id) ?? []));
  }

  async function visible(id: number, scope: number | undefined): Promise<JourneyRow> {
    const row = await journeys.get(id);
    if (!row || (scope !== undefined && row.companyId !== scope)) throw notFound('Journey', id);
    return row;
  }

  async function track(row: JourneyRow, limit: number): Promise<{ points: JourneyTrackPoint[]; truncated: boolean }> {
    const from = row.actualDeparture ?? row.plannedDeparture ?? row.createdAt;
    const to = row.actualArrival ?? row.cancelledAt ?? clock.now();
    if (limit === 0 || from > to) return { points: [], truncated: false };
    let positions;
    try {
      positions = await history({ deviceIds: [row.deviceId], from, to, limit: limit + 1 });
    } catch (err) {
      throw unavailable('ClickHouse', err);
    }
    const points = positions.slice(0, limit).map((p) => ({
      id: p.id,
      fixTime: p.fixTime,
      latitude: p.latitude,
      longitude: p.longitude,
      speed: p.speed,
      course: p.course,
      valid: p.valid,
    }));
    return { points, truncated: positions.length > limit };
  }

  return {
    async create(input: JourneyInput, actor: Identity, requestId?: string): Promise<Journey> {
      const scope = journeyScope(actor);
      const companyId = input.companyId ?? (scope !== undefined ? scope : null);
      if (scope !== undefined && companyId !== scope) {
        throw new AppError('FORBIDDEN', 'companyId: you may declare journeys for your own company only', {
          field: 'companyId',
          companyId: scope,
        });
      }
      const route = await routes.get(input.routeId);
      if (!route) throw fieldError([{ in: 'body', path: 'routeId', message: `route ${input.routeId} does not exist` }]);
      const row = await db.transaction(async (tx) => {
        const r = await journeys.insert(
          {
            deviceId: input.deviceId,
            truckPlate: input.truckPlate,
            companyId,
            routeId: input.routeId,
            shipmentRef: input.shipmentRef,
            cargoRef: input.cargoRef,
            plannedDeparture: input.plannedDeparture ? new Date(input.plannedDeparture) : null,
            plannedArrival: input.plannedArrival ? new Date(input.plannedArrival) : null,
            origin: input.origin,
            destination: input.destination,
            createdBy: actor.userId,
            attributes: input.attributes,
          },
          tx,
        );
        await recordAudit(tx, actor, {
          action: 'journey.create',
          entityType: 'journey',
          entityId: r.id,
          companyId: r.companyId,
          after: { state: r.state, deviceId: r.deviceId, routeId: r.routeId },
          requestId,
        });
        return r;
      });
      await announce(row.deviceId);
      return toJourney(row, route, []);
    },

    async list(kind: JourneyListKind, f: JourneyFilter): Promise<Journey[]> {
      if (f.from && f.to && f.from > f.to)
        throw new AppError('VALIDATION_FAILED', 'querystring.from: must not be after to', [
          { in: 'querystring', path: 'from', message: 'must not be after to' },
        ]);
      return present(await journeys.list(kind, f));
    },

    async detail(id: number, caller: Identity, trackLimit: number): Promise<JourneyDetail> {
      const row = await visible(id, journeyScope(caller));
      const route = await routes.get(row.routeId);
      if (!route) throw new AppError('INTERNAL', `journey ${id} refers to a missing route ${row.routeId}`);
      const [journey] = await present([row]);
      const [{ points, truncated }, flagRows] = await Promise.all([track(row, trackLimit), flags.forJourney(id)]);
      return { journey: journey!, route: toRoute(route), track: points, trackTruncated: truncated, flags: flagRows.map(toFlag) };
    },

    /**
     * planned or active → cancelled. Its flags are closed: the open ones cleared with reason
     * journeyCancelled, and every one not resolved yet resolved by the canceller with the
     * cancellation's reason as the note (a cancelled journey leaves nothing to acknowledge or
     * resolve). Audited; the cleared and resolved flags are announced as events.
     */
    async cancel(id: number, reason: string | null, actor: Identity, requestId?: string): Promise<Journey> {
      const scope = journeyScope(actor);
      const now = clock.now();
      const { row, cleared, resolved } = await db.transaction(async (tx) => {
        const before = await journeys.getForUpdate(id, tx);
        if (!before || (scope !== undefined && before.companyId !== scope)) throw notFound('Journey', id);
        if (!NEXT_STATES[before.state].includes('cancelled')) {
          throw new AppError('INVALID_TRANSITION', `A ${before.state} journey cannot be cancelled`, {
            current: before.state,
            allowed: NEXT_STATES[before.state],
          });
        }
        const r = await journeys.markCancelled(id, { at: now, by: actor.userId, reason }, tx);
        const c = await flags.clearAll(id, now, { reason: 'journeyCancelled' }, tx);
        const resolved = await flags.resolveAll(id, { resolvedBy: actor.userId, resolvedAt: now, resolvedNote: reason }, tx);
        await recordAudit(tx, actor, {
          action: 'journey.cancel',
          entityType: 'journey',
          entityId: id,
          companyId: r.companyId,
          before: { state: before.state },
          after: { state: r.state, clearedFlags: c.map((f) => f.id), resolvedFlags: resolved.map((f) => f.id) },
          note: reason,
          requestId,
        });
        return { row: r, cleared: c, resolved };
      });
      await announce(row.deviceId, row.id);
      const ref = journeyRef(row);
      await events.emitAfterCommit([
        ...cleared.map((f) =>
          flagChangeEvent(
            ref,
            {
              type: f.type,
              action: 'clear',
              time: now.toISOString(),
              latitude: f.latitude,
              longitude: f.longitude,
              details: { reason: 'journeyCancelled' },
            },
            f.id,
            null,
          ),
        ),
        ...resolved.map((f) => flagReviewEvent(ref, f, 'resolved', now.toISOString(), actor.userId, reason)),
        cancelledEvent(ref, now.toISOString(), actor.userId, reason),
      ]);
      const [journey] = await present([row]);
      return journey!;
    },
  };
}
export type JourneysService = ReturnType<typeof journeysService>;
