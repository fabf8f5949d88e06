import { IdentityAuditEntity } from '@corridor/contracts';
import { createAuditTrail } from '@corridor/platform';
import { auditLog } from '../db/schema';

export { actorOf, type AuditActor } from '@corridor/platform';

/**
 * The audit trail of identity decisions (platform `createAuditTrail` over `identity.audit_log`).
 * Pass `tx` inside a transaction so the row commits or rolls back with the change itself.
 */
export const audit = createAuditTrail(auditLog, { entityTypes: IdentityAuditEntity.options });
