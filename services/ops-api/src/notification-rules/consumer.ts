import { EventMessage, Topics } from '@corridor/contracts';
import { consumeValidated, type Bus, type Logger, type Subscription } from '@corridor/platform';
import type { NotificationDispatcher } from './dispatcher';

const NOTIFICATIONS_GROUP = 'ops-api.notification-rules';

/** Consumes events.v1 and notifies through the matching rules (at least once; deliveries are deduplicated). */
export function startNotificationConsumer(deps: { bus: Bus; logger: Logger; dispatcher: NotificationDispatcher }): Promise<Subscription> {
  return consumeValidated({
    bus: deps.bus,
    logger: deps.logger,
    groupId: NOTIFICATIONS_GROUP,
    topic: Topics.events,
    schema: EventMessage,
    fromBeginning: false,
    handle: async (events) => {
      await deps.dispatcher.onEvents(events);
    },
  });
}
