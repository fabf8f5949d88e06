import { auditActorColumns, auditLogTable } from '@corridor/platform/audit/audit-log-table';
import { identity } from './identity-schema';

/**
 * Every identity decision (users, roles, links, tokens, passwords, sign-ins): who, when, before and after.
 * The actor may be unknown (a sign-in or reset request before anyone is identified), and the caller's
 * address is kept.
 */
export const auditLog = auditLogTable(identity, {
  indexPrefix: 'identity_audit',
  actor: 'optional',
  columns: { address: auditActorColumns.address() },
});
export type AuditRow = typeof auditLog.$inferSelect;
