import { Topics, type EventMessage } from '@corridor/contracts';
import { counter, insertEvents, unavailable, type Analytics, type Bus, type Logger } from '@corridor/platform';

const emitted = counter('journey_events_emitted_total', 'Journey events stored in ClickHouse and published on events.v1', ['type']);

/** Stores journey events in ClickHouse and publishes them on events.v1, keyed by device id (the live feed reads it). */
export function eventSink(deps: { analytics: Analytics; bus: Bus; logger: Logger }) {
  const insert = insertEvents(deps.analytics);
  /** Both or a retryable error: the evaluator lets the bus redeliver, and event ids make the retry harmless. */
  async function emit(events: EventMessage[]): Promise<void> {
    if (!events.length) return;
    try {
      await insert(events);
    } catch (err) {
      throw unavailable('ClickHouse', err);
    }
    try {
      await deps.bus.publish(Topics.events, events.map((e) => ({ key: String(e.deviceId), value: e })));
    } catch (err) {
      throw unavailable('The event bus', err);
    }
    for (const e of events) emitted.inc({ type: e.type });
  }
  return {
    emit,
    /** For decisions already committed (API calls): a failure is logged, not thrown; the audit row stays the record. */
    async emitAfterCommit(events: EventMessage[]): Promise<void> {
      try {
        await emit(events);
      } catch (err) {
        deps.logger.error({ err, events: events.map((e) => e.id) }, 'journey events not emitted');
      }
    },
  };
}
export type EventSink = ReturnType<typeof eventSink>;
