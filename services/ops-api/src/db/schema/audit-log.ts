import { bigserial, index, integer, jsonb, text, timestamp } from 'drizzle-orm/pg-core';
import { ops } from './ops-schema';

/** Every decision (status change, approval, rejection, sanction): who, when, before and after. */
export const auditLog = ops.table(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).defaultNow().notNull(),
    actorUserId: integer('actor_user_id').notNull(),
    actorEmail: text('actor_email').notNull(),
    actorCompanyId: integer('actor_company_id'),
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id').notNull(),
    companyId: integer('company_id'),
    before: jsonb('before').$type<unknown>(),
    after: jsonb('after').$type<unknown>(),
    reason: text('reason'),
    requestId: text('request_id'),
  },
  (t) => [index('audit_entity_idx').on(t.entityType, t.entityId), index('audit_at_idx').on(t.at)],
);
export type AuditRow = typeof auditLog.$inferSelect;
