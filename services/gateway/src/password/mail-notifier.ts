import nodemailer from 'nodemailer';
import type { Logger } from '@corridor/platform';
import type { Notifier } from './notifier';

/**
 * The account notices by mail (SMTP_URL as nodemailer takes it, SMTP_FROM): the password reset
 * link, and the notice to an account's old address when its email changed. A notice that cannot
 * be sent is logged (never the reset token) and the request goes on: a reset answers the same
 * either way, and an email change is already made.
 */
export function mailNotifier(smtpUrl: string, from: string, logger: Logger): Notifier & { close(): void } {
  const transport = nodemailer.createTransport(smtpUrl);
  const send = async (to: string, subject: string, text: string, what: string): Promise<void> => {
    try {
      await transport.sendMail({ from, to, subject, text });
    } catch (err) {
      logger.error({ err: (err as Error).message, to }, `${what} not mailed`);
    }
  };
  return {
    async passwordReset(n) {
      await send(
        n.email,
        'Reset your Corridor password',
        `Hello ${n.name},\n\nTo choose a new password, open this link before ${n.expiresAt.toISOString()}:\n${n.url}\n\nIf you did not ask for it, ignore this message: your password stays as it is.\n`,
        'password reset link',
      );
    },
    async emailChanged(n) {
      await send(
        n.email,
        'The email of your Corridor account changed',
        `Hello ${n.name},\n\nOn ${n.at.toISOString()} the email of your Corridor account was changed from ${n.email} to ${n.newEmail}` +
          `${n.byAdministrator ? ' by an administrator' : ''}. Sign-in and password resets now use the new address.\n\n` +
          'If you did not make this change, tell your administrator at once: someone else may hold your account.\n',
        'email change notice',
      );
    },
    close() {
      transport.close();
    },
  };
}
