import { and, desc, eq } from 'drizzle-orm';
import type { Identity, Orm } from '@corridor/platform';
import { auditLog, type AuditRow } from '../db/schema';

export interface AuditEntry {
  action: string;
  entityType: 'geofence' | 'geofence_link';
  entityId: string | number;
  before?: unknown;
  after?: unknown;
  requestId?: string;
}

/**
 * The trail of fence changes. `record` takes the drizzle handle it is given, so inside a
 * transaction the audit row commits or rolls back with the change itself.
 */
export const audit = {
  async record(db: Orm, actor: Identity, e: AuditEntry): Promise<void> {
    await db.insert(auditLog).values({
      actorUserId: actor.userId,
      actorEmail: actor.email,
      action: e.action,
      entityType: e.entityType,
      entityId: String(e.entityId),
      before: e.before ?? null,
      after: e.after ?? null,
      requestId: e.requestId ?? null,
    });
  },
  async forEntity(db: Orm, entityType: AuditEntry['entityType'], entityId: string | number): Promise<AuditRow[]> {
    return db.select().from(auditLog)
      .where(and(eq(auditLog.entityType, entityType), eq(auditLog.entityId, String(entityId))))
      .orderBy(desc(auditLog.at), desc(auditLog.id));
  },
};
