import type { OpsModule } from '../module';
import { mailChannel, type MailChannel } from '../notification-rules/mail-channel';
import { DEFAULT_EMAIL_VERIFY_URL, type NotificationSettings } from '../notification-rules/settings';
import { emailVerification } from './email-verification';
import { notificationsRepository } from './repository';
import { notificationRoutes } from './routes';
import { notificationsService, type NotificationsService } from './service';

export interface NotificationsModule {
  /** The inbox: notices to users, companies and roles, and each user's channel settings. */
  inbox: NotificationsService;
  /** The mail channel (SMTP_URL; undefined: none), closed after the modules that mail. */
  mail?: MailChannel;
}

/** The inbox, its routes, and the mail channel that verifies addresses and carries notices and reports. */
export const notificationsModule: OpsModule<{ settings: NotificationSettings }, NotificationsModule> = (app, { base, life, settings }) => {
  const mail = settings.smtpUrl ? mailChannel(settings.smtpUrl, settings.mailFrom) : undefined;
  if (mail) life.onClose(() => mail.close());
  const inbox = notificationsService({
    repo: notificationsRepository(base.db),
    clock: base.clock,
    webhookPolicy: settings.webhookPolicy,
    mailEnabled: !!mail,
    emailVerification:
      mail &&
      emailVerification({
        mail,
        cache: base.cache,
        url: settings.emailVerifyUrl ?? DEFAULT_EMAIL_VERIFY_URL,
        logger: base.logger.child({ module: 'notifications' }),
        now: () => base.clock.now(),
      }),
  });
  notificationRoutes(app, inbox);
  return { inbox, mail };
};
