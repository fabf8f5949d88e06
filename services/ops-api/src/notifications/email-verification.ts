import { createHash, randomBytes } from 'node:crypto';
import { AppError, counter, type Cache, type Logger } from '@corridor/platform';
import type { MailChannel } from '../notification-rules/mail-channel';

const verifications = counter(
  'notification_email_verifications_total',
  'Notification email addresses: links mailed, verified, refused tokens, mails throttled or failed',
  ['step'],
);

/** How long a verification link holds. */
const VERIFY_TTL_MS = 24 * 3600_000;
/** Verification mails per user per day, so a stolen session cannot make the server mail anyone at will. */
const MAX_MAILS_PER_DAY = 5;
const mailsKey = (userId: number): string => `ops:notification-email-mails:${userId}`;

/** The token's digest: only this is stored, so a database reader cannot verify an address. */
export const tokenDigest = (token: string): string => createHash('sha256').update(token).digest('base64url');

export const sameAddress = (a: string | null | undefined, b: string | null | undefined): boolean =>
  !!a && !!b && a.trim().toLowerCase() === b.trim().toLowerCase();

export interface PendingEmail {
  pendingEmail: string;
  pendingEmailToken: string;
  pendingEmailExpiresAt: Date;
}

/** The refusal of a token that is unknown, expired, already used or replaced by a later change. */
export const staleToken = (): AppError =>
  new AppError('VALIDATION_FAILED', 'body.token: unknown, expired or already used', [
    { in: 'body', path: 'token', message: 'unknown, expired or already used' },
  ]);

/**
 * A notification email address is used only once its owner opened the link mailed to it: `start`
 * makes a single-use token (its digest is what the settings row keeps) and `send` mails the link
 * (url?token=…) once the row is saved, so the link works when it arrives. A failed send answers
 * 502: the address stays pending and saving it again mails a new link.
 */
export function emailVerification(deps: { mail: MailChannel; cache: Cache; url: string; logger: Logger; now: () => Date }) {
  return {
    async start(userId: number, address: string): Promise<{ pending: PendingEmail; send: () => Promise<void> }> {
      if ((await deps.cache.incr(mailsKey(userId), 86_400)) > MAX_MAILS_PER_DAY) {
        verifications.inc({ step: 'throttled' });
        throw new AppError('RATE_LIMITED', `At most ${MAX_MAILS_PER_DAY} verification mails a day; try again tomorrow`, {
          retryAfterSeconds: 86_400,
        });
      }
      const token = randomBytes(32).toString('base64url');
      const expiresAt = new Date(deps.now().getTime() + VERIFY_TTL_MS);
      const link = new URL(deps.url);
      link.searchParams.set('token', token);
      const send = async (): Promise<void> => {
        try {
          await deps.mail.send(
            address,
            'Confirm your notification address',
            `Hello,\n\nSomeone, probably you, asked Corridor to send notifications to this address. To confirm it, open this link before ${expiresAt.toISOString()}:\n${link.toString()}\n\n` +
              'Until then nothing is sent here. If you did not ask for it, ignore this message.\n',
          );
          verifications.inc({ step: 'mailed' });
        } catch (err) {
          verifications.inc({ step: 'failed' });
          deps.logger.warn({ err, userId }, 'notification email verification mail not sent');
          throw new AppError('BAD_GATEWAY', 'The verification mail could not be sent; save the address again to retry');
        }
      };
      return { pending: { pendingEmail: address, pendingEmailToken: tokenDigest(token), pendingEmailExpiresAt: expiresAt }, send };
    },
    counted: (step: 'verified' | 'refused') => verifications.inc({ step }),
  };
}
export type EmailVerification = ReturnType<typeof emailVerification>;
