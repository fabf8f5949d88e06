import { and, asc, count, eq, ilike, inArray, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { GeofenceKind } from '@corridor/contracts';
import type { Orm } from '@corridor/platform';
import { geofenceLinks, geofences, type GeofenceLinkRow, type GeofenceRow, type NewGeofenceRow } from '../db/schema';

export interface GeofenceFilter {
  /** a company caller's company: its fences and the shared ones (undefined: every fence) */
  company?: number;
  /** fences linked to this device (directly: Traccar's list filter) */
  deviceId?: number;
  /** fences linked to this group */
  groupId?: number;
  kinds?: GeofenceKind[];
  country?: string;
  keyword?: string;
  ids?: number[];
  limit: number;
  offset: number;
}

export interface LinkTarget {
  deviceId?: number;
  groupId?: number;
}

const escapeLike = (s: string): string => `%${s.replace(/[%_\\]/g, (c) => '\\' + c)}%`;

export function geofencesRepository(db: Orm) {
  const linkedWhere = (cond: SQL) =>
    sql`exists (select 1 from ${geofenceLinks} where ${geofenceLinks.geofenceId} = ${geofences.id} and ${cond})`;

  const where = (f: Partial<GeofenceFilter>): SQL | undefined => {
    const parts: (SQL | undefined)[] = [];
    if (f.ids) parts.push(f.ids.length ? inArray(geofences.id, f.ids) : sql`false`);
    if (f.company !== undefined) parts.push(or(eq(geofences.companyId, f.company), isNull(geofences.companyId)));
    if (f.kinds?.length) parts.push(inArray(geofences.kind, f.kinds));
    if (f.country) parts.push(eq(geofences.country, f.country));
    if (f.keyword) parts.push(or(ilike(geofences.name, escapeLike(f.keyword)), ilike(geofences.description, escapeLike(f.keyword))));
    if (f.deviceId !== undefined) parts.push(linkedWhere(eq(geofenceLinks.deviceId, f.deviceId)));
    if (f.groupId !== undefined) parts.push(linkedWhere(eq(geofenceLinks.groupId, f.groupId)));
    return parts.length ? and(...parts) : undefined;
  };

  return {
    async list(f: GeofenceFilter): Promise<GeofenceRow[]> {
      return db.select().from(geofences).where(where(f)).orderBy(asc(geofences.id)).limit(f.limit).offset(f.offset);
    },
    async count(f: Partial<GeofenceFilter> = {}): Promise<number> {
      const [r] = await db.select({ n: count() }).from(geofences).where(where(f));
      return r?.n ?? 0;
    },
    /** Ids of every fence matching the filter (no paging). */
    async ids(f: Partial<GeofenceFilter>): Promise<number[]> {
      return (await db.select({ id: geofences.id }).from(geofences).where(where(f)).orderBy(asc(geofences.id))).map((r) => r.id);
    },
    async get(id: number, tx: Orm = db): Promise<GeofenceRow | undefined> {
      const [r] = await tx.select().from(geofences).where(eq(geofences.id, id));
      return r;
    },
    async byIds(ids: number[]): Promise<GeofenceRow[]> {
      if (!ids.length) return [];
      return db.select().from(geofences).where(inArray(geofences.id, ids));
    },
    async insert(values: NewGeofenceRow, tx: Orm = db): Promise<GeofenceRow> {
      const [r] = await tx.insert(geofences).values(values).returning();
      return r!;
    },
    /** Inserts fences whose seed key is not there yet; returns the inserted rows. */
    async insertSeeds(values: NewGeofenceRow[], tx: Orm = db): Promise<GeofenceRow[]> {
      if (!values.length) return [];
      return tx.insert(geofences).values(values).onConflictDoNothing({ target: geofences.seedKey }).returning();
    },
    async update(id: number, values: Omit<NewGeofenceRow, 'id'>, tx: Orm = db): Promise<GeofenceRow | undefined> {
      const [r] = await tx
        .update(geofences)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(geofences.id, id))
        .returning();
      return r;
    },
    async delete(id: number, tx: Orm = db): Promise<GeofenceRow | undefined> {
      const [r] = await tx.delete(geofences).where(eq(geofences.id, id)).returning();
      return r;
    },
    /** Links of the given fences (every fence's when ids is undefined). */
    async links(ids?: number[], tx: Orm = db): Promise<GeofenceLinkRow[]> {
      if (ids && !ids.length) return [];
      return tx
        .select()
        .from(geofenceLinks)
        .where(ids ? inArray(geofenceLinks.geofenceId, ids) : undefined)
        .orderBy(asc(geofenceLinks.geofenceId), asc(geofenceLinks.id));
    },
    /** The new link, or undefined when it exists already. */
    async link(geofenceId: number, target: LinkTarget, tx: Orm = db): Promise<GeofenceLinkRow | undefined> {
      const [r] = await tx
        .insert(geofenceLinks)
        .values({ geofenceId, deviceId: target.deviceId ?? null, groupId: target.groupId ?? null })
        .onConflictDoNothing()
        .returning();
      return r;
    },
    async unlink(geofenceId: number, target: LinkTarget, tx: Orm = db): Promise<GeofenceLinkRow | undefined> {
      const cond =
        target.deviceId !== undefined
          ? eq(geofenceLinks.deviceId, target.deviceId)
          : target.groupId !== undefined
            ? eq(geofenceLinks.groupId, target.groupId)
            : isNull(geofenceLinks.id);
      const [r] = await tx
        .delete(geofenceLinks)
        .where(and(eq(geofenceLinks.geofenceId, geofenceId), cond))
        .returning();
      return r;
    },
    /** Links of devices (`owner` device) or of groups, to one owner and one fence or any (undefined). */
    async linkRows(f: {
      owner: 'device' | 'group';
      ownerId?: number | undefined;
      geofenceId?: number | undefined;
    }): Promise<GeofenceLinkRow[]> {
      const col = f.owner === 'device' ? geofenceLinks.deviceId : geofenceLinks.groupId;
      return db
        .select()
        .from(geofenceLinks)
        .where(
          and(
            f.ownerId !== undefined ? eq(col, f.ownerId) : isNotNull(col),
            f.geofenceId !== undefined ? eq(geofenceLinks.geofenceId, f.geofenceId) : undefined,
          ),
        )
        .orderBy(asc(geofenceLinks.id));
    },
    /** Every fence in pages, with its links (evaluator load, definition sync). */
    async *allWithLinks(pageSize = 1000): AsyncGenerator<{ rows: GeofenceRow[]; links: GeofenceLinkRow[] }> {
      for (let offset = 0; ; offset += pageSize) {
        const rows = await db.select().from(geofences).orderBy(asc(geofences.id)).limit(pageSize).offset(offset);
        if (rows.length) yield { rows, links: await this.links(rows.map((r) => r.id)) };
        if (rows.length < pageSize) return;
      }
    },
  };
}
export type GeofencesRepository = ReturnType<typeof geofencesRepository>;
