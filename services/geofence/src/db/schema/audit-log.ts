import { auditLogTable } from '@corridor/platform/audit/audit-log-table';
import { geofenceSchema } from './geofence-schema';

/** Every change to a fence or its links: who, when, before and after. */
export const auditLog = auditLogTable(geofenceSchema, { indexPrefix: 'audit', actor: 'required', columns: {} });
export type AuditRow = typeof auditLog.$inferSelect;
