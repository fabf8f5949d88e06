import { and, eq, ilike, or, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { notFound, type Identity, type Orm } from '@corridor/platform';
import { audit, type OpsAuditEntity } from '../audit/audit';
import { conflictOnUnique } from './pg-errors';
import { assertWritable, canSee, likePattern, ownerCompany, scopeCondition, type Actor } from './scope';

export interface BaseRow {
  id: number;
  companyId?: number | null;
}
export interface BaseQuery {
  keyword?: string;
  companyId?: number;
  limit: number;
  offset: number;
}
type Table = PgTable & { id: PgColumn; updatedAt: PgColumn };

export interface ResourceDef<Row extends BaseRow, Entity, Input, Query extends BaseQuery> {
  /** Human name for messages, e.g. 'Group'. */
  name: string;
  /** Audit entity type, e.g. 'group'. */
  entityType: OpsAuditEntity;
  table: Table;
  /** The owning-company column; null for platform-wide resources (no company scoping). */
  company: PgColumn | null;
  /** Entries with company null are shared: every caller reads them, only staff change them. */
  shared: boolean;
  keywordColumns: PgColumn[];
  /** Resource-specific list filters. */
  filters?: (q: Query) => (SQL | undefined)[];
  /** Overrides the company scope for reads (drafts: the owner only). */
  readScope?: (who: Identity, q: Query) => SQL | undefined;
  canRead?: (row: Row, who: Identity) => boolean;
  /** Throws when the caller may not change the row (default: same company, shared rows staff only). */
  assertWritable?: (row: Row | undefined, who: Identity, id: number) => asserts row is Row;
  /** The company the input asks for (default input.companyId). */
  requestedCompany?: (input: Input, who: Identity) => number | null;
  toEntity(row: Row): Entity;
  /** Column values of a create or replace. */
  toValues(input: Input, companyId: number | null, actor: Actor): Record<string, unknown>;
  /** Cross-field and cross-table checks (400/404/409), before writing. */
  validate?(input: Input, companyId: number | null, actor: Actor, existing?: Row): Promise<void>;
  beforeDelete?(row: Row, actor: Actor): Promise<void>;
  /** Runs inside the write's transaction (history rows beside the audit entry). */
  onWrite?(tx: Orm, action: 'create' | 'update' | 'delete', row: Row, actor: Actor): Promise<void>;
  /** Unique constraint name → the field it guards (409 names it). */
  unique?: Record<string, string>;
}

/**
 * A company-scoped CRUD resource over one table, written once for every Traccar-style resource:
 * list with keyword, filters and pagination; get; create and replace with validation; delete.
 * Every write is audited in the same transaction.
 */
export function resourceService<Row extends BaseRow, Entity, Input, Query extends BaseQuery>(
  db: Orm,
  def: ResourceDef<Row, Entity, Input, Query>,
) {
  const t = def.table;
  const readable = (row: Row | undefined, who: Identity): row is Row =>
    !!row && (def.canRead ? def.canRead(row, who) : canSee(row.companyId ?? null, who, def.shared));
  const checkWritable: (row: Row | undefined, who: Identity, id: number) => asserts row is Row =
    def.assertWritable ?? ((row, who, id) => assertWritable(row && { companyId: row.companyId ?? null }, who, def.name, id));
  const requested = def.requestedCompany ?? ((input: Input) => (input as { companyId?: number | null }).companyId ?? null);
  const companyFor = (input: Input, who: Identity): number | null => (def.company ? ownerCompany(who, requested(input, who)) : null);
  const conflictMessage = (field: string) => `A ${def.name.toLowerCase()} with this ${field} already exists`;

  async function fetch(id: number): Promise<Row | undefined> {
    const [row] = (await db
      .select()
      .from(t as PgTable)
      .where(eq(t.id, id))) as unknown as Row[];
    return row;
  }
  async function getRow(id: number, who: Identity): Promise<Row> {
    const row = await fetch(id);
    if (!readable(row, who)) throw notFound(def.name, id);
    return row;
  }

  return {
    async list(q: Query, who: Identity): Promise<Entity[]> {
      const parts: (SQL | undefined)[] = [
        def.readScope
          ? def.readScope(who, q)
          : def.company
            ? scopeCondition(def.company, who, { shared: def.shared, requested: q.companyId })
            : undefined,
        ...(def.filters?.(q) ?? []),
      ];
      if (q.keyword && def.keywordColumns.length) parts.push(or(...def.keywordColumns.map((c) => ilike(c, likePattern(q.keyword!)))));
      const rows = (await db
        .select()
        .from(t as PgTable)
        .where(and(...parts))
        .orderBy(t.id)
        .limit(q.limit)
        .offset(q.offset)) as unknown as Row[];
      return rows.map(def.toEntity);
    },
    /** The row when the caller may read it, else 404. */
    getRow,
    async get(id: number, who: Identity): Promise<Entity> {
      return def.toEntity(await getRow(id, who));
    },
    async create(input: Input, actor: Actor): Promise<Entity> {
      const companyId = companyFor(input, actor.identity);
      await def.validate?.(input, companyId, actor);
      const row = await conflictOnUnique(
        () =>
          db.transaction(async (tx) => {
            const [r] = (await tx
              .insert(t)
              .values(def.toValues(input, companyId, actor) as never)
              .returning()) as unknown as Row[];
            await audit.record(tx, actor.identity, {
              action: `${def.entityType}.create`,
              entityType: def.entityType,
              entityId: r!.id,
              companyId,
              after: def.toEntity(r!),
              requestId: actor.requestId,
            });
            await def.onWrite?.(tx, 'create', r!, actor);
            return r!;
          }),
        def.unique ?? {},
        conflictMessage,
      );
      return def.toEntity(row);
    },
    async update(id: number, input: Input, actor: Actor): Promise<Entity> {
      const existing = await fetch(id);
      checkWritable(existing, actor.identity, id);
      const companyId = companyFor(input, actor.identity);
      await def.validate?.(input, companyId, actor, existing);
      const row = await conflictOnUnique(
        () =>
          db.transaction(async (tx) => {
            const [r] = (await tx
              .update(t)
              .set({ ...def.toValues(input, companyId, actor), updatedAt: new Date() } as never)
              .where(eq(t.id, id))
              .returning()) as unknown as Row[];
            await audit.record(tx, actor.identity, {
              action: `${def.entityType}.update`,
              entityType: def.entityType,
              entityId: id,
              companyId,
              before: def.toEntity(existing),
              after: def.toEntity(r!),
              requestId: actor.requestId,
            });
            await def.onWrite?.(tx, 'update', r!, actor);
            return r!;
          }),
        def.unique ?? {},
        conflictMessage,
      );
      return def.toEntity(row);
    },
    async remove(id: number, actor: Actor): Promise<void> {
      const existing = await fetch(id);
      checkWritable(existing, actor.identity, id);
      await def.beforeDelete?.(existing, actor);
      await db.transaction(async (tx) => {
        await tx.delete(t).where(eq(t.id, id));
        await audit.record(tx, actor.identity, {
          action: `${def.entityType}.delete`,
          entityType: def.entityType,
          entityId: id,
          companyId: existing.companyId ?? null,
          before: def.toEntity(existing),
          requestId: actor.requestId,
        });
        await def.onWrite?.(tx, 'delete', existing, actor);
      });
    },
  };
}
export type ResourceService<Entity, Input, Query> = {
  list(q: Query, who: Identity): Promise<Entity[]>;
  get(id: number, who: Identity): Promise<Entity>;
  create(input: Input, actor: Actor): Promise<Entity>;
  update(id: number, input: Input, actor: Actor): Promise<Entity>;
  remove(id: number, actor: Actor): Promise<void>;
};
