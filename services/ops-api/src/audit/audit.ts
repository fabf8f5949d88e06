import { OperationsAuditEntity } from '@corridor/contracts';
import { createAuditTrail } from '@corridor/platform';
import { auditLog } from '../db/schema';

/**
 * The audit trail of decisions (platform `createAuditTrail` over `ops.audit_log`). Pass `tx` inside a
 * transaction so the audit row commits or rolls back with the decision itself. A new audited entity
 * type is added to contracts' OperationsAuditEntity, which the audit API validates with.
 */
export const audit = createAuditTrail(auditLog, {
  entityTypes: OperationsAuditEntity.options,
});
export type OpsAuditEntity = (typeof audit.entityTypes)[number];
