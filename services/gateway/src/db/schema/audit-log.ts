import { bigserial, index, integer, jsonb, text, timestamp } from 'drizzle-orm/pg-core';
import { identity } from './identity-schema';

/** Every identity decision (users, roles, links, tokens, passwords, sign-ins): who, when, before and after. */
export const auditLog = identity.table(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).defaultNow().notNull(),
    actorUserId: integer('actor_user_id'),
    actorEmail: text('actor_email'),
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id').notNull(),
    before: jsonb('before').$type<unknown>(),
    after: jsonb('after').$type<unknown>(),
    address: text('address'),
    requestId: text('request_id'),
  },
  (t) => [index('identity_audit_entity_idx').on(t.entityType, t.entityId), index('identity_audit_at_idx').on(t.at)],
);
export type AuditRow = typeof auditLog.$inferSelect;
