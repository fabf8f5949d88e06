import { AppError } from '@corridor/platform';

const message = 'mail is not available: the server has no mail channel (SMTP_URL)';

/**
 * The one answer to a request that asks for mail on a server without a mail channel (no SMTP_URL):
 * a notification rule with the mail notificator, a report by mail, a notice type's email switch
 * turned on. 400 naming the field, in the shape schema validation answers: such a server never
 * mails, so it is not a 503 to retry later, nor accepted to fail at every send.
 */
export function mailUnavailable(where: 'body' | 'query', path: string): AppError {
  return new AppError('VALIDATION_FAILED', `${where}.${path}: ${message}`, [{ in: where, path, message }]);
}
