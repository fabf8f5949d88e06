import { and, arrayContains, asc, desc, eq, exists, gte, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { JourneyFlagType } from '@corridor/contracts';
import type { Orm } from '@corridor/platform';
import { flags, journeys, routes, type JourneyRow } from '../db/schema';

export type JourneyListKind = 'active' | 'flagged' | 'completed';

export interface JourneyFilter {
  companyIds?: number[];
  routeIds?: number[];
  deviceIds?: number[];
  country?: string;
  flagTypes?: JourneyFlagType[];
  from?: Date;
  to?: Date;
  /** the caller's company (company users); undefined = every company */
  scope?: number;
  limit: number;
  offset: number;
}

export type NewJourneyValues = typeof journeys.$inferInsert;

const within = (column: PgColumn, from?: Date, to?: Date): SQL[] => [
  ...(from ? [gte(column, from)] : []),
  ...(to ? [lte(column, to)] : []),
];

export function journeysRepository(db: Orm) {
  const flagExists = (open: boolean, f: JourneyFilter): SQL =>
    exists(
      db
        .select({ one: sql`1` })
        .from(flags)
        .where(
          and(
            eq(flags.journeyId, journeys.id),
            ...(open ? [isNull(flags.clearedAt), isNull(flags.resolvedAt), ...within(flags.openedAt, f.from, f.to)] : []),
            ...(f.flagTypes?.length ? [inArray(flags.type, f.flagTypes)] : []),
          ),
        ),
    );

  function listWhere(kind: JourneyListKind, f: JourneyFilter): SQL | undefined {
    const parts: (SQL | undefined)[] = [];
    if (kind === 'active') parts.push(eq(journeys.state, 'active'), ...within(journeys.actualDeparture, f.from, f.to));
    if (kind === 'completed') parts.push(eq(journeys.state, 'completed'), ...within(journeys.actualArrival, f.from, f.to));
    if (kind === 'flagged') parts.push(flagExists(true, f));
    else if (f.flagTypes?.length) parts.push(flagExists(false, f));
    if (f.scope !== undefined) parts.push(eq(journeys.companyId, f.scope));
    if (f.companyIds?.length) parts.push(inArray(journeys.companyId, f.companyIds));
    if (f.routeIds?.length) parts.push(inArray(journeys.routeId, f.routeIds));
    if (f.deviceIds?.length) parts.push(inArray(journeys.deviceId, f.deviceIds));
    if (f.country) {
      parts.push(
        exists(
          db
            .select({ one: sql`1` })
            .from(routes)
            .where(and(eq(routes.id, journeys.routeId), arrayContains(routes.countries, [f.country]))),
        ),
      );
    }
    return and(...parts);
  }

  const order: Record<JourneyListKind, SQL[]> = {
    active: [desc(journeys.actualDeparture), desc(journeys.id)],
    completed: [desc(journeys.actualArrival), desc(journeys.id)],
    flagged: [desc(journeys.id)],
  };

  return {
    async list(kind: JourneyListKind, f: JourneyFilter): Promise<JourneyRow[]> {
      return db
        .select()
        .from(journeys)
        .where(listWhere(kind, f))
        .orderBy(...order[kind])
        .limit(f.limit)
        .offset(f.offset);
    },
    async get(id: number, tx: Orm = db): Promise<JourneyRow | undefined> {
      const [r] = await tx.select().from(journeys).where(eq(journeys.id, id));
      return r;
    },
    async getForUpdate(id: number, tx: Orm): Promise<JourneyRow | undefined> {
      const [r] = await tx.select().from(journeys).where(eq(journeys.id, id)).for('update');
      return r;
    },
    /** Locks the journeys' rows for the rest of the transaction and returns their states. */
    async lockStates(ids: number[], tx: Orm): Promise<Map<number, JourneyRow['state']>> {
      if (!ids.length) return new Map();
      const rows = await tx
        .select({ id: journeys.id, state: journeys.state })
        .from(journeys)
        .where(inArray(journeys.id, ids))
        .orderBy(asc(journeys.id))
        .for('update');
      return new Map(rows.map((r) => [r.id, r.state]));
    },
    async byIds(ids: number[], tx: Orm = db): Promise<JourneyRow[]> {
      return ids.length ? tx.select().from(journeys).where(inArray(journeys.id, ids)) : [];
    },
    async insert(values: NewJourneyValues, tx: Orm = db): Promise<JourneyRow> {
      const [r] = await tx.insert(journeys).values(values).returning();
      return r!;
    },
    /** Planned and active journeys of these devices (the evaluator's lookup). */
    async openOfDevices(deviceIds: number[]): Promise<JourneyRow[]> {
      if (!deviceIds.length) return [];
      return db
        .select()
        .from(journeys)
        .where(and(inArray(journeys.deviceId, deviceIds), inArray(journeys.state, ['planned', 'active'])))
        .orderBy(asc(journeys.id));
    },
    /** Active journeys, and planned ones due to depart by `now` (the sweep's work list). */
    async sweepCandidates(now: Date): Promise<JourneyRow[]> {
      return db
        .select()
        .from(journeys)
        .where(or(eq(journeys.state, 'active'), and(eq(journeys.state, 'planned'), lte(journeys.plannedDeparture, now))))
        .orderBy(asc(journeys.id));
    },
    /** Only-forward state changes from the evaluator; false when the journey had already moved on. */
    async markActive(id: number, at: Date, tx: Orm = db): Promise<boolean> {
      const r = await tx
        .update(journeys)
        .set({ state: 'active', actualDeparture: at, updatedAt: new Date() })
        .where(and(eq(journeys.id, id), eq(journeys.state, 'planned')))
        .returning({ id: journeys.id });
      return r.length > 0;
    },
    async markCompleted(id: number, at: Date, tx: Orm = db): Promise<boolean> {
      const r = await tx
        .update(journeys)
        .set({ state: 'completed', actualArrival: at, updatedAt: new Date() })
        .where(and(eq(journeys.id, id), inArray(journeys.state, ['planned', 'active'])))
        .returning({ id: journeys.id });
      return r.length > 0;
    },
    async markCancelled(id: number, values: { at: Date; by: number; reason: string | null }, tx: Orm): Promise<JourneyRow> {
      const [r] = await tx
        .update(journeys)
        .set({ state: 'cancelled', cancelledAt: values.at, cancelledBy: values.by, cancelReason: values.reason, updatedAt: new Date() })
        .where(eq(journeys.id, id))
        .returning();
      return r!;
    },
  };
}
export type JourneysRepository = ReturnType<typeof journeysRepository>;
