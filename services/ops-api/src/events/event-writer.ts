import { Topics, type EventMessage } from '@corridor/contracts';
import { counter, insertEvents, unavailable, type Analytics, type Bus } from '@corridor/platform';

const written = counter('ops_device_events_total', 'Device events computed by ops-api (status, motion, overspeed, ignition, alarm, ...)', [
  'type',
]);

/**
 * Stores events in ClickHouse (where GET /events/{id}, the events report and the dashboards read
 * them), then publishes them on events.v1 (the live feed, notification rules), so a consumer of
 * events.v1 finds them stored. Ids are deterministic: writing an event again collapses in ClickHouse.
 */
export function deviceEventWriter(deps: { analytics: Analytics; bus: Bus }) {
  const insert = insertEvents(deps.analytics);
  return async (events: EventMessage[]): Promise<void> => {
    if (!events.length) return;
    await insert(events).catch((err: unknown) => {
      throw unavailable('ClickHouse', err);
    });
    await deps.bus
      .publish(
        Topics.events,
        events.map((e) => ({ key: String(e.deviceId), value: e })),
      )
      .catch((err: unknown) => {
        throw unavailable('event bus', err);
      });
    for (const e of events) written.inc({ type: e.type });
  };
}
export type DeviceEventWriter = ReturnType<typeof deviceEventWriter>;
