import { AppError } from '@corridor/platform';

/**
 * A 400 naming the field, in the same shape as the schema validation errors; `reason` is a code a
 * client words itself (e.g. a SignInRefusal for a one-time code), with its parameters beside it.
 */
export function invalidField(
  where: 'body' | 'querystring' | 'params',
  path: string,
  message: string,
  reason?: { reason: string } & Record<string, string | number>,
): AppError {
  return new AppError('VALIDATION_FAILED', `${where}.${path}: ${message}`, [{ in: where, path, message, ...reason }]);
}
