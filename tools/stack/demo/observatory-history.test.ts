import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Analytics } from '@corridor/platform';
import { testAnalytics } from '@corridor/platform/testing/test-adapters';
import { distanceMetres, measureLine, pointAlong } from '@corridor/geodata';
import { planFleet } from '../../sim/fleet';
import { seededRandom } from '../../sim/random';
import { continuingHistory, ensureObservatoryHistory, type ObservatoryHistoryOptions } from './observatory-history';

/**
 * The demo's past is built a few trucks at a time, each step logged, and a start stopped half way
 * leaves the next start the trucks it had not reached. The backfill here records what it was asked
 * to fold and folds nothing: the geofence service's backfill has its own tests
 * (services/geofence/test/observatory.test.ts); this file is about the steps around it.
 */
let ch: Analytics;
beforeAll(async () => {
  ch = await testAnalytics(`history_${Date.now().toString(36)}`);
});
afterAll(async () => {
  await ch.client.command({ query: `DROP DATABASE IF EXISTS ${ch.database}` });
});

const plans = planFleet({ trucks: 3, random: seededRandom(1) });
const devices = new Map(plans.map((p, i) => [p.deviceId, 101 + i]));
const now = new Date('2026-03-10T12:00:00Z');

function options(extra: Partial<ObservatoryHistoryOptions> & { folded: number[][]; lines: string[] }): ObservatoryHistoryOptions {
  const { folded, lines, ...rest } = extra;
  return {
    analytics: ch,
    plans,
    devices,
    now,
    days: 1,
    trucksPerStep: 1,
    backfill: async (o) => {
      folded.push([...(o.deviceIds ?? [])]);
      return { devices: o.deviceIds?.length ?? 0, fixes: 0, facts: 7 };
    },
    log: (line) => lines.push(line),
    ...rest,
  };
}

const storedTrucks = async (): Promise<number[]> =>
  z
    .array(z.object({ d: z.coerce.number() }))
    .parse(
      await (
        await ch.client.query({
          query: `SELECT DISTINCT device_id AS d FROM ${ch.database}.positions WHERE JSONExtractBool(attributes, 'demoHistory') ORDER BY d`,
          format: 'JSONEachRow',
        })
      ).json(),
    )
    .map((r) => r.d);

describe('the demo history', () => {
  it('stops between steps when asked, and the next start stores the trucks it had not reached', async () => {
    const stop = new AbortController();
    const first = { folded: [] as number[][], lines: [] as string[] };
    const stopped = await ensureObservatoryHistory(
      options({
        ...first,
        // the stack closing while the first step is folded
        backfill: async (o) => {
          first.folded.push([...(o.deviceIds ?? [])]);
          stop.abort();
          return { devices: 1, fixes: 0, facts: 7 };
        },
        signal: stop.signal,
      }),
    );
    expect(stopped).toBeNull();
    expect(first.folded).toEqual([[101]]);
    expect(first.lines.some((l) => l.includes('1 of 3 trucks stored and folded'))).toBe(true);
    expect(await storedTrucks()).toEqual([101]);

    const second = { folded: [] as number[][], lines: [] as string[] };
    const rest = await ensureObservatoryHistory(options(second));
    expect(second.folded).toEqual([[102], [103]]);
    // a day of fixes every two minutes, for each of the two trucks
    expect(rest).toEqual({ fixes: 2 * (24 * 30 - 1), facts: 14 });
    expect(second.lines.at(-1)).toMatch(/^observatory history: done, 1438 fixes of 2 trucks over 1 days, 14 facts/);
    expect(await storedTrucks()).toEqual([101, 102, 103]);

    const third = { folded: [] as number[][], lines: [] as string[] };
    expect(await ensureObservatoryHistory(options(third))).toBeNull();
    expect(third.folded).toEqual([]);
  });

  it('stores fixes of the period before the live trucks start, an hour before now and earlier, speeds in knots', async () => {
    const r = z.array(z.object({ first: z.string(), last: z.string(), fastest: z.coerce.number() })).parse(
      await (
        await ch.client.query({
          query: `SELECT toString(min(fix_time)) AS first, toString(max(fix_time)) AS last, max(speed) AS fastest FROM ${ch.database}.positions WHERE device_id = 102`,
          format: 'JSONEachRow',
        })
      ).json(),
    )[0]!;
    expect(r.first).toBe('2026-03-09 11:02:00.000');
    expect(r.last).toBe('2026-03-10 10:58:00.000');
    // the simulator's trucks drive at most 100 km/h (54 knots)
    expect(r.fastest).toBeGreaterThan(0);
    expect(r.fastest).toBeLessThan(100 / 1.852 + 1e-6);
  });

  it('stores fixes whose speeds hold the legs between them: no trip of the past averages above its top speed', async () => {
    const rows = z.array(z.object({ lat: z.number(), lon: z.number(), speed: z.number() })).parse(
      await (
        await ch.client.query({
          query: `SELECT latitude AS lat, longitude AS lon, speed FROM ${ch.database}.positions WHERE device_id IN (101, 102, 103) ORDER BY device_id, fix_time`,
          format: 'JSONEachRow',
        })
      ).json(),
    );
    let legs = 0;
    let moving = 0;
    for (let i = 1; i < rows.length; i++) {
      const [a, b] = [rows[i - 1]!, rows[i]!];
      const metres = distanceMetres([a.lon, a.lat], [b.lon, b.lat]);
      if (metres > 50_000) continue; // the next truck's first fix
      legs++;
      if (metres > 10) moving++;
      const fastestKph = Math.max(a.speed, b.speed) * 1.852;
      expect(metres, `leg ${i}`).toBeLessThanOrEqual((fastestKph / 3.6) * 120 + 1);
    }
    expect(legs).toBeGreaterThan(2_000);
    expect(moving).toBeGreaterThan(100);
  });

  it('leaves each truck where its live self starts (continuingHistory): no leg from the past to the live truck jumps', async () => {
    const last = z.array(z.object({ d: z.coerce.number(), lat: z.number(), lon: z.number() })).parse(
      await (
        await ch.client.query({
          query: `SELECT device_id AS d, argMax(latitude, fix_time) AS lat, argMax(longitude, fix_time) AS lon FROM ${ch.database}.positions GROUP BY d ORDER BY d`,
          format: 'JSONEachRow',
        })
      ).json(),
    );
    expect(last.map((r) => r.d)).toEqual([101, 102, 103]);
    for (const [i, plan] of plans.entries()) {
      const live = continuingHistory(plan, now, 1);
      const start = pointAlong(measureLine(plan.corridor.line), live.startAlong).coord;
      // the last stored fix is the truck's place then, off by its GPS noise (metres); the plan's own start lies far from it
      expect(distanceMetres(start, [last[i]!.lon, last[i]!.lat]), plan.deviceId).toBeLessThan(50);
      expect(continuingHistory(plan, now, 0)).toBe(plan);
    }
    const moved = plans.filter((p) => continuingHistory(p, now, 1).startAlong !== p.startAlong);
    expect(moved.length).toBe(plans.length);
  });
});
