import { bigserial, index, integer, text, timestamp } from 'drizzle-orm/pg-core';
import { cargos } from './cargos';
import { ops } from './ops-schema';

/** Every state a cargo entered: from, to, who and when (creation has from = null). */
export const cargoStatusHistory = ops.table(
  'cargo_status_history',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    cargoId: integer('cargo_id').notNull().references(() => cargos.id, { onDelete: 'cascade' }),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).defaultNow().notNull(),
    byUserId: integer('by_user_id').notNull(),
    byEmail: text('by_email').notNull(),
    reason: text('reason'),
  },
  (t) => [index('cargo_status_history_cargo_idx').on(t.cargoId, t.at)],
);
export type CargoStatusHistoryRow = typeof cargoStatusHistory.$inferSelect;
