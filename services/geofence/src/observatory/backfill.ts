import { z } from 'zod';
import type { Analytics, Logger } from '@corridor/platform';
import type { DeviceDirectory } from '../evaluator/device-directory';
import type { FactWriter } from './fact-writer';
import type { ObservatoryFact } from './facts';
import type { ObservatoryMap } from './observatory-map';
import { DEFAULT_TRACKER_SETTINGS, pendingDistance, track, type TrackerSettings, type TrackerState } from './tracker';

const chTime = (d: Date): string => d.toISOString().replace('T', ' ').replace('Z', '');
const KMH_PER_KNOT = 1.852;

const DeviceRow = z.object({ device_id: z.coerce.number(), unique_id: z.string() });
const FixRow = z.object({ device_id: z.coerce.number(), t: z.coerce.number(), lon: z.number(), lat: z.number(), speed: z.number() });

export interface BackfillOptions {
  from: Date;
  to: Date;
  /** only these devices (default: every device with positions in the period) */
  deviceIds?: readonly number[];
  /** devices read per query (their fixes of the whole period are read at once) */
  devicesPerPage?: number;
}

/**
 * The observatory's facts from positions already stored (an installation that had positions before
 * the tracker ran, or the demo's history): each device's fixes of the period, oldest first, folded
 * through the tracker from a fresh state, the facts written as the live tracker writes them (the
 * same rows, so running it twice changes nothing). The live tracker's states are left alone: run it
 * over a period that ended before the live tracker began. Devices are read a page at a time (chDB
 * cancels a streaming read when another query of the process runs, so each page is one whole answer).
 */
export async function backfillObservatory(
  deps: {
    analytics: Analytics;
    directory: DeviceDirectory;
    write: FactWriter;
    map: ObservatoryMap;
    logger: Logger;
    settings?: TrackerSettings;
  },
  opts: BackfillOptions,
): Promise<{ devices: number; fixes: number; facts: number }> {
  const ch = deps.analytics;
  const params = { from: chTime(opts.from), to: chTime(opts.to), ids: opts.deviceIds ?? [] };
  const only = opts.deviceIds ? 'AND device_id IN {ids:Array(UInt64)}' : '';
  const devices = z.array(DeviceRow).parse(
    await (
      await ch.client.query({
        query: `SELECT device_id, any(unique_id) AS unique_id FROM ${ch.database}.positions
            WHERE fix_time >= {from:DateTime64(3, 'UTC')} AND fix_time < {to:DateTime64(3, 'UTC')} ${only}
            GROUP BY device_id ORDER BY device_id`,
        query_params: params,
        format: 'JSONEachRow',
      })
    ).json(),
  );
  const infos = await deps.directory.lookup(devices.map((d) => ({ deviceId: d.device_id, uniqueId: d.unique_id })));
  const perPage = opts.devicesPerPage ?? 50;
  let fixes = 0;
  let written = 0;
  for (let i = 0; i < devices.length; i += perPage) {
    const page = devices.slice(i, i + perPage).map((d) => d.device_id);
    const rows = z.array(FixRow).parse(
      await (
        await ch.client.query({
          query: `SELECT device_id, toUnixTimestamp64Milli(fix_time) AS t, longitude AS lon, latitude AS lat, speed
              FROM ${ch.database}.positions FINAL
              WHERE device_id IN {ids:Array(UInt64)} AND valid AND NOT JSONExtractBool(attributes, 'outdated')
                AND fix_time >= {from:DateTime64(3, 'UTC')} AND fix_time < {to:DateTime64(3, 'UTC')}
              ORDER BY device_id, fix_time`,
          query_params: { ...params, ids: page },
          format: 'JSONEachRow',
        })
      ).json(),
    );
    const facts: ObservatoryFact[] = [];
    let state: TrackerState | undefined;
    let device = -1;
    const finish = (): void => {
      if (state) facts.push(...pendingDistance(state, device));
      state = undefined;
    };
    for (const r of rows) {
      if (r.device_id !== device) {
        finish();
        device = r.device_id;
      }
      const out = track(
        state,
        device,
        { t: r.t, lon: r.lon, lat: r.lat, speedKmh: r.speed * KMH_PER_KNOT },
        deps.map,
        deps.settings ?? DEFAULT_TRACKER_SETTINGS,
      );
      state = out.state;
      facts.push(...out.facts);
    }
    finish();
    await deps.write(facts, (id) => infos.get(id)?.companyId);
    fixes += rows.length;
    written += facts.length;
  }
  deps.logger.info(
    { devices: devices.length, fixes, facts: written, from: opts.from, to: opts.to },
    'observatory backfilled from stored positions',
  );
  return { devices: devices.length, fixes, facts: written };
}
