import { Topics, type EventMessage } from '@corridor/contracts';
import { insertEvents, unavailable, type Analytics, type Bus, type Orm } from '@corridor/platform';
import { geofenceEvents } from '../db/schema';

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function pgRow(e: EventMessage): typeof geofenceEvents.$inferInsert {
  const enteredAt = typeof e.attributes.enteredAt === 'string' ? new Date(e.attributes.enteredAt) : null;
  return {
    id: e.id,
    type: e.type as 'geofenceEnter' | 'geofenceExit' | 'geofenceCrossed',
    deviceId: e.deviceId,
    geofenceId: Number(e.geofenceId),
    eventTime: new Date(e.eventTime),
    positionId: e.positionId,
    latitude: e.latitude,
    longitude: e.longitude,
    enteredAt,
    dwellSeconds: num(e.attributes.dwellSeconds),
    companyId: num(e.attributes.companyId),
  };
}

/**
 * Stores enter/exit events in ClickHouse and PostgreSQL, then publishes them on events.v1 (keyed
 * by device id), so a consumer of events.v1 finds them stored. Ids are deterministic: a
 * redelivered position writes the same rows again (ClickHouse collapses them, PostgreSQL skips them).
 */
export function eventWriter(deps: { analytics: Analytics; db: Orm; bus: Bus }) {
  const insertCh = insertEvents(deps.analytics);
  return async (events: EventMessage[]): Promise<void> => {
    if (!events.length) return;
    await Promise.all([
      insertCh(events).catch((err: unknown) => {
        throw unavailable('ClickHouse', err);
      }),
      deps.db
        .insert(geofenceEvents)
        .values(events.map(pgRow))
        .onConflictDoNothing()
        .catch((err: unknown) => {
          throw unavailable('PostgreSQL', err);
        }),
    ]);
    await deps.bus
      .publish(
        Topics.events,
        events.map((e) => ({ key: String(e.deviceId), value: e })),
      )
      .catch((err: unknown) => {
        throw unavailable('event bus', err);
      });
  };
}
export type EventWriter = ReturnType<typeof eventWriter>;
