import { AppError } from '@corridor/platform';

/** A 400 naming the field, in the same shape as the schema validation errors. */
export function invalidField(where: 'body' | 'querystring' | 'params', path: string, message: string): AppError {
  return new AppError('VALIDATION_FAILED', `${where}.${path}: ${message}`, [{ in: where, path, message }]);
}
