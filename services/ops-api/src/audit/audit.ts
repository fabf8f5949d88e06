import { createAuditTrail } from '@corridor/platform';
import { auditLog } from '../db/schema';

/**
 * The audit trail of decisions (platform `createAuditTrail` over `ops.audit_log`). Pass `tx` inside a
 * transaction so the audit row commits or rolls back with the decision itself. A new audited entity
 * type is added here.
 */
export const audit = createAuditTrail(auditLog, {
  entityTypes: [
    'announcement',
    'calendar',
    'cargo',
    'company',
    'complaint',
    'computed_attribute',
    'configuration',
    'device',
    'device_model',
    'disciplinary_record',
    'draft',
    'driver',
    'group',
    'inventory',
    'maintenance',
    'notification_rule',
    'object_link',
    'observatory_settings',
    'order',
    'position',
    'saved_command',
    'scheduled_report',
    'shipment',
    'single_use_certificate',
    'tracking_unit',
    'truck_owner',
  ],
});
export type OpsAuditEntity = (typeof audit.entityTypes)[number];
