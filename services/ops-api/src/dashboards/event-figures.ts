import { z } from 'zod';
import type { Analytics } from '@corridor/platform';
import type { Period } from './period';

/** ClickHouse DateTime64 parameter text for a UTC instant. */
const chTime = (d: Date): string => d.toISOString().replace('T', ' ').replace('Z', '');
const n = z.coerce.number();

const JourneyRow = z.object({ active: n, with_activity: n, trucks: n });
const FlagRow = z.object({ week: z.string(), flag_type: z.string(), n });
const DwellRow = z.object({ fence: z.string(), name: z.string(), exits: n, avg_dwell: n, median_dwell: n });
const DeviceFlagRow = z.object({ device_id: n, n });

/**
 * Dashboard figures read from the ClickHouse events table (deduplicated with FINAL): journeys,
 * journey flags by type and week, and border-post dwell from geofenceExit events. Rows are
 * validated with zod; every query is bounded by the period and, where it concerns trucks, by the
 * country's devices.
 */
export function eventFigures(ch: Analytics) {
  const table = `${ch.database}.events`;
  async function rows<S extends z.ZodTypeAny>(schema: S, query: string, params: Record<string, unknown>): Promise<z.output<S>[]> {
    const rs = await ch.client.query({ query, query_params: params, format: 'JSONEachRow' });
    return z.array(schema).parse(await rs.json());
  }
  const window = (p: Period) => ({ from: chTime(p.from), to: chTime(p.to) });

  return {
    /**
     * active: journeys with a journeyStarted by the end of the period and no journeyCompleted or
     * journeyCancelled by then; withActivity: journeys with any event in the period.
     */
    async journeys(deviceIds: number[], p: Period): Promise<{ active: number; withActivity: number; trucksReporting: number }> {
      if (!deviceIds.length) return { active: 0, withActivity: 0, trucksReporting: 0 };
      const [r] = await rows(
        JourneyRow,
        `
        SELECT countIf(started AND NOT ended) AS active, countIf(in_period) AS with_activity, uniqExactIf(device, in_period) AS trucks
        FROM (
          SELECT journey_id, any(device_id) AS device,
                 countIf(type = 'journeyStarted') > 0 AS started,
                 countIf(type IN ('journeyCompleted', 'journeyCancelled')) > 0 AS ended,
                 countIf(event_time >= {from:DateTime64(3, 'UTC')}) > 0 AS in_period
          FROM ${table} FINAL
          WHERE device_id IN {ids:Array(UInt64)} AND journey_id IS NOT NULL AND event_time <= {to:DateTime64(3, 'UTC')}
          GROUP BY journey_id
        )`,
        { ids: deviceIds, ...window(p) },
      );
      return { active: r?.active ?? 0, withActivity: r?.with_activity ?? 0, trucksReporting: r?.trucks ?? 0 };
    },

    /** journeyFlagOpened events by ISO week (Monday) and attributes.flagType ('unknown' when absent). */
    async flagsByTypeAndWeek(deviceIds: number[], p: Period): Promise<{ weekStart: string; flagType: string; count: number }[]> {
      if (!deviceIds.length) return [];
      const r = await rows(
        FlagRow,
        `
        SELECT toString(toStartOfWeek(event_time, 1)) AS week,
               if(JSONExtractString(attributes, 'flagType') = '', 'unknown', JSONExtractString(attributes, 'flagType')) AS flag_type,
               count() AS n
        FROM ${table} FINAL
        WHERE type = 'journeyFlagOpened' AND device_id IN {ids:Array(UInt64)}
          AND event_time >= {from:DateTime64(3, 'UTC')} AND event_time <= {to:DateTime64(3, 'UTC')}
        GROUP BY week, flag_type ORDER BY week, flag_type`,
        { ids: deviceIds, ...window(p) },
      );
      return r.map((x) => ({ weekStart: x.week, flagType: x.flag_type, count: x.n }));
    },

    /** journeyFlagOpened events per device in the period (the violations ranking maps devices to companies). */
    async flagsByDevice(deviceIds: number[], p: Period): Promise<Map<number, number>> {
      if (!deviceIds.length) return new Map();
      const r = await rows(
        DeviceFlagRow,
        `
        SELECT device_id, count() AS n FROM ${table} FINAL
        WHERE type = 'journeyFlagOpened' AND device_id IN {ids:Array(UInt64)}
          AND event_time >= {from:DateTime64(3, 'UTC')} AND event_time <= {to:DateTime64(3, 'UTC')}
        GROUP BY device_id`,
        { ids: deviceIds, ...window(p) },
      );
      return new Map(r.map((x) => [x.device_id, x.n]));
    },

    /**
     * Dwell at the country's border posts: geofenceExit events whose attributes carry the fence's
     * country and dwellSeconds; a fence whose attributes name another kind (kind ≠ border_post) is
     * left out. Named by attributes.geofenceName, else the geofence id.
     */
    async borderDwell(country: string, p: Period) {
      const r = await rows(
        DwellRow,
        `
        SELECT assumeNotNull(geofence_id) AS fence,
               if(anyLast(JSONExtractString(attributes, 'geofenceName')) = '', fence, anyLast(JSONExtractString(attributes, 'geofenceName'))) AS name,
               count() AS exits,
               avg(JSONExtractFloat(attributes, 'dwellSeconds')) AS avg_dwell,
               median(JSONExtractFloat(attributes, 'dwellSeconds')) AS median_dwell
        FROM ${table} FINAL
        WHERE type = 'geofenceExit' AND geofence_id IS NOT NULL
          AND JSONExtractString(attributes, 'country') = {country:String}
          AND JSONExtractString(attributes, 'geofenceKind') IN ('', 'border_post')
          AND JSONHas(attributes, 'dwellSeconds')
          AND event_time >= {from:DateTime64(3, 'UTC')} AND event_time <= {to:DateTime64(3, 'UTC')}
        GROUP BY fence ORDER BY name`,
        { country, ...window(p) },
      );
      return r.map((x) => ({
        geofenceId: x.fence,
        name: x.name,
        exits: x.exits,
        averageDwellSeconds: Math.round(x.avg_dwell * 10) / 10,
        medianDwellSeconds: Math.round(x.median_dwell * 10) / 10,
      }));
    },
  };
}
export type EventFigures = ReturnType<typeof eventFigures>;
