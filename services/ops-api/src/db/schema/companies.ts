import { index, serial, text } from 'drizzle-orm/pg-core';
import { timestamps } from './columns';
import { ops } from './ops-schema';

/** Freight companies (transporters, shippers, clearing agents) and associations. */
export const companies = ops.table(
  'companies',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    country: text('country').notNull(),
    kind: text('kind', { enum: ['transporter', 'shipper', 'clearing_agent', 'association'] }).notNull(),
    registrationNumber: text('registration_number'),
    taxPin: text('tax_pin'),
    ...timestamps,
  },
  (t) => [index('companies_country_idx').on(t.country)],
);
export type CompanyRow = typeof companies.$inferSelect;
