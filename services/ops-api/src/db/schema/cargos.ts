import { index, integer, jsonb, numeric, serial, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { IdfExtraction, IdfLineItem } from '@corridor/contracts';
import { timestamps } from './columns';
import { ops } from './ops-schema';

/** Cargo declared on an Import Declaration Form (IDF), with the extraction report it was created from. */
export const cargos = ops.table(
  'cargos',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull(),
    idfNumber: text('idf_number').notNull(),
    importerName: text('importer_name').notNull(),
    importerPin: text('importer_pin'),
    consignor: text('consignor'),
    countryOfOrigin: text('country_of_origin'),
    portOfDischarge: text('port_of_discharge'),
    invoiceValue: numeric('invoice_value', { precision: 18, scale: 2, mode: 'number' }),
    currency: text('currency'),
    lineItems: jsonb('line_items').$type<IdfLineItem[]>().notNull().default([]),
    extraction: jsonb('extraction').$type<IdfExtraction>().notNull(),
    sourceDocumentId: uuid('source_document_id'),
    status: text('status', { enum: ['submitted', 'validated', 'rejected', 'released', 'delivered', 'cancelled'] })
      .notNull()
      .default('submitted'),
    createdByUserId: integer('created_by_user_id').notNull(),
    createdByEmail: text('created_by_email').notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('cargos_company_idf_idx').on(t.companyId, t.idfNumber),
    index('cargos_company_created_idx').on(t.companyId, t.createdAt),
    index('cargos_status_idx').on(t.status),
  ],
);
export type CargoRow = typeof cargos.$inferSelect;
export type NewCargoRow = typeof cargos.$inferInsert;
