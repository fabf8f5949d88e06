import { eq, lte } from 'drizzle-orm';
import { counter, type Logger, type Orm } from '@corridor/platform';
import { parseCalendar } from '@corridor/platform/calendar/ical';
import type { CalendarSchedule } from '@corridor/platform/calendar/schedule';
import { calendars, scheduledReportRuns, scheduledReports } from '../db/schema';
import type { MailChannel } from '../notification-rules/mail-channel';
import type { ReportsService } from '../reports/service';
import { reportFile } from './report-file';
import { toScheduledReport } from './service';

export interface ScheduledReportRunnerDeps {
  db: Orm;
  reports: ReportsService;
  /** The mail channel (SMTP_URL); without one every due run fails, saying so. */
  mail?: MailChannel;
  logger: Logger;
  /** This instance's name, kept with the runs it claims. */
  instance: string;
  now?: () => number;
  /** How far back a check looks for calendar events that ended (default a day): events that ended while no instance ran. */
  lookbackMs?: number;
}

const runsTotal = counter('scheduled_report_runs_total', 'Scheduled report runs by outcome', ['status']);

/**
 * Runs scheduled reports on their calendars, as Traccar's TaskReports does: when an event of a
 * report's calendar has ended, the report runs once over that event's period and the file is
 * emailed to the recipients. Only events that ended after the report was created count.
 *
 * Each due run is claimed by inserting its row (report, event start) under a unique key: with
 * several instances checking at once, exactly one insert succeeds and that instance runs it; the
 * others, and later checks, find the row and skip it. A run's row says how it ended (sent, or
 * failed with the reason); a run that failed is not repeated.
 */
export function scheduledReportRunner(deps: ScheduledReportRunnerDeps) {
  const now = deps.now ?? Date.now;
  const lookback = deps.lookbackMs ?? 86_400_000;
  const parsed = new Map<number, { updatedAt: number; schedule: CalendarSchedule | undefined }>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;

  function scheduleOf(row: { id: number; data: string; updatedAt: Date }): CalendarSchedule | undefined {
    const known = parsed.get(row.id);
    if (known && known.updatedAt === row.updatedAt.getTime()) return known.schedule;
    let schedule: CalendarSchedule | undefined;
    try {
      schedule = parseCalendar(row.data);
    } catch (err) {
      deps.logger.warn({ calendarId: row.id, err: (err as Error).message }, 'scheduled reports: calendar does not parse');
    }
    parsed.set(row.id, { updatedAt: row.updatedAt.getTime(), schedule });
    return schedule;
  }

  /** True when this instance claimed the run (and ran it). */
  async function runOne(row: typeof scheduledReports.$inferSelect, period: { start: number; end: number }): Promise<boolean> {
    const [claimed] = await deps.db.insert(scheduledReportRuns)
      .values({ reportId: row.id, periodStart: new Date(period.start), periodEnd: new Date(period.end), status: 'running', instance: deps.instance })
      .onConflictDoNothing().returning({ id: scheduledReportRuns.id });
    if (!claimed) return false; // another instance (or an earlier check) has it
    const report = toScheduledReport(row);
    let outcome: { status: 'sent' | 'failed'; items: number | null; error: string | null };
    try {
      if (!deps.mail) throw new Error('no mail channel: the server has no SMTP_URL');
      const file = await reportFile(deps.reports, report, { from: period.start, to: period.end });
      const what = `${report.type} report${report.description ? ` "${report.description}"` : ''}`;
      const span = `${new Date(period.start).toISOString()} – ${new Date(period.end).toISOString()}`;
      await deps.mail.send(report.recipients.join(', '), `Corridor ${what}, ${span}`, `The ${what} for ${span}: ${file.items} rows, attached.`, [
        { filename: file.filename, content: file.content, contentType: file.contentType },
      ]);
      outcome = { status: 'sent', items: file.items, error: null };
    } catch (err) {
      outcome = { status: 'failed', items: null, error: err instanceof Error ? err.message : String(err) };
      deps.logger.warn({ reportId: row.id, from: period.start, to: period.end, err: outcome.error }, 'scheduled report run failed');
    }
    await deps.db.update(scheduledReportRuns).set({ ...outcome, finishedAt: new Date() }).where(eq(scheduledReportRuns.id, claimed.id));
    runsTotal.inc({ status: outcome.status });
    return true;
  }

  /** Runs every report whose calendar had an event end by `at`; resolves to the number of runs this instance made. */
  async function check(at = now()): Promise<number> {
    const rows = await deps.db.select().from(scheduledReports).where(lte(scheduledReports.createdAt, new Date(at)));
    if (!rows.length) return 0;
    const cals = await deps.db.select({ id: calendars.id, data: calendars.data, updatedAt: calendars.updatedAt }).from(calendars);
    const byId = new Map(cals.map((c) => [c.id, c]));
    let runs = 0;
    for (const row of rows) {
      const cal = byId.get(row.calendarId);
      const schedule = cal && scheduleOf(cal);
      if (!schedule) continue;
      const after = Math.max(row.createdAt.getTime(), at - lookback);
      for (const period of schedule.endedBetween(after, at)) {
        if (await runOne(row, period)) runs++;
      }
    }
    return runs;
  }

  return {
    check,
    /** Checks every `everyMs` (one check at a time). */
    start(everyMs: number): void {
      timer = setInterval(() => {
        if (running) return;
        running = check().catch((err: unknown) => {
          deps.logger.error({ err }, 'scheduled reports: check failed');
          return 0;
        }).finally(() => (running = undefined));
      }, everyMs);
      timer.unref();
    },
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      await running;
    },
  };
}
export type ScheduledReportRunner = ReturnType<typeof scheduledReportRunner>;
