import { ErrorCatalogue, type ErrorCode } from '@corridor/contracts';

/**
 * The one error type services throw. `retryable` tells consumers whether to retry the message
 * (a database outage) or send it to the dead-letter topic (a malformed message).
 */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    readonly retryable = false,
  ) {
    super(message);
    this.name = 'AppError';
    this.status = ErrorCatalogue[code].status;
  }
}

export const notFound = (what: string, id: unknown): AppError => new AppError('NOT_FOUND', `${what} ${String(id)} not found`);
export const unavailable = (what: string, cause?: unknown): AppError =>
  new AppError('UNAVAILABLE', `${what} is unavailable`, cause instanceof Error ? { cause: cause.message } : undefined, true);

export function isRetryable(err: unknown): boolean {
  return err instanceof AppError ? err.retryable : true;
}
