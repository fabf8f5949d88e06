import { and, eq, lt, lte, sql } from 'drizzle-orm';
import { counter, type Logger, type Orm } from '@corridor/platform';
import { parseCalendar } from '@corridor/platform/calendar/ical';
import type { CalendarSchedule } from '@corridor/platform/calendar/schedule';
import { calendars, scheduledReportRuns, scheduledReports } from '../db/schema';
import type { MailChannel } from '../notification-rules/mail-channel';
import type { ReportsService } from '../reports/service';
import { periodicCheck } from '../periodic-check';
import { reportFile } from './report-file';
import { DEFAULT_PRESENTATION, type Presentation } from '../reports/formats/presentation';
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
  /**
   * How long a claimed run may stay `running` before another check takes it again (REPORT_RUN_LEASE_S,
   * default 15 minutes): its instance stopped mid-run (killed, crashed). Longer than any report takes.
   */
  leaseMs?: number;
  /** How many times a run is started before it is marked failed (default 3): a run that kills its instance every time. */
  maxAttempts?: number;
  /** How the file shows its values (the server's language, units and time zone: it goes to addresses, not users). */
  presentation?: () => Promise<Presentation>;
}

const runsTotal = counter('scheduled_report_runs_total', 'Scheduled report runs by outcome', ['status']);
const reclaimed = counter('scheduled_report_runs_reclaimed_total', 'Scheduled report runs left running past their lease and taken again');

/**
 * Runs scheduled reports on their calendars, as Traccar's TaskReports does: when an event of a
 * report's calendar has ended, the report runs once over that event's period and the file is
 * emailed to the recipients. Only events that ended after the report was created count.
 *
 * Each due run is claimed by inserting its row (report, event start) under a unique key: with
 * several instances checking at once, exactly one insert succeeds and that instance runs it; the
 * others, and later checks, find the row and skip it. A run's row says how it ended (sent, or
 * failed with the reason); a run that failed is not repeated. A run still `running` past its lease
 * (its instance was killed mid-run) is taken again by the next check of any instance (one wins the
 * conditional update) and run from the start; after maxAttempts starts it is marked failed, saying
 * so. An instance that finds its run taken from it does not overwrite the new claim's outcome.
 */
export function scheduledReportRunner(deps: ScheduledReportRunnerDeps) {
  const now = deps.now ?? Date.now;
  const lookback = deps.lookbackMs ?? 86_400_000;
  const lease = deps.leaseMs ?? 15 * 60_000;
  const maxAttempts = deps.maxAttempts ?? 3;
  const parsed = new Map<number, { updatedAt: number; schedule: CalendarSchedule | undefined }>();

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

  /** Builds the report of the period and mails it; records the outcome unless the run was taken from this instance meanwhile. */
  async function execute(
    runId: number,
    attempt: number,
    row: typeof scheduledReports.$inferSelect,
    period: { start: number; end: number },
  ): Promise<void> {
    const report = toScheduledReport(row);
    let outcome: { status: 'sent' | 'failed'; items: number | null; error: string | null };
    try {
      if (!deps.mail) throw new Error('no mail channel: the server has no SMTP_URL');
      const file = await reportFile(
        deps.reports,
        report,
        { from: period.start, to: period.end },
        (await deps.presentation?.()) ?? DEFAULT_PRESENTATION,
      );
      const what = `${report.type} report${report.description ? ` "${report.description}"` : ''}`;
      const span = `${new Date(period.start).toISOString()} – ${new Date(period.end).toISOString()}`;
      await deps.mail.send(
        report.recipients.join(', '),
        `Corridor ${what}, ${span}`,
        `The ${what} for ${span}: ${file.items} rows, attached.`,
        [{ filename: file.filename, content: file.content, contentType: file.contentType }],
      );
      outcome = { status: 'sent', items: file.items, error: null };
    } catch (err) {
      outcome = { status: 'failed', items: null, error: err instanceof Error ? err.message : String(err) };
      deps.logger.warn({ reportId: row.id, from: period.start, to: period.end, err: outcome.error }, 'scheduled report run failed');
    }
    const [kept] = await deps.db
      .update(scheduledReportRuns)
      .set({ ...outcome, finishedAt: new Date() })
      .where(
        and(eq(scheduledReportRuns.id, runId), eq(scheduledReportRuns.instance, deps.instance), eq(scheduledReportRuns.attempts, attempt)),
      )
      .returning({ id: scheduledReportRuns.id });
    if (!kept)
      deps.logger.warn(
        { reportId: row.id, runId },
        'scheduled report run was taken by another instance past its lease; its outcome stands',
      );
    runsTotal.inc({ status: outcome.status });
  }

  /** True when this instance claimed the run (and ran it). */
  async function runOne(row: typeof scheduledReports.$inferSelect, period: { start: number; end: number }): Promise<boolean> {
    const [claimed] = await deps.db
      .insert(scheduledReportRuns)
      .values({
        reportId: row.id,
        periodStart: new Date(period.start),
        periodEnd: new Date(period.end),
        status: 'running',
        instance: deps.instance,
      })
      .onConflictDoNothing()
      .returning({ id: scheduledReportRuns.id });
    if (!claimed) return false; // another instance (or an earlier check) has it
    await execute(claimed.id, 1, row, period);
    return true;
  }

  /**
   * Takes again each run left `running` past its lease (its instance stopped mid-run): runs it from
   * the start, or marks it failed once it has been started maxAttempts times. Resolves to the runs taken.
   */
  async function reclaim(): Promise<number> {
    const cutoff = new Date(now() - lease);
    const stale = await deps.db
      .select({ id: scheduledReportRuns.id })
      .from(scheduledReportRuns)
      .where(and(eq(scheduledReportRuns.status, 'running'), lt(scheduledReportRuns.startedAt, cutoff)));
    let taken = 0;
    for (const { id } of stale) {
      // one instance wins this update; the others find the lease renewed and leave the run
      const [run] = await deps.db
        .update(scheduledReportRuns)
        .set({ instance: deps.instance, startedAt: new Date(), attempts: sql`${scheduledReportRuns.attempts} + 1` })
        .where(and(eq(scheduledReportRuns.id, id), eq(scheduledReportRuns.status, 'running'), lt(scheduledReportRuns.startedAt, cutoff)))
        .returning();
      if (!run) continue;
      taken++;
      reclaimed.inc();
      const [row] = await deps.db.select().from(scheduledReports).where(eq(scheduledReports.id, run.reportId));
      const giveUp = !row
        ? 'the report was deleted while its run was unfinished'
        : run.attempts > maxAttempts
          ? `abandoned: started ${maxAttempts} times and each time its instance stopped mid-run (no outcome within ${lease / 1000} s)`
          : undefined;
      deps.logger.warn(
        { reportId: run.reportId, runId: run.id, attempts: run.attempts, giveUp },
        'scheduled report run left running past its lease: taken again',
      );
      if (giveUp) {
        await deps.db
          .update(scheduledReportRuns)
          .set({ status: 'failed', error: giveUp, finishedAt: new Date() })
          .where(eq(scheduledReportRuns.id, run.id));
        runsTotal.inc({ status: 'failed' });
        continue;
      }
      await execute(run.id, run.attempts, row!, { start: run.periodStart.getTime(), end: run.periodEnd.getTime() });
    }
    return taken;
  }

  /**
   * Takes again the runs left past their lease, then runs every report whose calendar had an event
   * end by `at`; resolves to the number of runs this instance made (taken-again ones included).
   */
  async function check(at = now()): Promise<number> {
    const retaken = await reclaim();
    const rows = await deps.db
      .select()
      .from(scheduledReports)
      .where(lte(scheduledReports.createdAt, new Date(at)));
    if (!rows.length) return retaken;
    const cals = await deps.db.select({ id: calendars.id, data: calendars.data, updatedAt: calendars.updatedAt }).from(calendars);
    const byId = new Map(cals.map((c) => [c.id, c]));
    let runs = retaken;
    for (const row of rows) {
      if (!row.deviceIds.length && !row.groupIds.length) continue; // saved, not linked yet: nothing to run
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
    /** start(everyMs): checks every `everyMs` (one check at a time); stop() waits for the check under way. */
    ...periodicCheck(check, deps.logger, 'scheduled reports'),
  };
}
export type ScheduledReportRunner = ReturnType<typeof scheduledReportRunner>;
