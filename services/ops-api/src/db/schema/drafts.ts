import { index, integer, jsonb, serial, text } from 'drizzle-orm/pg-core';
import { timestamps } from './columns';
import { ops } from './ops-schema';

/** Saved unfinished forms, owned by one user. */
export const drafts = ops.table(
  'drafts',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull(),
    companyId: integer('company_id'),
    kind: text('kind').notNull(),
    title: text('title'),
    payload: jsonb('payload').$type<unknown>().notNull(),
    ...timestamps,
  },
  (t) => [index('drafts_user_idx').on(t.userId, t.kind)],
);
export type DraftRow = typeof drafts.$inferSelect;
