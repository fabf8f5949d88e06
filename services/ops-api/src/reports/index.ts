import type { Geocoder } from '@corridor/platform';
import type { DevicesModule } from '../devices';
import type { OpsModule } from '../module';
import type { MailChannel } from '../notification-rules/mail-channel';
import type { NotificationsService } from '../notifications/service';
import { devicesReportRoutes } from './devices-report';
import { presentations, type Presentation } from './formats/presentation';
import { reportMailer } from './mail';
import { reportRoutes } from './routes';
import { reportsService, type ReportsService } from './service';
import { trackRunsComputer } from './track-runs-computer';
import type { ReportSettings } from './settings';

export interface ReportsModule {
  reports: ReportsService;
  /** How a report file shows its values to a user (their language, units and time zone), or to addresses (the server's). */
  presentationFor: (userId?: number) => Promise<Presentation>;
}

/** Reports (Traccar's and ours), as JSON, files or mail: their service and routes; mails still going out are sent before close. */
export const reportsModule: OpsModule<
  { devices: DevicesModule; settings: ReportSettings; geocoder: Geocoder; mail?: MailChannel; inbox: NotificationsService },
  ReportsModule
> = (app, { base, life, devices, settings, geocoder, mail, inbox }) => {
  const reports = reportsService({ analytics: base.analytics, db: base.db, devices: devices.repo, settings, geocoder });
  // report files in their reader's language, units and time zone (the user directory, the server's attributes)
  const presentationFor = presentations(base.cache);
  const mailer = reportMailer({
    mail,
    logger: base.logger.child({ module: 'reports' }),
    addressOf: (userId) => inbox.addressOf(userId),
    presentationFor,
  });
  reportRoutes(app, reports, presentationFor, mailer);
  devicesReportRoutes(app, { devices: devices.service, latest: devices.latest, presentationFor });
  life.onClose(() => mailer.drain());
  if (settings.trackRunsEveryMs) {
    const computing = trackRunsComputer(base.analytics, base.logger.child({ module: 'reports' }));
    computing.start(settings.trackRunsEveryMs);
    life.onClose(() => computing.stop());
  }
  return { reports, presentationFor };
};
