import { bigserial, index, integer } from 'drizzle-orm/pg-core';
import { cargos } from './cargos';
import { statusChange } from './columns';
import { ops } from './ops-schema';

/** Every state a cargo entered: from, to, who and when (creation has from = null). */
export const cargoStatusHistory = ops.table(
  'cargo_status_history',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    cargoId: integer('cargo_id')
      .notNull()
      .references(() => cargos.id, { onDelete: 'cascade' }),
    ...statusChange,
  },
  (t) => [index('cargo_status_history_cargo_idx').on(t.cargoId, t.at)],
);
export type CargoStatusHistoryRow = typeof cargoStatusHistory.$inferSelect;
