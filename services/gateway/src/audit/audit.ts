import type { FastifyRequest } from 'fastify';
import { and, desc, eq } from 'drizzle-orm';
import type { Orm } from '@corridor/platform';
import { auditLog, type AuditRow } from '../db/schema';

export interface AuditActor {
  userId: number | null;
  email: string | null;
  address?: string;
  requestId?: string;
}

/** Who did it: the caller of this request. */
export function actorOf(req: FastifyRequest): AuditActor {
  return { userId: req.identity?.userId ?? null, email: req.identity?.email ?? null, address: req.ip, requestId: req.id };
}

export interface AuditEntry {
  action: string;
  entityType: 'user' | 'permission' | 'token' | 'session';
  entityId: string | number;
  before?: unknown;
  after?: unknown;
}

/**
 * The audit trail of identity decisions. `record` takes the drizzle handle it is given, so a caller
 * inside a transaction passes `tx` and the row commits or rolls back with the change itself.
 */
export const audit = {
  async record(db: Orm, actor: AuditActor, e: AuditEntry): Promise<void> {
    await db.insert(auditLog).values({
      actorUserId: actor.userId,
      actorEmail: actor.email,
      action: e.action,
      entityType: e.entityType,
      entityId: String(e.entityId),
      before: e.before ?? null,
      after: e.after ?? null,
      address: actor.address ?? null,
      requestId: actor.requestId ?? null,
    });
  },
  async forEntity(db: Orm, entityType: AuditEntry['entityType'], entityId: string | number): Promise<AuditRow[]> {
    return db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, entityType), eq(auditLog.entityId, String(entityId))))
      .orderBy(desc(auditLog.id));
  },
};
