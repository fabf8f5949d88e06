import { noInternalReceivers, type OutboundPolicy } from './outbound-address';

/** Notification channels' settings (from SMTP_URL, SMTP_FROM, WEBHOOK_ATTEMPTS, WEBHOOK_TIMEOUT_MS, WEBHOOK_ALLOW). */
export interface NotificationSettings {
  /** nodemailer SMTP URL; absent = no mail channel. */
  smtpUrl?: string;
  mailFrom: string;
  /** The console page a notification email's verification link opens (NOTIFICATION_EMAIL_VERIFY_URL; ?token=… is added); default the local console's. */
  emailVerifyUrl?: string;
  webhookAttempts: number;
  webhookTimeoutMs: number;
  webhookBackoffMs: number;
  /** Internal receivers a webhook may reach besides public addresses (WEBHOOK_ALLOW). */
  webhookPolicy: OutboundPolicy;
}

/** NOTIFICATION_EMAIL_VERIFY_URL's default: the console of a local stack. */
export const DEFAULT_EMAIL_VERIFY_URL = 'http://localhost:8082/verify-email';

export const defaultNotificationSettings = (): NotificationSettings => ({
  mailFrom: 'Corridor <notifications@corridor.local>',
  emailVerifyUrl: DEFAULT_EMAIL_VERIFY_URL,
  webhookAttempts: 3,
  webhookTimeoutMs: 5000,
  webhookBackoffMs: 500,
  webhookPolicy: noInternalReceivers,
});

export function notificationSettingsFrom(config: {
  SMTP_URL?: string;
  SMTP_FROM: string;
  NOTIFICATION_EMAIL_VERIFY_URL: string;
  WEBHOOK_ATTEMPTS: number;
  WEBHOOK_TIMEOUT_MS: number;
  WEBHOOK_ALLOW: OutboundPolicy;
}): NotificationSettings {
  return {
    ...defaultNotificationSettings(),
    smtpUrl: config.SMTP_URL,
    mailFrom: config.SMTP_FROM,
    emailVerifyUrl: config.NOTIFICATION_EMAIL_VERIFY_URL,
    webhookAttempts: config.WEBHOOK_ATTEMPTS,
    webhookTimeoutMs: config.WEBHOOK_TIMEOUT_MS,
    webhookPolicy: config.WEBHOOK_ALLOW,
  };
}
