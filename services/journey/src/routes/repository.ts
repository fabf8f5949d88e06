import { and, arrayContains, count, eq, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Orm } from '@corridor/platform';
import { journeys, routes, type NewRouteRow, type RouteRow } from '../db/schema';

export interface RouteFilter {
  ids?: number[];
  /** a company caller's company: its routes and the shared ones (undefined: every route) */
  company?: number;
  keyword?: string;
  country?: string;
  limit: number;
  offset: number;
}

export type RouteValues = Omit<NewRouteRow, 'id' | 'version' | 'createdAt' | 'updatedAt'>;

export function routesRepository(db: Orm) {
  const where = (f: Partial<RouteFilter>): SQL | undefined => {
    const parts: (SQL | undefined)[] = [];
    if (f.ids?.length) parts.push(inArray(routes.id, f.ids));
    if (f.company !== undefined) parts.push(or(eq(routes.companyId, f.company), isNull(routes.companyId)));
    if (f.country) parts.push(arrayContains(routes.countries, [f.country]));
    if (f.keyword) {
      const k = `%${f.keyword.replace(/[%_\\]/g, (c) => '\\' + c)}%`;
      parts.push(or(ilike(routes.name, k), ilike(routes.code, k), ilike(routes.description, k)));
    }
    return parts.length ? and(...parts) : undefined;
  };
  return {
    async list(f: RouteFilter): Promise<RouteRow[]> {
      return db.select().from(routes).where(where(f)).orderBy(routes.id).limit(f.limit).offset(f.offset);
    },
    async get(id: number, tx: Orm = db): Promise<RouteRow | undefined> {
      const [r] = await tx.select().from(routes).where(eq(routes.id, id));
      return r;
    },
    async byIds(ids: number[]): Promise<RouteRow[]> {
      return ids.length ? db.select().from(routes).where(inArray(routes.id, ids)) : [];
    },
    async count(): Promise<number> {
      const [r] = await db.select({ n: count() }).from(routes);
      return r?.n ?? 0;
    },
    async insert(values: RouteValues, tx: Orm = db): Promise<RouteRow> {
      const [r] = await tx.insert(routes).values(values).returning();
      return r!;
    },
    /** Inserts unless the code is taken; undefined when it was (seeding is idempotent on the code). */
    async insertIfCodeFree(values: RouteValues, tx: Orm = db): Promise<RouteRow | undefined> {
      const [r] = await tx.insert(routes).values(values).onConflictDoNothing({ target: routes.code }).returning();
      return r;
    },
    async update(id: number, values: RouteValues, tx: Orm = db): Promise<RouteRow | undefined> {
      const [r] = await tx
        .update(routes)
        .set({ ...values, version: sql`${routes.version} + 1`, updatedAt: new Date() })
        .where(eq(routes.id, id))
        .returning();
      return r;
    },
    async delete(id: number, tx: Orm = db): Promise<RouteRow | undefined> {
      const [r] = await tx.delete(routes).where(eq(routes.id, id)).returning();
      return r;
    },
    /** Journeys on the route, by state (the update and delete guards). */
    async journeyStates(id: number, tx: Orm = db): Promise<Record<string, number>> {
      const rows = await tx
        .select({ state: journeys.state, n: count() })
        .from(journeys)
        .where(eq(journeys.routeId, id))
        .groupBy(journeys.state);
      return Object.fromEntries(rows.map((r) => [r.state, r.n]));
    },
  };
}
export type RoutesRepository = ReturnType<typeof routesRepository>;
