import { bigserial, index, integer, jsonb, text, timestamp } from 'drizzle-orm/pg-core';
import { geofenceSchema } from './geofence-schema';

/** Every change to a fence or its links: who, when, before and after. */
export const auditLog = geofenceSchema.table(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).defaultNow().notNull(),
    actorUserId: integer('actor_user_id').notNull(),
    actorEmail: text('actor_email').notNull(),
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id').notNull(),
    before: jsonb('before').$type<unknown>(),
    after: jsonb('after').$type<unknown>(),
    requestId: text('request_id'),
  },
  (t) => [index('audit_entity_idx').on(t.entityType, t.entityId), index('audit_at_idx').on(t.at)],
);
export type AuditRow = typeof auditLog.$inferSelect;
