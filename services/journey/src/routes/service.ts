import type { Route, RouteInput } from '@corridor/contracts';
import { AppError, assertWritable, notFound, ownerCompany, type Cache, type Identity, type Logger, type Orm } from '@corridor/platform';
import { recordAudit } from '../audit/audit';
import { buildRouteIndex } from '../corridor/route-index';
import { journeyKeys } from '../evaluator/journey-keys';
import { corridorRouteOf, toRoute } from './corridor-route';
import type { RouteFilter, RoutesRepository, RouteValues } from './repository';
import { checkRouteInput } from './validation';

const isUniqueViolation = (err: unknown): boolean => {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
};

/** Checks the input and derives the stored values (length and segment count from the route index itself). */
export function routeValues(input: RouteInput, companyId: number | null = null): RouteValues {
  const line = checkRouteInput(input);
  const values: Omit<RouteValues, 'lengthM' | 'segmentCount'> = {
    code: input.code,
    name: input.name,
    description: input.description,
    line: input.line,
    legs: input.legs,
    widthM: input.widthM,
    speedLimitsKmh: input.speedLimitsKmh,
    stopAreas: input.stopAreas,
    expectedDurationMinutes: input.expectedDurationMinutes,
    thresholds: input.thresholds,
    countries: input.countries,
    attributes: input.attributes,
    companyId,
  };
  const index = buildRouteIndex(
    corridorRouteOf({
      id: 0,
      line: input.line,
      legs: input.legs,
      widthM: input.widthM,
      speedLimitsKmh: input.speedLimitsKmh,
      stopAreas: input.stopAreas,
      expectedDurationMinutes: input.expectedDurationMinutes,
    }),
  );
  return { ...values, lengthM: Math.round(index.lengthM * 10) / 10, segmentCount: line.length - 1 };
}

export interface RoutesServiceDeps {
  db: Orm;
  repo: RoutesRepository;
  cache: Cache;
  logger: Logger;
}

/**
 * Corridor routes. Every change is audited and bumps the routes version in the cache, so every
 * evaluator instance rebuilds its route indexes. A route an active journey follows cannot change,
 * one any journey refers to cannot be deleted (409).
 */
export function routesService(deps: RoutesServiceDeps) {
  const { db, repo, cache, logger } = deps;

  async function announce(): Promise<void> {
    try {
      await cache.incr(journeyKeys.routesVersion);
    } catch (err) {
      logger.error({ err }, 'routes version not bumped; evaluators keep their route indexes until the next change');
    }
  }

  async function guarded<T>(fn: () => Promise<T>, code: string | null): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('CONFLICT', `A route with code ${code} already exists`, { field: 'code' });
      throw err;
    }
  }

  return {
    async list(f: RouteFilter): Promise<Route[]> {
      return (await repo.list(f)).map(toRoute);
    },
    async get(id: number): Promise<Route> {
      const row = await repo.get(id);
      if (!row) throw notFound('Route', id);
      return toRoute(row);
    },
    async create(input: RouteInput, actor: Identity, requestId?: string): Promise<Route> {
      const values = routeValues(input, ownerCompany(actor, input.companyId));
      const row = await guarded(
        () =>
          db.transaction(async (tx) => {
            const r = await repo.insert(values, tx);
            await recordAudit(tx, actor, {
              action: 'route.create',
              entityType: 'route',
              entityId: r.id,
              after: { name: r.name, code: r.code },
              requestId,
            });
            return r;
          }),
        input.code,
      );
      await announce();
      return toRoute(row);
    },
    async update(id: number, input: RouteInput, actor: Identity, requestId?: string): Promise<Route> {
      checkRouteInput(input);
      const row = await guarded(
        () =>
          db.transaction(async (tx) => {
            const before = await repo.get(id, tx);
            // another company's route answers 404, a shared one 403 unless staff (who own the shared routes)
            assertWritable(before, actor, 'Route', id);
            // staff leaving companyId out keep the owner; a company caller's route stays its own
            const values = routeValues(input, ownerCompany(actor, input.companyId ?? before.companyId));
            const states = await repo.journeyStates(id, tx);
            if (states.active)
              throw new AppError('CONFLICT', `Route ${id} is followed by ${states.active} active journey(s)`, {
                activeJourneys: states.active,
              });
            const r = await repo.update(id, values, tx);
            await recordAudit(tx, actor, {
              action: 'route.update',
              entityType: 'route',
              entityId: id,
              before: { version: before.version, name: before.name },
              after: { version: r!.version, name: r!.name },
              requestId,
            });
            return r!;
          }),
        input.code,
      );
      await announce();
      return toRoute(row);
    },
    async remove(id: number, actor: Identity, requestId?: string): Promise<void> {
      await db.transaction(async (tx) => {
        assertWritable(await repo.get(id, tx), actor, 'Route', id);
        const states = await repo.journeyStates(id, tx);
        const total = Object.values(states).reduce((a, b) => a + b, 0);
        if (total) throw new AppError('CONFLICT', `Route ${id} is referred to by ${total} journey(s)`, { journeys: states });
        const r = await repo.delete(id, tx);
        if (!r) throw notFound('Route', id);
        await recordAudit(tx, actor, {
          action: 'route.delete',
          entityType: 'route',
          entityId: id,
          before: { name: r.name, code: r.code },
          requestId,
        });
      });
      await announce();
    },
  };
}
export type RoutesService = ReturnType<typeof routesService>;
