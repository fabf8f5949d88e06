import { GeofenceAuditEntity } from '@corridor/contracts';
import { createAuditTrail } from '@corridor/platform';
import { auditLog } from '../db/schema';

/**
 * The trail of fence changes (platform `createAuditTrail` over `geofence.audit_log`). Pass `tx` inside
 * a transaction so the audit row commits or rolls back with the change itself.
 */
export const audit = createAuditTrail(auditLog, { entityTypes: GeofenceAuditEntity.options });
