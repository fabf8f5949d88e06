import { inArray } from 'drizzle-orm';
import { EventMessage, Topics } from '@corridor/contracts';
import { consumeValidated, unavailable, type Bus, type Logger, type Orm, type Subscription } from '@corridor/platform';
import { companyFlags, devices } from '../db/schema';

const RATINGS_CONSUMER_GROUP = 'ops-api-ratings';

/**
 * Keeps ops.company_flags from events.v1: every journeyFlagOpened event becomes one row for the
 * device's company (devices without a company are not counted). The event id is the key, so a
 * redelivered event counts once. A database failure is retryable (the batch comes again).
 */
export async function startFlagConsumer(deps: { bus: Bus; db: Orm; logger: Logger }): Promise<Subscription> {
  const log = deps.logger.child({ module: 'ratings' });
  return consumeValidated({
    bus: deps.bus,
    logger: log,
    groupId: RATINGS_CONSUMER_GROUP,
    topic: Topics.events,
    schema: EventMessage,
    handle: async (events) => {
      const opened = events.filter((e) => e.type === 'journeyFlagOpened');
      if (!opened.length) return;
      try {
        const ids = [...new Set(opened.map((e) => e.deviceId))];
        const owners = new Map(
          (await deps.db.select({ id: devices.id, companyId: devices.companyId }).from(devices).where(inArray(devices.id, ids))).map(
            (d) => [d.id, d.companyId],
          ),
        );
        const rows = opened.flatMap((e) => {
          const companyId = owners.get(e.deviceId);
          if (companyId == null) return [];
          const flagType = typeof e.attributes.flagType === 'string' && e.attributes.flagType ? e.attributes.flagType : 'unknown';
          return [{ eventId: e.id, companyId, deviceId: e.deviceId, journeyId: e.journeyId, flagType, openedAt: new Date(e.eventTime) }];
        });
        if (rows.length < opened.length)
          log.debug({ skipped: opened.length - rows.length }, 'flags of devices without a company are not counted');
        if (rows.length) await deps.db.insert(companyFlags).values(rows).onConflictDoNothing();
      } catch (err) {
        throw unavailable('PostgreSQL (company flags)', err);
      }
    },
  });
}
