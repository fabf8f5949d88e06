import { index, integer, jsonb, serial, text } from 'drizzle-orm/pg-core';
import { timestamps } from './columns';
import { ops } from './ops-schema';

/** Traccar groups: devices are grouped, groups nest through group_id (parent). */
export const groups = ops.table(
  'groups',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    groupId: integer('group_id'),
    companyId: integer('company_id'),
    attributes: jsonb('attributes').$type<Record<string, unknown>>().notNull().default({}),
    ...timestamps,
  },
  (t) => [index('groups_company_idx').on(t.companyId), index('groups_parent_idx').on(t.groupId)],
);
export type GroupRow = typeof groups.$inferSelect;
