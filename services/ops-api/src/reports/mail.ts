import { AppError, counter, type Identity, type Logger } from '@corridor/platform';
import type { MailChannel } from '../notification-rules/mail-channel';
import { mailUnavailable } from '../notification-rules/mail-unavailable';
import { fileOf } from '../scheduled-reports/report-file';
import type { Presentation } from './formats/presentation';
import type { ReportTable } from './formats/table';
import type { Report } from './service';

const mailed = counter('report_mails_total', 'Reports asked for by mail (/reports/{type}/mail, mail=true) by outcome', ['status']);

/**
 * Traccar's /reports/{type}/mail and mail=true: the report is checked (devices, period) while the
 * caller waits, then built and mailed to them in the background through the notification mail
 * channel (SMTP_URL): an xlsx file, or csv when format=csv asks for it. The caller's address is their
 * notification email (/settings/notification), else their account email. Without a mail channel the
 * request answers 400 at once, as a notification rule asking for mail does (a server without SMTP_URL
 * never mails, so it is not a 503 to retry later). A report that fails while it is built is logged and counted; the
 * caller gets no mail.
 */
export function reportMailer(deps: {
  mail?: MailChannel;
  logger: Logger;
  addressOf: (userId: number) => Promise<{ email: string | null }>;
  /** The file in the caller's language, units and time zone. */
  presentationFor: (userId?: number) => Promise<Presentation>;
}) {
  const pending = new Set<Promise<void>>();
  return {
    async queue<T>(report: Report<T>, table: ReportTable<T>, format: string | undefined, who: Identity): Promise<void> {
      const mail = deps.mail;
      if (!mail) throw mailUnavailable('query', 'mail');
      if (format === 'json')
        throw new AppError('VALIDATION_FAILED', 'A mailed report is a file: format xlsx (the default) or csv', [
          { in: 'query', path: 'format', message: 'xlsx or csv' },
        ]);
      const to = (await deps.addressOf(who.userId)).email ?? who.email;
      const period = { from: report.period.from.getTime(), to: report.period.to.getTime() };
      const job = (async () => {
        try {
          const file = await fileOf(report, table, format === 'csv' ? 'csv' : 'xlsx', period, await deps.presentationFor(who.userId));
          const span = `${report.period.from.toISOString()} – ${report.period.to.toISOString()}`;
          await mail.send(
            to,
            `Corridor ${table.name} report, ${span}`,
            `The ${table.name} report you asked for, ${span}: ${file.items} rows, attached.`,
            [{ filename: file.filename, content: file.content, contentType: file.contentType }],
          );
          mailed.inc({ status: 'sent' });
        } catch (err) {
          mailed.inc({ status: 'failed' });
          deps.logger.warn({ report: table.name, userId: who.userId, err: (err as Error).message }, 'report not mailed');
        }
      })();
      pending.add(job);
      void job.finally(() => pending.delete(job));
    },
    /** Waits for the reports being mailed (on close). */
    async drain(): Promise<void> {
      await Promise.all([...pending]);
    },
  };
}
export type ReportMailer = ReturnType<typeof reportMailer>;
