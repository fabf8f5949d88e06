import type { Analytics } from '@corridor/platform';
import type { ObservatoryFact } from './facts';

/** ClickHouse DateTime64(3) text of an epoch-ms instant. */
const chTime = (ms: number): string => new Date(ms).toISOString().replace('T', ' ').replace('Z', '');

/** The device's company when a fact was made (0: none), by device id. */
export type CompanyOf = (deviceId: number) => number | null | undefined;

/**
 * Writes facts into the observatory tables (migrations/clickhouse/0003_observatory.sql), one
 * insert per table with rows. Rows are keyed by what they are, so writing the same facts twice
 * (a redelivered batch) leaves one of each after ReplacingMergeTree's merge, and readers use FINAL.
 */
export function factWriter(ch: Analytics) {
  const insert = async (table: string, values: Record<string, unknown>[]): Promise<void> => {
    if (values.length) await ch.client.insert({ table: `${ch.database}.${table}`, values, format: 'JSONEachRow' });
  };
  return async (facts: readonly ObservatoryFact[], companyOf: CompanyOf): Promise<void> => {
    const visits: Record<string, unknown>[] = [];
    const legs: Record<string, unknown>[] = [];
    const stops: Record<string, unknown>[] = [];
    const distance: Record<string, unknown>[] = [];
    for (const f of facts) {
      const common = { device_id: f.deviceId, company_id: companyOf(f.deviceId) ?? 0 };
      switch (f.kind) {
        case 'visit':
          visits.push({
            ...common,
            place_id: f.placeId,
            place_name: f.placeName,
            place_kind: f.placeKind,
            corridor: f.corridor ?? '',
            direction: f.direction,
            entered_at: chTime(f.enteredAt),
            exited_at: chTime(f.exitedAt),
            dwell_s: (f.exitedAt - f.enteredAt) / 1000,
          });
          break;
        case 'leg':
          legs.push({
            ...common,
            corridor: f.corridor,
            kind: f.legKind,
            from_place: f.from.id,
            to_place: f.to.id,
            from_name: f.from.name,
            to_name: f.to.name,
            from_along_m: f.from.along,
            to_along_m: f.to.along,
            direction: f.direction,
            departed_at: chTime(f.departedAt),
            arrived_at: chTime(f.arrivedAt),
            transit_s: (f.arrivedAt - f.departedAt) / 1000,
            excluded: f.excluded,
          });
          break;
        case 'stop':
          stops.push({
            ...common,
            corridor: f.corridor ?? '',
            direction: f.direction,
            started_at: chTime(f.startedAt),
            ended_at: chTime(f.endedAt),
            stop_s: (f.endedAt - f.startedAt) / 1000,
            latitude: f.lat,
            longitude: f.lon,
            area: f.area,
          });
          break;
        case 'distance':
          distance.push({
            ...common,
            day: f.day,
            corridor: f.corridor ?? '',
            direction: f.direction,
            distance_m: f.metres,
            version: f.version,
          });
          break;
      }
    }
    await Promise.all([
      insert('obs_visits', visits),
      insert('obs_legs', legs),
      insert('obs_stops', stops),
      insert('obs_distance', distance),
    ]);
  };
}
export type FactWriter = ReturnType<typeof factWriter>;
