import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Analytics } from '../adapters/analytics';
import { emptyTestAnalytics, testAnalytics } from '../testing/test-adapters';
import { migrateAnalytics } from './migrate';
import { readMigrations } from './migration-files';
import { histogramCountAbove, histogramCountAtLeast, histogramQuantile, rollUpObservatoryDays } from './observatory-rollup';

/**
 * The observatory's minute histograms answer as ClickHouse's quantileExactInclusive answers over
 * the minutes themselves (what the indicators were before they were kept per day), for any mix of
 * values and repeats.
 */
let ch: Analytics;
beforeAll(async () => {
  ch = await testAnalytics(`rollup_${Date.now().toString(36)}`);
});
afterAll(async () => {
  await ch.client.command({ query: `DROP DATABASE IF EXISTS ${ch.database}` });
});

const histogramOf = (xs: number[]): Record<string, number> => {
  const h: Record<string, number> = {};
  for (const x of xs) h[x] = (h[x] ?? 0) + 1;
  return h;
};

describe('minute histograms', () => {
  it('give the median and p90 that quantileExactInclusive gives over the same minutes', async () => {
    let seed = 7;
    const next = () => (seed = (seed * 48_271) % 2_147_483_647);
    const samples = [
      [190],
      [60, 61],
      [5, 5, 5, 9],
      ...Array.from({ length: 20 }, (_, i) => Array.from({ length: 1 + (next() % (i * 7 + 3)) }, () => next() % (i < 10 ? 12 : 900))),
    ];
    for (const xs of samples) {
      const [expected] = await (
        await ch.client.query({
          query:
            'SELECT quantileExactInclusive(0.5)(x) * 60 AS p50, quantileExactInclusive(0.9)(x) * 60 AS p90 FROM (SELECT arrayJoin({xs:Array(Float64)}) AS x)',
          query_params: { xs },
          format: 'JSONEachRow',
        })
      ).json<{ p50: number; p90: number }>();
      const h = histogramOf(xs);
      expect(histogramQuantile(h, 0.5), JSON.stringify(xs)).toBeCloseTo(expected!.p50, 6);
      expect(histogramQuantile(h, 0.9), JSON.stringify(xs)).toBeCloseTo(expected!.p90, 6);
    }
    expect(histogramQuantile({}, 0.5)).toBeNull();
  });

  it('count above a threshold and at least a length', () => {
    const h = histogramOf([239, 240, 240, 241, 600]);
    expect(histogramCountAbove(h, 240)).toBe(2);
    expect(histogramCountAtLeast(h, 240)).toBe(4);
    expect(histogramCountAtLeast(h, 1_000)).toBe(0);
  });
});

describe('the daily indicators', () => {
  const visit = (device: number, day: string, dwell: number) => ({
    device_id: device,
    company_id: 101,
    place_id: '40',
    place_name: 'Malaba OSBP',
    place_kind: 'border_post',
    corridor: 'northern',
    direction: 1,
    entered_at: `${day} 06:00:00.000`,
    exited_at: `${day} 12:00:00.000`,
    dwell_s: dwell,
  });
  const daily = async (db: Analytics) =>
    await (
      await db.client.query({
        query: `SELECT toString(day) AS day, toString(visits) AS visits, toString(groupBitmapMerge(trucks)) AS trucks, minutes
            FROM ${db.database}.obs_visits_daily FINAL GROUP BY day, visits, minutes ORDER BY day`,
        format: 'JSONEachRow',
      })
    ).json<{ day: string; visits: string; trucks: string; minutes: Record<string, number> }>();

  it('are recomputed whole for the days asked: a fact written twice counts once, a later fact of the day joins', async () => {
    const insert = (values: Record<string, unknown>[]) =>
      ch.client.insert({ table: `${ch.database}.obs_visits`, values, format: 'JSONEachRow' });
    await insert([visit(1, '2026-01-05', 11_400), visit(2, '2026-01-05', 600)]);
    await insert([visit(1, '2026-01-05', 11_400)]);
    await rollUpObservatoryDays(ch, ['2026-01-05'], 1);
    expect(await daily(ch)).toEqual([{ day: '2026-01-05', visits: '2', trucks: '2', minutes: { 10: 1, 190: 1 } }]);
    await insert([visit(3, '2026-01-05', 630), visit(3, '2026-01-06', 60)]);
    await rollUpObservatoryDays(ch, ['2026-01-05'], 2);
    // the 6th was not asked for: not there yet
    expect(await daily(ch)).toEqual([{ day: '2026-01-05', visits: '3', trucks: '3', minutes: { 10: 1, 11: 1, 190: 1 } }]);
  });

  it('of the days stored before 0004 are computed by the migration, as the rollup computes them', async () => {
    const before = await emptyTestAnalytics(`rollup_migrate_${Date.now().toString(36)}`);
    const files = readMigrations();
    const upTo = files.findIndex((f) => f.name.startsWith('0004_'));
    await migrateAnalytics(before, { files: files.slice(0, upTo) });
    await before.client.insert({
      table: `${before.database}.obs_visits`,
      values: [visit(1, '2026-01-05', 11_400), visit(2, '2026-02-09', 601), visit(2, '2026-02-09', 601)],
      format: 'JSONEachRow',
    });
    await migrateAnalytics(before, { files });
    expect(await daily(before)).toEqual([
      { day: '2026-01-05', visits: '1', trucks: '1', minutes: { 190: 1 } },
      { day: '2026-02-09', visits: '1', trucks: '1', minutes: { 11: 1 } },
    ]);
    await before.client.command({ query: `DROP DATABASE IF EXISTS ${before.database}` });
  });
});
