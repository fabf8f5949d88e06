import { AppError } from '@corridor/platform';

export interface Period {
  from: Date;
  to: Date;
}

const DEFAULT_PERIOD_DAYS = 30;
const MAX_PERIOD_DAYS = 3660;
const DAY_MS = 86_400_000;

/** The period a query asks for: `to` defaults to now, `from` to 30 days before `to`; 400 when reversed or over ten years. */
export function resolvePeriod(q: { from?: string; to?: string }, now: Date): Period {
  const to = q.to ? new Date(q.to) : now;
  const from = q.from ? new Date(q.from) : new Date(to.getTime() - DEFAULT_PERIOD_DAYS * DAY_MS);
  if (from > to)
    throw new AppError('VALIDATION_FAILED', 'from must not be after to', [{ in: 'querystring', path: 'from', message: 'after to' }]);
  if (to.getTime() - from.getTime() > MAX_PERIOD_DAYS * DAY_MS) {
    throw new AppError('VALIDATION_FAILED', 'the period may cover at most ten years', [
      { in: 'querystring', path: 'from', message: 'period too long' },
    ]);
  }
  return { from, to };
}

export const periodJson = (p: Period) => ({ from: p.from.toISOString(), to: p.to.toISOString() });
