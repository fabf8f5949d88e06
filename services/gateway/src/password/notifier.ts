import type { Logger } from '@corridor/platform';

export interface PasswordResetNotice {
  email: string;
  name: string;
  /** The single-use token, and the link carrying it (`?passwordReset=<token>`, as Traccar's web app reads it). */
  token: string;
  url: string;
  expiresAt: Date;
}

/** How the gateway reaches a user outside the API (mail, SMS, ...). */
export interface Notifier {
  passwordReset(notice: PasswordResetNotice): Promise<void>;
}

/**
 * The notifier when no mail transport is configured: outside production it logs the reset link so
 * an operator can pass it on; in production it logs that the notice could not be delivered
 * (never the token).
 */
export function logNotifier(logger: Logger, production: boolean): Notifier {
  return {
    async passwordReset(n) {
      if (production) logger.error({ email: n.email }, 'password reset requested but no mail transport is configured');
      else logger.warn({ email: n.email, url: n.url, expiresAt: n.expiresAt.toISOString() }, 'password reset link (no mail transport configured)');
    },
  };
}
