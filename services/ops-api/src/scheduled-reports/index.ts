import type { OpsModule } from '../module';
import type { MailChannel } from '../notification-rules/mail-channel';
import type { ReportsModule } from '../reports';
import { reportLinks } from './links';
import { scheduledReportRoutes } from './routes';
import { scheduledReportRunner, type ScheduledReportRunner } from './runner';
import { scheduledReportsService } from './service';

export interface ScheduledReportsOptions {
  reports: ReportsModule;
  mail?: MailChannel;
  /** How often due scheduled reports are looked for, ms (REPORT_SCHEDULE_CHECK_S); unset or 0 = never by itself (tests call check). */
  checkMs?: number;
  /** How long a run may stay running before another check takes it again, ms (REPORT_RUN_LEASE_S). */
  leaseMs?: number;
  /** This instance's name, kept with the scheduled report runs it claims. */
  instance?: string;
}

/** Scheduled reports: their service and routes, and the runner that mails them on their calendars. */
export const scheduledReportsModule: OpsModule<ScheduledReportsOptions, ScheduledReportRunner> = (
  app,
  { base, life, reports, mail, checkMs, leaseMs, instance },
) => {
  scheduledReportRoutes(app, scheduledReportsService(base.db), reportLinks(base.db));
  const runner = scheduledReportRunner({
    db: base.db,
    reports: reports.reports,
    mail,
    logger: base.logger.child({ module: 'scheduled-reports' }),
    instance: instance ?? `ops-api-${process.pid}`,
    leaseMs,
    presentation: () => reports.presentationFor(),
  });
  life.onStart(() => {
    if (checkMs) runner.start(checkMs);
  });
  life.onClose(() => runner.stop());
  return runner;
};
