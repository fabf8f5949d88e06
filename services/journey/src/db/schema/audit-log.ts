import { bigserial, index, integer, jsonb, text } from 'drizzle-orm/pg-core';
import { instant } from './columns';
import { journeySchema } from './journey-schema';

/** Every decision on routes, journeys and flags: who, when, before and after, and the note given. */
export const auditLog = journeySchema.table(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: instant('at').defaultNow().notNull(),
    actorUserId: integer('actor_user_id').notNull(),
    actorEmail: text('actor_email').notNull(),
    actorCompanyId: integer('actor_company_id'),
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id').notNull(),
    companyId: integer('company_id'),
    before: jsonb('before').$type<unknown>(),
    after: jsonb('after').$type<unknown>(),
    note: text('note'),
    requestId: text('request_id'),
  },
  (t) => [index('journey_audit_entity_idx').on(t.entityType, t.entityId), index('journey_audit_at_idx').on(t.at)],
);
export type AuditRow = typeof auditLog.$inferSelect;
