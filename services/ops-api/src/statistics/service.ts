import type { Statistics } from '@corridor/contracts';
import type { Analytics } from '@corridor/platform';
import { AppError } from '@corridor/platform';
import { statisticsRepository } from './repository';

const MAX_DAYS = 366;

/** Server-wide statistics per UTC day (Traccar's /statistics), counted in ClickHouse. */
export function statisticsService(analytics: Analytics) {
  const counts = statisticsRepository(analytics);
  return async (fromIso: string, toIso: string): Promise<Statistics[]> => {
    const from = new Date(fromIso);
    const to = new Date(toIso);
    if (from > to)
      throw new AppError('VALIDATION_FAILED', 'query.from: must not be after to', [
        { in: 'querystring', path: 'from', message: 'must not be after to' },
      ]);
    if (to.getTime() - from.getTime() > MAX_DAYS * 86_400_000) {
      throw new AppError('VALIDATION_FAILED', `query.to: the period is limited to ${MAX_DAYS} days`, [
        { in: 'querystring', path: 'to', message: `at most ${MAX_DAYS} days after from` },
      ]);
    }
    const days = await counts(from, to);
    return [...days.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([day, c]) => ({
        captureTime: `${day}T00:00:00.000Z`,
        activeDevices: c.devices,
        messagesReceived: c.received,
        messagesStored: c.stored,
        events: c.events,
        protocols: c.protocols,
      }));
  };
}
