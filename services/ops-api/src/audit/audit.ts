import { and, desc, eq } from 'drizzle-orm';
import type { Identity, Orm } from '@corridor/platform';
import { auditLog, type AuditRow } from '../db/schema';

export interface AuditEntry {
  action: string;
  entityType: string;
  entityId: string | number;
  companyId?: number | null;
  before?: unknown;
  after?: unknown;
  reason?: string | null;
  requestId?: string;
}

/**
 * The audit trail of decisions. `record` takes the drizzle handle it is given, so a caller inside a
 * transaction passes `tx` and the audit row commits or rolls back with the decision itself.
 */
export const audit = {
  async record(db: Orm, actor: Identity, e: AuditEntry): Promise<void> {
    await db.insert(auditLog).values({
      actorUserId: actor.userId,
      actorEmail: actor.email,
      actorCompanyId: actor.companyId,
      action: e.action,
      entityType: e.entityType,
      entityId: String(e.entityId),
      companyId: e.companyId ?? null,
      before: e.before ?? null,
      after: e.after ?? null,
      reason: e.reason ?? null,
      requestId: e.requestId ?? null,
    });
  },
  async forEntity(db: Orm, entityType: string, entityId: string | number): Promise<AuditRow[]> {
    return db.select().from(auditLog).where(and(eq(auditLog.entityType, entityType), eq(auditLog.entityId, String(entityId)))).orderBy(desc(auditLog.at), desc(auditLog.id));
  },
};
