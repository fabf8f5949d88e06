import type { Logger } from '@corridor/platform';

export interface PasswordResetNotice {
  email: string;
  name: string;
  /** The single-use token, and the link carrying it (`?passwordReset=<token>`, as Traccar's web app reads it). */
  token: string;
  url: string;
  expiresAt: Date;
}

/** Sent to the address an account had, when its email changed: the user learns of a take-over they did not make. */
export interface EmailChangedNotice {
  /** The address the account had, where this notice goes. */
  email: string;
  name: string;
  newEmail: string;
  /** Who made the change: the user themselves, or an administrator. */
  byAdministrator: boolean;
  at: Date;
}

/** How the gateway reaches a user outside the API (mail, SMS, ...). */
export interface Notifier {
  passwordReset(notice: PasswordResetNotice): Promise<void>;
  emailChanged(notice: EmailChangedNotice): Promise<void>;
}

/**
 * The notifier when no mail transport is configured (no SMTP_URL; mail-notifier.ts otherwise): outside production it logs the reset link so
 * an operator can pass it on; in production it logs that the notice could not be delivered
 * (never the token).
 */
export function logNotifier(logger: Logger, production: boolean): Notifier {
  return {
    async passwordReset(n) {
      if (production) logger.error({ email: n.email }, 'password reset requested but no mail transport is configured');
      else
        logger.warn(
          { email: n.email, url: n.url, expiresAt: n.expiresAt.toISOString() },
          'password reset link (no mail transport configured)',
        );
    },
    async emailChanged(n) {
      (production ? logger.error.bind(logger) : logger.warn.bind(logger))(
        { email: n.email, newEmail: n.newEmail },
        'account email changed; the old address could not be told (no mail transport configured)',
      );
    },
  };
}
