import { bigserial, index, integer, jsonb, text, timestamp, type PgColumnBuilderBase, type PgSchema } from 'drizzle-orm/pg-core';

/**
 * 'required': every row names a signed-in actor (NOT NULL actor columns).
 * 'optional': rows may be written for a caller nobody has identified yet (the gateway's sign-in and
 * password-reset paths), so the actor columns are nullable.
 */
export type AuditActorMode = 'required' | 'optional';

const actorColumns = {
  required: () => ({ actorUserId: integer('actor_user_id').notNull(), actorEmail: text('actor_email').notNull() }),
  optional: () => ({ actorUserId: integer('actor_user_id'), actorEmail: text('actor_email') }),
};

/**
 * Optional columns the trail fills from the actor rather than from the entry, under these exact keys.
 * Any other extra column a service adds (company_id, note, reason, ...) is filled from the entry field
 * of the same key.
 */
export const auditActorColumns = {
  /** The actor's company (`AuditActor.companyId`, e.g. `Identity.companyId`). */
  actorCompanyId: () => integer('actor_company_id'),
  /** The caller's network address (`AuditActor.address`). */
  address: () => text('address'),
};

export interface AuditLogOptions<A extends AuditActorMode, X extends Record<string, PgColumnBuilderBase>> {
  /** Names the two indexes `<prefix>_entity_idx` and `<prefix>_at_idx`, as the service's migrations created them. */
  indexPrefix: string;
  actor: A;
  /** The service's extra columns: `auditActorColumns.*` under their keys, or entry fields of its own. */
  columns: X;
}

/**
 * The `audit_log` table of one service, in the PostgreSQL schema that service owns: who (actor), when
 * (`at`, set by the database), what (`action` on `entity_type`/`entity_id`), and the entity before and
 * after, plus the request it came in. Each service calls this once in its `db/schema/audit-log.ts`.
 */
export function auditLogTable<A extends AuditActorMode, X extends Record<string, PgColumnBuilderBase>>(
  schema: PgSchema<string>,
  opts: AuditLogOptions<A, X>,
) {
  const actor = actorColumns[opts.actor]() as ReturnType<(typeof actorColumns)[A]>;
  return schema.table(
    'audit_log',
    {
      id: bigserial('id', { mode: 'number' }).primaryKey(),
      at: timestamp('at', { withTimezone: true, mode: 'date' }).defaultNow().notNull(),
      ...actor,
      ...opts.columns,
      action: text('action').notNull(),
      entityType: text('entity_type').notNull(),
      entityId: text('entity_id').notNull(),
      before: jsonb('before').$type<unknown>(),
      after: jsonb('after').$type<unknown>(),
      requestId: text('request_id'),
    },
    (t) => [index(`${opts.indexPrefix}_entity_idx`).on(t.entityType, t.entityId), index(`${opts.indexPrefix}_at_idx`).on(t.at)],
  );
}
