import { Topics, type EventMessage } from '@corridor/contracts';
import { counter, insertEvents, unavailable, type Analytics, type Bus, type Logger } from '@corridor/platform';

const emitted = counter('journey_events_emitted_total', 'Journey events stored in ClickHouse and published on events.v1', ['type']);

/** Stores journey events in ClickHouse and publishes them on events.v1, keyed by device id (the live feed reads it). */
export function eventSink(deps: { analytics: Analytics; bus: Bus; logger: Logger }) {
  const insert = insertEvents(deps.analytics);
  /**
   * Stores and publishes in parallel (the live feed need not wait for ClickHouse). Either failing is
   * a retryable error: the evaluator lets the bus redeliver, and event ids make the retry harmless.
   */
  async function emit(events: EventMessage[]): Promise<void> {
    if (!events.length) return;
    const [stored, published] = await Promise.allSettled([
      insert(events),
      deps.bus.publish(
        Topics.events,
        events.map((e) => ({ key: String(e.deviceId), value: e })),
      ),
    ]);
    if (stored.status === 'rejected') throw unavailable('ClickHouse', stored.reason);
    if (published.status === 'rejected') throw unavailable('The event bus', published.reason);
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
