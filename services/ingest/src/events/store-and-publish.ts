import { Topics, type EventMessage } from '@corridor/contracts';
import { insertEvents, type Analytics, type Bus } from '@corridor/platform';

/**
 * Stores events in ClickHouse, then publishes them on events.v1, so a consumer of events.v1 finds
 * them stored (the events API and report read ClickHouse; ops-api's event writer does the same).
 * Ingest's own events (identity conflicts, queuedCommandSent) go this way; a device's reported
 * events (alarms, commandResult) ride on its position and are stored by the position store.
 */
export function storeAndPublish(deps: { analytics: Analytics; bus: Bus }): (events: EventMessage[]) => Promise<void> {
  const insert = insertEvents(deps.analytics);
  return async (events) => {
    await insert(events);
    await deps.bus.publish(
      Topics.events,
      events.map((e) => ({ key: String(e.deviceId), value: e })),
    );
  };
}
