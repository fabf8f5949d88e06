import { z } from 'zod';
import type { Analytics } from '@corridor/platform';

const chTime = (d: Date): string => d.toISOString().replace('T', ' ').replace('Z', '');
const n = z.union([z.number(), z.string()]).transform(Number);
const DayRow = z.object({ day: z.string(), received: n, stored: n.optional(), devices: n.optional() });
const ProtocolRow = z.object({ day: z.string(), protocol: z.string(), n });

export interface DayCounts {
  received: number;
  stored: number;
  devices: number;
  events: number;
  protocols: Record<string, number>;
}

/** Per-UTC-day counts from ClickHouse positions and events. */
export function statisticsRepository(ch: Analytics) {
  async function rows<T extends z.ZodTypeAny>(schema: T, query: string, from: Date, to: Date): Promise<z.output<T>[]> {
    const rs = await ch.client.query({ query, query_params: { from: chTime(from), to: chTime(to) }, format: 'JSONEachRow' });
    return z.array(schema).parse(await rs.json());
  }
  const range = `server_time >= {from:DateTime64(3, 'UTC')} AND server_time <= {to:DateTime64(3, 'UTC')}`;
  return async (from: Date, to: Date): Promise<Map<string, DayCounts>> => {
    const [written, stored, protocols, events] = await Promise.all([
      rows(
        DayRow,
        `SELECT toString(toDate(server_time)) AS day, count() AS received FROM ${ch.database}.positions WHERE ${range} GROUP BY day`,
        from,
        to,
      ),
      rows(
        DayRow,
        `SELECT toString(toDate(server_time)) AS day, count() AS received, uniqExact(device_id) AS devices FROM ${ch.database}.positions FINAL WHERE ${range} GROUP BY day`,
        from,
        to,
      ),
      rows(
        ProtocolRow,
        `SELECT toString(toDate(server_time)) AS day, protocol, count() AS n FROM ${ch.database}.positions FINAL WHERE ${range} GROUP BY day, protocol`,
        from,
        to,
      ),
      rows(
        DayRow,
        `SELECT toString(toDate(event_time)) AS day, count() AS received FROM ${ch.database}.events FINAL
                    WHERE event_time >= {from:DateTime64(3, 'UTC')} AND event_time <= {to:DateTime64(3, 'UTC')} GROUP BY day`,
        from,
        to,
      ),
    ]);
    const days = new Map<string, DayCounts>();
    const day = (d: string): DayCounts => {
      let c = days.get(d);
      if (!c) days.set(d, (c = { received: 0, stored: 0, devices: 0, events: 0, protocols: {} }));
      return c;
    };
    for (const r of written) day(r.day).received = r.received;
    for (const r of stored) Object.assign(day(r.day), { stored: r.received, devices: r.devices ?? 0 });
    for (const r of protocols) day(r.day).protocols[r.protocol] = r.n;
    for (const r of events) day(r.day).events = r.received;
    return days;
  };
}
