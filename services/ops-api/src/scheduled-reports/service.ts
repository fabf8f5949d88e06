import { and, desc, eq, inArray, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type {
  ScheduledReport,
  ScheduledReportInput,
  ScheduledReportRun,
  ScheduledReportRunsQuery,
  ScheduledReportsQuery,
} from '@corridor/contracts';
import type { Identity, Orm } from '@corridor/platform';
import { scheduledReportRuns, scheduledReports, type ScheduledReportRow, type ScheduledReportRunRow } from '../db/schema';
import { invalidField } from '../resources/pg-errors';
import { resourceService } from '../resources/resource-service';

export const toScheduledReport = (r: ScheduledReportRow): ScheduledReport => ({
  id: r.id,
  type: r.type,
  description: r.description,
  calendarId: r.calendarId,
  deviceIds: r.deviceIds,
  groupIds: r.groupIds,
  recipients: r.recipients,
  format: r.format,
  companyId: r.companyId,
  attributes: r.attributes,
});

const toRun = (r: ScheduledReportRunRow): ScheduledReportRun => ({
  id: r.id,
  reportId: r.reportId,
  from: r.periodStart.toISOString(),
  to: r.periodEnd.toISOString(),
  status: r.status,
  items: r.items,
  error: r.error,
  attempts: r.attempts,
  startedAt: r.startedAt.toISOString(),
  finishedAt: r.finishedAt?.toISOString() ?? null,
});

/**
 * Scheduled reports (Traccar's /reports): company-scoped CRUD (the ids they carry, calendarId,
 * deviceIds and groupIds, are checked against the caller's company before this runs, from the
 * contract's ref annotations), and the history of their runs. Deleting a report keeps its runs.
 */
export function scheduledReportsService(db: Orm) {
  const crud = resourceService<ScheduledReportRow, ScheduledReport, ScheduledReportInput, z.output<typeof ScheduledReportsQuery>>(db, {
    name: 'Scheduled report',
    entityType: 'scheduled_report',
    table: scheduledReports,
    company: scheduledReports.companyId,
    shared: false,
    keywordColumns: [scheduledReports.description],
    toEntity: toScheduledReport,
    // no recipients (a Traccar client): the user who saves it, as Traccar mails a report to its owner
    toValues: (i, companyId, actor) => ({
      type: i.type,
      description: i.description,
      calendarId: i.calendarId,
      deviceIds: [...new Set(i.deviceIds)],
      groupIds: [...new Set(i.groupIds)],
      recipients: i.recipients.length ? i.recipients : [actor.identity.email],
      format: i.format,
      companyId,
      attributes: i.attributes,
    }),
    async validate(i, _companyId, actor) {
      if (!i.recipients.length && !z.email().safeParse(actor.identity.email).success) {
        throw invalidField('recipients', 'name the recipients: your account has no email address to mail the report to');
      }
    },
  });

  return {
    ...crud,
    async runs(id: number, q: z.output<typeof ScheduledReportRunsQuery>, who: Identity): Promise<ScheduledReportRun[]> {
      await crud.getRow(id, who);
      const where: (SQL | undefined)[] = [
        eq(scheduledReportRuns.reportId, id),
        q.status ? eq(scheduledReportRuns.status, q.status) : undefined,
      ];
      const rows = await db
        .select()
        .from(scheduledReportRuns)
        .where(and(...where))
        .orderBy(desc(scheduledReportRuns.periodStart), desc(scheduledReportRuns.id))
        .limit(q.limit)
        .offset(q.offset);
      return rows.map(toRun);
    },
    /** Every scheduled report of these calendars (the runner's read). */
    async ofCalendars(calendarIds: number[]): Promise<ScheduledReportRow[]> {
      if (!calendarIds.length) return [];
      return db.select().from(scheduledReports).where(inArray(scheduledReports.calendarId, calendarIds)).orderBy(scheduledReports.id);
    },
  };
}
export type ScheduledReportsService = ReturnType<typeof scheduledReportsService>;
