import { noInternalReceivers, type OutboundPolicy } from './outbound-address';

/** Notification channels' settings (from SMTP_URL, SMTP_FROM, WEBHOOK_ATTEMPTS, WEBHOOK_TIMEOUT_MS, WEBHOOK_ALLOW). */
export interface NotificationSettings {
  /** nodemailer SMTP URL; absent = no mail channel. */
  smtpUrl?: string;
  mailFrom: string;
  webhookAttempts: number;
  webhookTimeoutMs: number;
  webhookBackoffMs: number;
  /** Internal receivers a webhook may reach besides public addresses (WEBHOOK_ALLOW). */
  webhookPolicy: OutboundPolicy;
}

export const defaultNotificationSettings = (): NotificationSettings => ({
  mailFrom: 'Corridor <notifications@corridor.local>', webhookAttempts: 3, webhookTimeoutMs: 5000, webhookBackoffMs: 500, webhookPolicy: noInternalReceivers,
});

export function notificationSettingsFrom(config: { SMTP_URL?: string; SMTP_FROM: string; WEBHOOK_ATTEMPTS: number; WEBHOOK_TIMEOUT_MS: number; WEBHOOK_ALLOW: OutboundPolicy }): NotificationSettings {
  return {
    ...defaultNotificationSettings(), smtpUrl: config.SMTP_URL, mailFrom: config.SMTP_FROM, webhookAttempts: config.WEBHOOK_ATTEMPTS, webhookTimeoutMs: config.WEBHOOK_TIMEOUT_MS,
    webhookPolicy: config.WEBHOOK_ALLOW,
  };
}
