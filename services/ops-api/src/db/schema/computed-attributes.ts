import { index, integer, serial, text } from 'drizzle-orm/pg-core';
import { timestamps } from './columns';
import { ops } from './ops-schema';

/** Traccar computed attributes: a JEXL-syntax expression evaluated on positions, stored under attribute. */
export const computedAttributes = ops.table(
  'computed_attributes',
  {
    id: serial('id').primaryKey(),
    description: text('description').notNull(),
    attribute: text('attribute').notNull(),
    expression: text('expression').notNull(),
    type: text('type', { enum: ['String', 'Number', 'Boolean'] }).notNull(),
    priority: integer('priority').notNull().default(0),
    companyId: integer('company_id'),
    ...timestamps,
  },
  (t) => [index('computed_attributes_company_idx').on(t.companyId)],
);
export type ComputedAttributeRow = typeof computedAttributes.$inferSelect;
