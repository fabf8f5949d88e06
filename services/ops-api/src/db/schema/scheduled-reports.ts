import { bigserial, index, integer, jsonb, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from './columns';
import { ops } from './ops-schema';

/** Traccar's scheduled reports: a report of devices and groups, run when an event of its calendar ends, emailed. */
export const scheduledReports = ops.table(
  'scheduled_reports',
  {
    id: serial('id').primaryKey(),
    type: text('type', { enum: ['route', 'events', 'trips', 'stops', 'summary'] }).notNull(),
    description: text('description'),
    calendarId: integer('calendar_id').notNull(),
    deviceIds: jsonb('device_ids').$type<number[]>().notNull().default([]),
    groupIds: jsonb('group_ids').$type<number[]>().notNull().default([]),
    recipients: jsonb('recipients').$type<string[]>().notNull().default([]),
    format: text('format', { enum: ['xlsx', 'csv'] })
      .notNull()
      .default('xlsx'),
    companyId: integer('company_id'),
    attributes: jsonb('attributes').$type<Record<string, unknown>>().notNull().default({}),
    ...timestamps,
  },
  (t) => [index('scheduled_reports_company_idx').on(t.companyId)],
);
export type ScheduledReportRow = typeof scheduledReports.$inferSelect;

/**
 * One run of a scheduled report, for one calendar event: the unique key is the claim (the instance
 * whose insert succeeds runs it; another finds the row and leaves it), then the run's outcome.
 */
export const scheduledReportRuns = ops.table(
  'scheduled_report_runs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    reportId: integer('report_id').notNull(),
    periodStart: timestamp('period_start', { withTimezone: true, mode: 'date' }).notNull(),
    periodEnd: timestamp('period_end', { withTimezone: true, mode: 'date' }).notNull(),
    status: text('status', { enum: ['running', 'sent', 'failed'] }).notNull(),
    items: integer('items'),
    error: text('error'),
    instance: text('instance').notNull(),
    /** How many times the run was claimed: a claim left `running` past the lease is taken again, up to a limit. */
    attempts: integer('attempts').notNull().default(1),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).defaultNow().notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('scheduled_report_runs_once_idx').on(t.reportId, t.periodStart),
    index('scheduled_report_runs_report_idx').on(t.reportId, t.startedAt),
  ],
);
export type ScheduledReportRunRow = typeof scheduledReportRuns.$inferSelect;
