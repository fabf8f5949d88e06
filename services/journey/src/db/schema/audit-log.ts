import { integer, text } from 'drizzle-orm/pg-core';
import { auditActorColumns, auditLogTable } from '@corridor/platform/audit/audit-log-table';
import { journeySchema } from './journey-schema';

/** Every decision on routes, journeys and flags: who, when, before and after, the company and the note given. */
export const auditLog = auditLogTable(journeySchema, {
  indexPrefix: 'journey_audit',
  actor: 'required',
  columns: { actorCompanyId: auditActorColumns.actorCompanyId(), companyId: integer('company_id'), note: text('note') },
});
export type AuditRow = typeof auditLog.$inferSelect;
