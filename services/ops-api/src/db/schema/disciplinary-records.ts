import { index, integer, numeric, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { complaints } from './complaints';
import { ops } from './ops-schema';

/** Sanctions against a company, driver or truck, optionally linked to a complaint or a journey flag. */
export const disciplinaryRecords = ops.table(
  'disciplinary_records',
  {
    id: serial('id').primaryKey(),
    subjectType: text('subject_type', { enum: ['company', 'driver', 'truck'] }).notNull(),
    subjectRef: text('subject_ref').notNull(),
    companyId: integer('company_id').notNull(),
    sanctionType: text('sanction_type', { enum: ['warning', 'fine', 'probation', 'training', 'suspension', 'blacklist'] }).notNull(),
    reason: text('reason').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true, mode: 'date' }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true, mode: 'date' }),
    fineAmount: numeric('fine_amount', { precision: 14, scale: 2, mode: 'number' }),
    fineCurrency: text('fine_currency'),
    complaintId: integer('complaint_id').references(() => complaints.id),
    journeyFlagId: text('journey_flag_id'),
    recordedByUserId: integer('recorded_by_user_id').notNull(),
    recordedByEmail: text('recorded_by_email').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).defaultNow().notNull(),
  },
  (t) => [
    index('disciplinary_company_idx').on(t.companyId, t.startsAt),
    index('disciplinary_complaint_idx').on(t.complaintId),
    index('disciplinary_created_idx').on(t.createdAt),
  ],
);
export type DisciplinaryRow = typeof disciplinaryRecords.$inferSelect;
