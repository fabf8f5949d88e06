import type { Identity, Orm } from '@corridor/platform';
import { auditLog } from '../db/schema';

export interface AuditEntry {
  action: string;
  entityType: 'route' | 'journey' | 'flag';
  entityId: string | number;
  companyId?: number | null;
  before?: unknown;
  after?: unknown;
  note?: string | null;
  requestId?: string;
}

/** Decisions the platform takes on its own (seeding), audited under this actor. */
export const systemActor: Identity = { userId: 0, email: 'system', name: 'system', roles: ['admin'], companyId: null };

/** Writes one audit row on the handle it is given (pass a transaction so the row commits with the decision). */
export async function recordAudit(db: Orm, actor: Identity, e: AuditEntry): Promise<void> {
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
    note: e.note ?? null,
    requestId: e.requestId ?? null,
  });
}
