import { and, asc, eq, inArray, isNull, lte, max, or, sql } from 'drizzle-orm';
import type { JourneyFlagType } from '@corridor/contracts';
import type { Orm } from '@corridor/platform';
import { flags, type FlagRow } from '../db/schema';

export interface ClearValues {
  journeyId: number;
  type: JourneyFlagType;
  at: Date;
  details: Record<string, unknown>;
}

/** How a flag change finds its row again: journey, type and the change's time. */
export const flagKey = (journeyId: number, type: string, at: Date): string => `${journeyId}|${type}|${at.getTime()}`;

export interface OpenFlagValues {
  journeyId: number;
  deviceId: number;
  type: JourneyFlagType;
  openedAt: Date;
  latitude: number;
  longitude: number;
  distanceM: number | null;
  details: Record<string, unknown>;
}

/**
 * Flag rows. Writes are idempotent so a redelivered position changes nothing: an opening is keyed
 * by (journey, type, opened_at); an escalation or a clearing touches only the newest flag of that
 * type opened no later than the change, and only while it is open, so the writes of one batch may
 * be applied in any order and never reach a flag opened after the change.
 */
export function flagsRepository(db: Orm) {
  /** The newest flag of the type opened no later than `at`, if it is still open. */
  const latestOpen = (journeyId: number, type: JourneyFlagType, at: Date) =>
    and(
      eq(flags.journeyId, journeyId),
      eq(flags.type, type),
      isNull(flags.clearedAt),
      eq(
        flags.openedAt,
        db
          .select({ at: max(flags.openedAt) })
          .from(flags)
          .where(and(eq(flags.journeyId, journeyId), eq(flags.type, type), lte(flags.openedAt, at))),
      ),
    );
  /** Opens flags; returns each one's id (keyed by flagKey), whether this call inserted it or an earlier delivery did. */
  async function openMany(values: OpenFlagValues[], tx: Orm = db): Promise<Map<string, number>> {
    const ids = new Map<string, number>();
    if (!values.length) return ids;
    const inserted = await tx
      .insert(flags)
      .values(values)
      .onConflictDoNothing()
      .returning({ id: flags.id, journeyId: flags.journeyId, type: flags.type, openedAt: flags.openedAt });
    for (const r of inserted) ids.set(flagKey(r.journeyId, r.type, r.openedAt), r.id);
    const existing = values.filter((v) => !ids.has(flagKey(v.journeyId, v.type, v.openedAt)));
    if (existing.length) {
      const rows = await tx
        .select({ id: flags.id, journeyId: flags.journeyId, type: flags.type, openedAt: flags.openedAt })
        .from(flags)
        .where(or(...existing.map((v) => and(eq(flags.journeyId, v.journeyId), eq(flags.type, v.type), eq(flags.openedAt, v.openedAt)))));
      for (const r of rows) ids.set(flagKey(r.journeyId, r.type, r.openedAt), r.id);
    }
    return ids;
  }

  /** Clears flags in one statement; returns the ids of those it cleared, keyed by flagKey(journey, type, clearing time). */
  async function clearMany(items: ClearValues[], tx: Orm = db): Promise<Map<string, number>> {
    const ids = new Map<string, number>();
    if (!items.length) return ids;
    const values = sql.join(
      items.map(
        (i) =>
          sql`(${i.journeyId}::int, ${i.type}::text, ${i.at.toISOString()}::timestamptz, ${JSON.stringify({ cleared: i.details })}::jsonb)`,
      ),
      sql`, `,
    );
    const result = (await tx.execute(sql`
      update ${flags} as f set cleared_at = v.at, details = f.details || v.extra, updated_at = now()
      from (values ${values}) as v(journey_id, type, at, extra)
      where f.journey_id = v.journey_id and f.type = v.type and f.cleared_at is null
        and f.opened_at = (select max(g.opened_at) from ${flags} as g where g.journey_id = v.journey_id and g.type = v.type and g.opened_at <= v.at)
      returning f.id, f.journey_id, f.type, v.at`)) as unknown as {
      rows: { id: string | number; journey_id: number; type: JourneyFlagType; at: Date | string }[];
    };
    for (const r of result.rows) ids.set(flagKey(r.journey_id, r.type, new Date(r.at)), Number(r.id));
    // cleared by an earlier delivery: find them by their clearing time, so their events keep the id
    const earlier = items.filter((i) => !ids.has(flagKey(i.journeyId, i.type, i.at)));
    if (earlier.length) {
      const rows = await tx
        .select({ id: flags.id, journeyId: flags.journeyId, type: flags.type, clearedAt: flags.clearedAt })
        .from(flags)
        .where(or(...earlier.map((i) => and(eq(flags.journeyId, i.journeyId), eq(flags.type, i.type), eq(flags.clearedAt, i.at)))));
      for (const r of rows) ids.set(flagKey(r.journeyId, r.type, r.clearedAt!), r.id);
    }
    return ids;
  }

  return {
    openMany,
    clearMany,
    async forJourney(journeyId: number): Promise<FlagRow[]> {
      return db.select().from(flags).where(eq(flags.journeyId, journeyId)).orderBy(asc(flags.openedAt), asc(flags.id));
    },
    async get(id: number, tx: Orm = db): Promise<FlagRow | undefined> {
      const [r] = await tx.select().from(flags).where(eq(flags.id, id));
      return r;
    },
    async getForUpdate(id: number, tx: Orm): Promise<FlagRow | undefined> {
      const [r] = await tx.select().from(flags).where(eq(flags.id, id)).for('update');
      return r;
    },
    async open(v: OpenFlagValues, tx: Orm = db): Promise<number> {
      return (await openMany([v], tx)).get(flagKey(v.journeyId, v.type, v.openedAt))!;
    },
    /** Marks the flag escalated (signal loss past its second threshold); its id, also when an earlier delivery did. */
    async escalate(
      journeyId: number,
      type: JourneyFlagType,
      at: Date,
      details: Record<string, unknown>,
      tx: Orm = db,
    ): Promise<number | null> {
      const [r] = await tx
        .update(flags)
        .set({
          escalated: true,
          escalatedAt: at,
          details: sql`${flags.details} || ${JSON.stringify({ escalation: details })}::jsonb`,
          updatedAt: new Date(),
        })
        .where(and(latestOpen(journeyId, type, at), eq(flags.escalated, false)))
        .returning({ id: flags.id });
      if (r) return r.id;
      const [earlier] = await tx
        .select({ id: flags.id })
        .from(flags)
        .where(and(eq(flags.journeyId, journeyId), eq(flags.type, type), eq(flags.escalatedAt, at)));
      return earlier?.id ?? null;
    },
    async clear(
      journeyId: number,
      type: JourneyFlagType,
      at: Date,
      details: Record<string, unknown>,
      tx: Orm = db,
    ): Promise<number | null> {
      return (await clearMany([{ journeyId, type, at, details }], tx)).get(flagKey(journeyId, type, at)) ?? null;
    },
    /** Clears every flag of the journey still open (cancellation). */
    async clearAll(journeyId: number, at: Date, details: Record<string, unknown>, tx: Orm = db): Promise<FlagRow[]> {
      return tx
        .update(flags)
        .set({ clearedAt: at, details: sql`${flags.details} || ${JSON.stringify({ cleared: details })}::jsonb`, updatedAt: new Date() })
        .where(and(eq(flags.journeyId, journeyId), isNull(flags.clearedAt)))
        .returning();
    },
    /** Resolves every flag of the journey not resolved yet (cancellation: nothing is left to deal with). */
    async resolveAll(
      journeyId: number,
      values: { resolvedBy: number; resolvedAt: Date; resolvedNote: string | null },
      tx: Orm,
    ): Promise<FlagRow[]> {
      return tx
        .update(flags)
        .set({ ...values, updatedAt: new Date() })
        .where(and(eq(flags.journeyId, journeyId), isNull(flags.resolvedAt)))
        .returning();
    },
    async review(
      id: number,
      values:
        | { acknowledgedBy: number; acknowledgedAt: Date; acknowledgedNote: string | null }
        | { resolvedBy: number; resolvedAt: Date; resolvedNote: string | null },
      tx: Orm,
    ): Promise<FlagRow> {
      const [r] = await tx
        .update(flags)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(flags.id, id))
        .returning();
      return r!;
    },
    /** Types of the flags neither cleared nor resolved, per journey. */
    async openTypes(journeyIds: number[]): Promise<Map<number, JourneyFlagType[]>> {
      const out = new Map<number, JourneyFlagType[]>();
      if (!journeyIds.length) return out;
      const rows = await db
        .selectDistinct({ journeyId: flags.journeyId, type: flags.type })
        .from(flags)
        .where(and(inArray(flags.journeyId, journeyIds), isNull(flags.clearedAt), isNull(flags.resolvedAt)))
        .orderBy(asc(flags.journeyId), asc(flags.type));
      for (const r of rows) out.set(r.journeyId, [...(out.get(r.journeyId) ?? []), r.type]);
      return out;
    },
  };
}
export type FlagsRepository = ReturnType<typeof flagsRepository>;
