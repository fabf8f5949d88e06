import { integer, text } from 'drizzle-orm/pg-core';
import { auditActorColumns, auditLogTable } from '@corridor/platform/audit/audit-log-table';
import { ops } from './ops-schema';

/** Every decision (status change, approval, rejection, sanction): who, when, before and after, the company and the reason. */
export const auditLog = auditLogTable(ops, {
  indexPrefix: 'audit',
  actor: 'required',
  columns: { actorCompanyId: auditActorColumns.actorCompanyId(), companyId: integer('company_id'), reason: text('reason') },
});
export type AuditRow = typeof auditLog.$inferSelect;
