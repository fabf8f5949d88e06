import { sql } from 'drizzle-orm';
import { index, integer, numeric, serial, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { cargos } from './cargos';
import { timestamps } from './columns';
import { documents } from './documents';
import { ops } from './ops-schema';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Single-use certificates a clearing agent applies for, one per cargo (a rejected one frees the
 * cargo for a new application: the partial unique index). Workflow: certificates/workflow.ts.
 */
export const singleUseCertificates = ops.table(
  'single_use_certificates',
  {
    id: serial('id').primaryKey(),
    number: text('number').generatedAlwaysAs(sql`'SUC-' || lpad(id::text, 6, '0')`),
    cargoId: integer('cargo_id')
      .notNull()
      .references(() => cargos.id),
    companyId: integer('company_id').notNull(),
    status: text('status', { enum: ['applied', 'submitted', 'approved', 'rejected'] })
      .notNull()
      .default('applied'),
    verificationCode: text('verification_code').notNull(),
    applicantUserId: integer('applicant_user_id').notNull(),
    applicantEmail: text('applicant_email').notNull(),
    feeAmount: numeric('fee_amount', { precision: 14, scale: 2, mode: 'number' }).notNull(),
    feeCurrency: text('fee_currency').notNull(),
    invoiceNumber: text('invoice_number'),
    receiptNumber: text('receipt_number'),
    paymentReference: text('payment_reference'),
    paymentMethod: text('payment_method', { enum: ['mpesa', 'bank_transfer', 'card', 'cash'] }),
    paidAt: at('paid_at'),
    certificateDocumentId: uuid('certificate_document_id').references(() => documents.id),
    invoiceDocumentId: uuid('invoice_document_id').references(() => documents.id),
    receiptDocumentId: uuid('receipt_document_id').references(() => documents.id),
    generatedAt: at('generated_at'),
    validUntil: at('valid_until'),
    decidedAt: at('decided_at'),
    decidedByUserId: integer('decided_by_user_id'),
    decidedByEmail: text('decided_by_email'),
    decisionReason: text('decision_reason'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('suc_verification_code_idx').on(t.verificationCode),
    uniqueIndex('suc_cargo_live_idx')
      .on(t.cargoId)
      .where(sql`status <> 'rejected'`),
    index('suc_company_created_idx').on(t.companyId, t.createdAt),
    index('suc_status_idx').on(t.status),
  ],
);
export type CertificateRow = typeof singleUseCertificates.$inferSelect;
