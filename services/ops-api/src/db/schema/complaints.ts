import { index, integer, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { timestamps } from './columns';
import { ops } from './ops-schema';

/** Complaints against a company, driver, truck or journey flag; the workflow lives in complaints/workflow.ts. */
export const complaints = ops.table(
  'complaints',
  {
    id: serial('id').primaryKey(),
    subjectType: text('subject_type', { enum: ['company', 'driver', 'truck', 'journey_flag'] }).notNull(),
    subjectRef: text('subject_ref').notNull(),
    companyId: integer('company_id').notNull(),
    category: text('category', {
      enum: [
        'delay',
        'cargo_damage',
        'cargo_loss',
        'route_deviation',
        'unsafe_driving',
        'overloading',
        'misconduct',
        'documentation',
        'other',
      ],
    }).notNull(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    journeyId: text('journey_id'),
    occurredAt: timestamp('occurred_at', { withTimezone: true, mode: 'date' }),
    status: text('status', { enum: ['open', 'under_review', 'resolved', 'dismissed', 'closed'] })
      .notNull()
      .default('open'),
    resolution: text('resolution'),
    /** How the latest decision went (kept when closed, cleared on reopen): ratings count upheld complaints. */
    outcome: text('outcome', { enum: ['resolved', 'dismissed'] }),
    filedByUserId: integer('filed_by_user_id').notNull(),
    filedByEmail: text('filed_by_email').notNull(),
    filedByCompanyId: integer('filed_by_company_id'),
    statusChangedAt: timestamp('status_changed_at', { withTimezone: true, mode: 'date' }).defaultNow().notNull(),
    /** When it was last resolved or dismissed: the reopen window starts here. */
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
    ...timestamps,
  },
  (t) => [
    index('complaints_company_idx').on(t.companyId, t.createdAt),
    index('complaints_status_idx').on(t.status),
    index('complaints_created_idx').on(t.createdAt),
  ],
);
export type ComplaintRow = typeof complaints.$inferSelect;
