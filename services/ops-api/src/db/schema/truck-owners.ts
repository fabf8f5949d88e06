import { index, integer, jsonb, serial, text } from 'drizzle-orm/pg-core';
import { timestamps } from './columns';
import { ops } from './ops-schema';

/** Owners of trucks (a person or a firm), within the transporter company that operates them. */
export const truckOwners = ops.table(
  'truck_owners',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    idNumber: text('id_number'),
    phone: text('phone'),
    email: text('email'),
    address: text('address'),
    companyId: integer('company_id'),
    attributes: jsonb('attributes').$type<Record<string, unknown>>().notNull().default({}),
    ...timestamps,
  },
  (t) => [index('truck_owners_company_idx').on(t.companyId)],
);
export type TruckOwnerRow = typeof truckOwners.$inferSelect;
