import { AppError } from '@corridor/platform';

export interface Period {
  from: Date;
  to: Date;
}

const DAY_MS = 86_400_000;

/** The report period, refused with 400 when reversed or longer than the server maximum (REPORT_MAX_PERIOD_DAYS). */
export function reportPeriod(q: { from: string; to: string }, maxDays: number): Period {
  const from = new Date(q.from);
  const to = new Date(q.to);
  if (from > to) throw new AppError('VALIDATION_FAILED', 'from must not be after to', { fields: ['from', 'to'] });
  const span = to.getTime() - from.getTime();
  if (span > maxDays * DAY_MS) {
    const days = Math.round((span / DAY_MS) * 10) / 10;
    throw new AppError(
      'VALIDATION_FAILED',
      `A report covers at most ${maxDays} days and this period spans ${days}: choose a shorter period, or split it into shorter ones.`,
      { fields: ['from', 'to'], maxPeriodDays: maxDays, periodDays: days },
    );
  }
  return { from, to };
}
