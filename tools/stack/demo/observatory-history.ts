import { z } from 'zod';
import { positionId, positionTime } from '@corridor/contracts';
import { distanceMetres } from '@corridor/geodata';
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
  /** How far back (days); the history ends an hour before `now`, before the live trucks start (where it leaves them: continuingHistory). */
  days: number;
  /** Seconds between two fixes of a truck. */
  stepSeconds?: number;
  /** Trucks stored and folded per step (each step one insert and one backfill, so the live stack's queries interleave). */
  trucksPerStep?: number;
  /** Stops between two steps (the stack closing). */
  signal?: AbortSignal;
  log(line: string): void;
}

/**
 * The demo's past, so that the corridor observatory shows weeks of figures on `pnpm start`: the
 * simulated trucks driven through the last `days` days at full speed by the simulator's own truck
 * model, waiting at each border post and weighbridge as long as tools/sim/waits.ts says for the
 * place and the hour (minutes to hours), their fixes stored as positions (marked
 * `demoHistory`: they never went through a device protocol or the bus) and folded into the
 * observatory's facts by the geofence service's backfill, the same tracker that folds live fixes.
 * The stack runs it in the background once the live trucks drive (a few trucks per step, each step
 * logged), so it never delays them. Once: a second start finds the history stored and leaves it
 * (one stopped half way stores the trucks it had not reached).
 */
export async function ensureObservatoryHistory(o: ObservatoryHistoryOptions): Promise<{ fixes: number; facts: number } | null> {
  const ch = o.analytics;
  const { from, to } = historyPeriod(o.now, o.days);
  const ids = o.plans.map((p) => o.devices.get(p.deviceId)).filter((id): id is number => id !== undefined);
  if (!ids.length || o.days <= 0) return null;
  // the trucks whose past is stored already (a second start, or one stopped half way, goes on with the rest)
  const stored = new Set(
    z
      .array(z.object({ device_id: z.coerce.number() }))
      .parse(
        await (
          await ch.client.query({
            query: `SELECT DISTINCT device_id FROM ${ch.database}.positions WHERE device_id IN {ids:Array(UInt64)} AND JSONExtractBool(attributes, 'demoHistory')`,
            query_params: { ids },
            format: 'JSONEachRow',
          })
        ).json(),
      )
      .map((r) => r.device_id),
  );
  if (stored.size === ids.length) return null;
  const step = o.stepSeconds ?? HISTORY_STEP_S;
  const perStep = o.trucksPerStep ?? 2;
  const plans = o.plans.filter((p) => o.devices.has(p.deviceId) && !stored.has(o.devices.get(p.deviceId)!));
  const started = Date.now();
  let fixes = 0;
  let facts = 0;
  o.log(
    `observatory history: storing ${o.days} days of ${plans.length} trucks' past in the background (the live trucks are already driving)`,
  );
  for (let i = 0; i < plans.length; i += perStep) {
    if (o.signal?.aborted) return null;
    const stepIds: number[] = [];
    for (const plan of plans.slice(i, i + perStep)) {
      const deviceId = o.devices.get(plan.deviceId)!;
      stepIds.push(deviceId);
      const rows: Record<string, unknown>[] = [];
      let previous: Fix | undefined;
      driveHistory(plan, { from, to }, step, (fix) => {
        const kept = atLeastItsLeg(fix, previous, step);
        rows.push(positionRow(deviceId, plan.deviceId, kept));
        previous = kept;
      });
      await ch.client.insert({ table: `${ch.database}.positions`, values: rows, format: 'JSONEachRow' });
      fixes += rows.length;
    }
    // a step's trucks are stored and folded together: stopping is checked before the next step only
    facts += (await o.backfill({ from, to, deviceIds: stepIds })).facts;
    const done = Math.min(i + perStep, plans.length);
    o.log(`observatory history: ${done} of ${plans.length} trucks stored and folded (${Math.round((Date.now() - started) / 1000)} s)`);
  }
  o.log(
    `observatory history: done, ${fixes} fixes of ${plans.length} trucks over ${o.days} days, ${facts} facts, in ${Math.round((Date.now() - started) / 1000)} s`,
  );
  return { fixes, facts };
}

/** Seconds between two fixes of a truck's past. */
const HISTORY_STEP_S = 120;

/** The history's period: `days` back from an hour before `now` (to the minute), when the live trucks have not started. */
function historyPeriod(now: Date, days: number): { from: Date; to: Date } {
  const to = new Date(Math.floor((now.getTime() - 3_600_000) / 60_000) * 60_000);
  return { from: new Date(to.getTime() - days * DAY_MS), to };
}

/** A seed of each truck's own (its device id's), so that its past is the same whichever trucks are stored with it. */
const seedOf = (deviceId: string): number => [...deviceId].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 2 ** 31, 30);

/**
 * Drives a truck through its past by the simulator's truck model, from its plan's start at `from`,
 * a fix every `step` seconds before `to`; answers the truck as it stands at its last fix.
 */
function driveHistory(plan: TruckPlan, period: { from: Date; to: Date }, step: number, each?: (fix: Fix) => void): Truck {
  const truck = new Truck(plan, { sender: silent, random: seededRandom(seedOf(plan.deviceId)), waits: waitSeconds });
  for (let t = period.from.getTime() + step * 1000; t < period.to.getTime(); t += step * 1000) {
    const at = new Date(t);
    truck.advance(step, at);
    const fix = truck.fix(at);
    each?.(fix);
  }
  return truck;
}
const silent = { protocol: 'history', send: async () => true };

/**
 * The plan of a live truck that goes on where its past (ensureObservatoryHistory over the same
 * `now` and `days`) leaves it: at that place on its corridor, driving the way it was. Started from
 * its own plan instead, the live truck would appear hundreds of kilometres from its last stored fix
 * an hour later, and the reports would read that leg as a trip of its own, faster on average than
 * its top speed (a live trip of 143.9 km/h against 72.1 in the demo's 90-day file, issue 26).
 */
export function continuingHistory(plan: TruckPlan, now: Date, days: number): TruckPlan {
  if (days <= 0) return plan;
  const end = driveHistory(plan, historyPeriod(now, days), HISTORY_STEP_S).state();
  return { ...plan, startAlong: end.along, direction: end.direction };
}

/**
 * The fix with a speed no lower than the average its truck must have driven since the previous fix
 * (the leg's length over the step): two minutes apart, a truck that pulled out of a border queue and
 * stopped again reads 0 km/h at both ends, and a trip of such fixes showed an average above its top
 * speed. The live simulator's fixes, seconds apart, hold the same rule (tools/sim/incidents.test.ts).
 */
function atLeastItsLeg(fix: Fix, previous: Fix | undefined, stepSeconds: number): Fix {
  if (!previous) return fix;
  const legKph = (distanceMetres([previous.lon, previous.lat], [fix.lon, fix.lat]) / stepSeconds) * 3.6;
  return legKph > fix.speedKph ? { ...fix, speedKph: Math.ceil(legKph * 10) / 10 } : fix;
}

/**
 * A stored position as ingest stores an OsmAnd fix: its id derived from the device and the whole-second
 * fix time (packages/contracts position-id, as every stored position's; the reports check it), speed
 * in knots. The history lies before the live trucks' first fix, so the ids never meet theirs.
 */
function positionRow(deviceId: number, uniqueId: string, fix: Fix): Record<string, unknown> {
  const at = positionTime(fix.time);
  const time = chTime(at);
  return {
    id: String(positionId(deviceId, at)),
    device_id: deviceId,
    unique_id: uniqueId,
    protocol: 'osmand',
    fix_time: time,
    device_time: time,
    server_time: time,
    valid: true,
    latitude: fix.lat,
    longitude: fix.lon,
    speed: kphToKnots(fix.speedKph),
    course: fix.courseDeg,
    altitude: fix.altitudeM,
    accuracy: fix.accuracyM,
    satellites: null,
    hdop: null,
    ignition: null,
    odometer: null,
    power: null,
    battery: fix.batteryPct,
    alarm: null,
    crc_valid: true,
    raw_frame_id: null,
    attributes: JSON.stringify({ demoHistory: true }),
  };
}
