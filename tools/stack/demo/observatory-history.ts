import { z } from 'zod';
import type { Analytics } from '@corridor/platform';
import { seededRandom } from '../../sim/random';
import { kphToKnots, Truck, type Fix, type TruckPlan } from '../../sim/truck';
import { waitSeconds } from '../../sim/waits';

const DAY_MS = 86_400_000;
const chTime = (d: Date): string => d.toISOString().replace('T', ' ').replace('Z', '');

export interface ObservatoryHistoryOptions {
  analytics: Analytics;
  /** The simulated trucks' plans (their corridors, speeds and stops). */
  plans: readonly TruckPlan[];
  /** Registered device id of each simulated truck, by unique id. */
  devices: ReadonlyMap<string, number>;
  /** The geofence service's observatory backfill (the tracker folding stored positions). */
  backfill(opts: { from: Date; to: Date; deviceIds: number[] }): Promise<{ devices: number; fixes: number; facts: number }>;
  now: Date;
  /** How far back (days); the history ends an hour before `now`, before the live trucks start. */
  days: number;
  /** Seconds between two fixes of a truck. */
  stepSeconds?: number;
  log(line: string): void;
}

/**
 * The demo's past, so that the corridor observatory shows weeks of figures on `pnpm start`: the
 * simulated trucks driven through the last `days` days at full speed by the simulator's own truck
 * model, waiting at each border post and weighbridge as long as tools/sim/waits.ts says for the
 * place and the hour (minutes to hours), their fixes stored as positions (marked
 * `demoHistory`: they never went through a device protocol or the bus) and folded into the
 * observatory's facts by the geofence service's backfill, the same tracker that folds live fixes.
 * Once: a second start finds the history stored and leaves it.
 */
export async function ensureObservatoryHistory(o: ObservatoryHistoryOptions): Promise<{ fixes: number; facts: number } | null> {
  const ch = o.analytics;
  const to = new Date(Math.floor((o.now.getTime() - 3_600_000) / 60_000) * 60_000);
  const from = new Date(to.getTime() - o.days * DAY_MS);
  const ids = o.plans.map((p) => o.devices.get(p.deviceId)).filter((id): id is number => id !== undefined);
  if (!ids.length || o.days <= 0) return null;
  const stored = z.array(z.object({ n: z.coerce.number() })).parse(await (await ch.client.query({
    query: `SELECT count() AS n FROM ${ch.database}.positions WHERE device_id IN {ids:Array(UInt64)} AND JSONExtractBool(attributes, 'demoHistory')`,
    query_params: { ids }, format: 'JSONEachRow',
  })).json())[0]!.n;
  if (stored > 0) return null;
  const step = o.stepSeconds ?? 120;
  const random = seededRandom(30);
  const silent = { protocol: 'history', send: async () => true };
  let fixes = 0;
  for (const plan of o.plans) {
    const deviceId = o.devices.get(plan.deviceId);
    if (deviceId === undefined) continue;
    const truck = new Truck(plan, { sender: silent, random, waits: waitSeconds });
    const rows: Record<string, unknown>[] = [];
    for (let t = from.getTime() + step * 1000, seq = 0; t < to.getTime(); t += step * 1000, seq++) {
      const at = new Date(t);
      truck.advance(step, at);
      rows.push(positionRow(deviceId, plan.deviceId, seq, truck.fix(at)));
    }
    await ch.client.insert({ table: `${ch.database}.positions`, values: rows, format: 'JSONEachRow' });
    fixes += rows.length;
  }
  const folded = await o.backfill({ from, to, deviceIds: ids });
  o.log(`observatory history: ${fixes} fixes of ${ids.length} trucks over ${o.days} days, ${folded.facts} facts`);
  return { fixes, facts: folded.facts };
}

/** A stored position as ingest stores an OsmAnd fix (speed in knots), with an id of the history's own range. */
function positionRow(deviceId: number, uniqueId: string, seq: number, fix: Fix): Record<string, unknown> {
  const time = chTime(fix.time);
  return {
    id: String((1n << 62n) + (BigInt(deviceId) << 32n) + BigInt(seq)), device_id: deviceId, unique_id: uniqueId, protocol: 'osmand',
    fix_time: time, device_time: time, server_time: time, valid: true, latitude: fix.lat, longitude: fix.lon,
    speed: kphToKnots(fix.speedKph), course: fix.courseDeg, altitude: fix.altitudeM, accuracy: fix.accuracyM, satellites: null, hdop: null,
    ignition: null, odometer: null, power: null, battery: fix.batteryPct, alarm: null, crc_valid: true, raw_frame_id: null,
    attributes: JSON.stringify({ demoHistory: true }),
  };
}
