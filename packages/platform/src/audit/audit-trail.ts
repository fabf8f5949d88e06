import type { FastifyRequest } from 'fastify';
import { and, count, desc, eq, getTableColumns, gte, inArray, lte, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Orm } from '../adapters/db';
import type { auditActorColumns, auditLogTable } from './audit-log-table';

/** Who did it. An `Identity` is one; `actorOf(req)` builds one for a caller who may not be signed in. */
export interface AuditActor {
  userId: number | null;
  email: string | null;
  /** Written where the table has `actor_company_id`. */
  companyId?: number | null;
  /** Written where the table has `address`. */
  address?: string;
  /** The request the decision came in; an entry's own `requestId` wins. */
  requestId?: string;
}

/** The actor of a table whose actor columns are NOT NULL: someone signed in. */
export interface SignedInAuditActor extends AuditActor {
  userId: number;
  email: string;
}

/** The caller of this request, signed in or not, with its address and request id. */
export function actorOf(req: FastifyRequest): AuditActor {
  const who = req.identity;
  return { userId: who?.userId ?? null, email: who?.email ?? null, companyId: who?.companyId ?? null, address: req.ip, requestId: req.id };
}

/** What was decided. `entityType` is the service's own union. */
export interface AuditEntryBase<E extends string> {
  action: string;
  entityType: E;
  entityId: string | number;
  before?: unknown;
  after?: unknown;
  requestId?: string;
}

interface AuditRowBase {
  id: number;
  at: Date;
  actorUserId: number | null;
  actorEmail: string | null;
  action: string;
  entityType: string;
  entityId: string;
  before: unknown;
  after: unknown;
  requestId: string | null;
}

/** Any table made by `auditLogTable`. */
export type AuditLogTable = PgTable & { $inferSelect: AuditRowBase };

type FilledByTrail = 'id' | 'at' | 'actorUserId' | 'actorEmail' | keyof typeof auditActorColumns | keyof AuditEntryBase<string>;

/** The entry of a table: the common fields plus the service's own columns (companyId, note, reason...). */
export type AuditEntry<E extends string, T extends AuditLogTable> = AuditEntryBase<E> & Omit<T['$inferInsert'], FilledByTrail>;

export type ActorFor<T extends AuditLogTable> = T['$inferSelect']['actorUserId'] extends number ? SignedInAuditActor : AuditActor;

export interface AuditFilter<E extends string> {
  entityType?: E;
  entityId?: string | number;
  actorUserId?: number;
  actions?: string[];
  from?: Date;
  to?: Date;
  limit: number;
  offset: number;
}

// the queries are written once against the common columns; every audit table has them
type CommonAuditTable = ReturnType<typeof auditLogTable<'optional', Record<never, never>>>;

/**
 * The audit trail of one service over its own table. `record` writes on the handle it is given, so a
 * caller inside a transaction passes `tx` and the row commits or rolls back with the decision itself.
 * Reads are newest first.
 */
export function createAuditTrail<T extends AuditLogTable, const E extends string>(table: T, opts: { entityTypes: readonly E[] }) {
  const t = table as unknown as CommonAuditTable;
  const columns = Object.keys(getTableColumns(table));
  const has = (key: keyof typeof auditActorColumns): boolean => columns.includes(key);
  type Row = T['$inferSelect'];

  const where = (f: Partial<AuditFilter<E>>): SQL | undefined => {
    const parts: SQL[] = [];
    if (f.entityType !== undefined) parts.push(eq(t.entityType, f.entityType));
    if (f.entityId !== undefined) parts.push(eq(t.entityId, String(f.entityId)));
    if (f.actorUserId !== undefined) parts.push(eq(t.actorUserId, f.actorUserId));
    if (f.actions?.length) parts.push(inArray(t.action, f.actions));
    if (f.from) parts.push(gte(t.at, f.from));
    if (f.to) parts.push(lte(t.at, f.to));
    return parts.length ? and(...parts) : undefined;
  };

  return {
    entityTypes: opts.entityTypes,
    async record(db: Orm, actor: ActorFor<T>, entry: AuditEntry<E, T>): Promise<void> {
      const { action, entityType, entityId, before, after, requestId, ...own } = entry as AuditEntryBase<E> & Record<string, unknown>;
      const row: Record<string, unknown> = {
        ...own,
        actorUserId: actor.userId,
        actorEmail: actor.email,
        action,
        entityType,
        entityId: String(entityId),
        before: before ?? null,
        after: after ?? null,
        requestId: requestId ?? actor.requestId ?? null,
      };
      if (has('actorCompanyId')) row.actorCompanyId = actor.companyId ?? null;
      if (has('address')) row.address = actor.address ?? null;
      await db.insert(t).values(row as typeof t.$inferInsert);
    },
    async forEntity(db: Orm, entityType: E, entityId: string | number): Promise<Row[]> {
      const rows = await db.select().from(t).where(where({ entityType, entityId })).orderBy(desc(t.at), desc(t.id));
      return rows as Row[];
    },
    async list(db: Orm, f: AuditFilter<E>): Promise<{ rows: Row[]; total: number }> {
      const rows = await db.select().from(t).where(where(f)).orderBy(desc(t.at), desc(t.id)).limit(f.limit).offset(f.offset);
      const [c] = await db.select({ n: count() }).from(t).where(where(f));
      return { rows: rows as Row[], total: c?.n ?? 0 };
    },
  };
}
