import type { Orm } from '../adapters/db';
import type { AuditFilter, AuditLogTable } from './audit-trail';

/**
 * The read side of an audit trail over the API: the list query a contract's audit endpoint declares
 * (`auditListQuery` in @corridor/contracts) turned into the trail's filter, and its rows into the
 * wire entry (actor grouped, `at` in ISO 8601, the service's own columns kept as they are).
 */

/** The parsed list query of an audit endpoint. */
export interface AuditListQuery<E extends string> {
  entityType?: E;
  entityId?: string;
  actorUserId?: number;
  /** Already split: repeated parameters and comma lists. */
  action?: string[];
  from?: string;
  to?: string;
  limit: number;
  offset: number;
}

export function auditFilterFrom<E extends string>(q: AuditListQuery<E>): AuditFilter<E> {
  const f: AuditFilter<E> = { limit: q.limit, offset: q.offset };
  if (q.entityType !== undefined) f.entityType = q.entityType;
  if (q.entityId !== undefined) f.entityId = q.entityId;
  if (q.actorUserId !== undefined) f.actorUserId = q.actorUserId;
  if (q.action?.length) f.actions = q.action;
  if (q.from !== undefined) f.from = new Date(q.from);
  if (q.to !== undefined) f.to = new Date(q.to);
  return f;
}

type AuditRow = AuditLogTable['$inferSelect'];
type ActorColumns = 'actorUserId' | 'actorEmail' | 'actorCompanyId';

/** An audit row on the wire: `actor` { userId, email, companyId where the table keeps it }, then the service's own columns. */
export type AuditEntryView<R extends AuditRow, E extends string> = Omit<R, ActorColumns | 'at' | 'entityType'> & {
  at: string;
  entityType: E;
  actor: { userId: R['actorUserId']; email: R['actorEmail'] } & (R extends { actorCompanyId: infer C } ? { companyId: C } : unknown);
};

/** `entityType` is typed by the trail that wrote the row (its `record` accepts only those). */
export function auditEntryView<R extends AuditRow, E extends string>(row: R): AuditEntryView<R, E> {
  const { actorUserId, actorEmail, at, ...rest } = row as AuditRow & { actorCompanyId?: number | null };
  const { actorCompanyId, ...own } = rest;
  const actor =
    'actorCompanyId' in rest
      ? { userId: actorUserId, email: actorEmail, companyId: actorCompanyId ?? null }
      : { userId: actorUserId, email: actorEmail };
  return { ...own, at: at.toISOString(), actor } as unknown as AuditEntryView<R, E>;
}

/** The reading half of a `createAuditTrail` result. */
export interface AuditTrailReader<R extends AuditRow, E extends string> {
  entityTypes: readonly E[];
  list(db: Orm, f: AuditFilter<E>): Promise<{ rows: R[]; total: number }>;
}

/** One page of a trail for an audit endpoint: { items, total, limit, offset }, newest first. */
export async function auditPage<R extends AuditRow, E extends string>(
  trail: AuditTrailReader<R, E>,
  db: Orm,
  q: AuditListQuery<NoInfer<E>>,
) {
  const filter = auditFilterFrom(q);
  const { rows, total } = await trail.list(db, filter);
  return { items: rows.map((r) => auditEntryView<R, E>(r)), total, limit: filter.limit, offset: filter.offset };
}
