import { sql } from 'drizzle-orm';
import { bigserial, boolean, index, integer, jsonb, text, timestamp } from 'drizzle-orm/pg-core';
import { ops } from './ops-schema';

/**
 * Inbox notifications. The audience is one user (userId), every user of a company (companyId,
 * userId null), or every holder of a role (role, no company); read state is per user in
 * notification_reads, so one company-wide notice is written once. `deliveryPending`: the notice's
 * mail and webhook deliveries to its addressees (their /settings/notification) are still to be
 * made after it commits (notice-deliveries.ts); set only for the domain notices.
 */
export const notifications = ops.table(
  'notifications',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    type: text('type', {
      enum: [
        'certificateApplied',
        'certificateSubmitted',
        'certificateApproved',
        'certificateRejected',
        'complaintFiled',
        'complaintStatusChanged',
        'sanctionRecorded',
        'deviceEvent',
        'notificationTest',
        'announcement',
      ],
    }).notNull(),
    title: text('title').notNull(),
    message: text('message').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id').notNull(),
    userId: integer('user_id'),
    companyId: integer('company_id'),
    role: text('role'),
    attributes: jsonb('attributes').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).defaultNow().notNull(),
    deliveryPending: boolean('delivery_pending').notNull().default(false),
  },
  (t) => [
    index('notifications_user_idx').on(t.userId, t.createdAt),
    index('notifications_company_idx').on(t.companyId, t.createdAt),
    index('notifications_role_idx').on(t.role, t.createdAt),
    index('notifications_delivery_pending_idx')
      .on(t.id)
      .where(sql`${t.deliveryPending}`),
  ],
);
export type NotificationRow = typeof notifications.$inferSelect;
