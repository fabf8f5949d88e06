/**
 * The corridor observatory (issue 30) at the scale of 10,000 trucks over 90 days, on the analytics
 * store the environment names (chDB here, no ClickHouse server):
 * - the facts are generated directly in the store (INSERT … SELECT FROM numbers(): each truck one
 *   corridor trip every 3 days, with its visits of the corridor's 7 places, the 6 segment legs and
 *   the end-to-end leg, 5 stops and two device-days of distance per trip; about 1 in 20 legs counted
 *   apart), not folded from 100 M fixes (a fix every 30 s would be 259 M; folding them here would
 *   take hours on this shared machine). What the screen queries is these facts, never fixes;
 * - the daily indicators (migration 0004) computed from the facts for all 90 days, and for one day
 *   as the geofence service keeps them current (what a day's recomputation costs, once per 30 s);
 * - each of the screen's queries through ops-api's HTTP endpoints, which read the daily rows (the association's view of 12
 *   weeks by week, a month, a company against the rest): the median of 3 runs, wall clock;
 * - the cost of keeping the facts current: the tracker (services/geofence/src/observatory/tracker.ts)
 *   folding fixes of simulated trucks driving the corridors (tools/sim) with a fix every 30 s,
 *   CPU time per fix on one core, and the share of a core that 5,000 fixes/s would take (the
 *   tracker alone, extrapolated);
 * - the cost of keeping facts and indicators current, measured at 5,000 fixes/s
 *   (observatory-upkeep.ts): 10,000 simulated trucks, a fix every 2 s, folded, written and rolled
 *   up as the geofence service does, paced in real time on the same store.
 */
import { request } from 'undici';
import { build as buildOpsApi } from '@corridor/ops-api';
import { corridorLines } from '@corridor/geofence/observatory/corridor-lines';
import { ObservatoryMap, observatoryPlaces } from '@corridor/geofence/observatory/observatory-map';
import { seededFences } from '@corridor/geofence/observatory/track-builder';
import { trackAll, type TrackFix } from '@corridor/geofence/observatory/tracker';
import { upkeepAt5000FixesPerSecond } from '../observatory-upkeep';
import { TEST_IDENTITY_SECRET, asUser, testUsers } from '@corridor/platform/testing/identity';
import { planFleet } from '../../sim/fleet';
import { seededRandom } from '../../sim/random';
import { Truck } from '../../sim/truck';
import { waitSeconds } from '../../sim/waits';
import { rollUpObservatoryDays } from '@corridor/platform';
import { benchAdapters, load1m, partsOf, primaryBenchKind } from '../parts';

const TRUCKS = Number(process.env.OBS_BENCH_TRUCKS ?? 10_000);
const DAYS = 90;
const COMPANIES = Number(process.env.OBS_BENCH_COMPANIES ?? 50);
const END = Date.UTC(2026, 3, 1); // the facts end on 1 April 2026
const START = END - DAYS * 86_400_000;
/** The store's last day (31 March): the upkeep run's fixes are on it from 08:00, so its facts touch a day as full as any. */
const START_OF_LAST_DAY = END - 86_400_000;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The corridor's places in order with where they lie (m), as the tracker writes them (northern). */
const PLACES = [
  ['1', 'Port of Mombasa', 'port', 0],
  ['2', 'Mariakani weighbridge', 'weighbridge', 30_000],
  ['3', 'Athi River (Mlolongo) weighbridge', 'weighbridge', 470_000],
  ['4', 'Gilgil weighbridge', 'weighbridge', 590_000],
  ['5', 'Webuye weighbridge', 'weighbridge', 870_000],
  ['6', 'Malaba OSBP', 'border_post', 927_000],
] as const;

export default async function run(): Promise<Record<string, number | string>> {
  const adapters = await benchAdapters(await primaryBenchKind());
  const ch = adapters.analytics;
  const db = ch.database;
  const out: Record<string, number | string> = { parts: partsOf(adapters), trucks: TRUCKS, days: DAYS, companies: COMPANIES };
  const exec = (query: string) => ch.client.command({ query, clickhouse_settings: { max_execution_time: 3600 } });
  const trips = Math.floor((TRUCKS * DAYS) / 3);
  // each trip: a truck (n % TRUCKS), its start spread over the 90 days, its direction alternating; the trucks of COMPANIES companies
  // (the two seeded transporters 101 and 202 among them, the others not in the directory), as many trucks each
  const trip = `SELECT number AS n, n % ${TRUCKS} AS device, multiIf(device % ${COMPANIES} = 0, 101, device % ${COMPANIES} = 1, 202, 1000 + device % ${COMPANIES}) AS company, if(intDiv(n, ${TRUCKS}) % 2 = 0, 1, -1) AS dir,
                toDateTime64(${START / 1000} + (n * 7919 % ${DAYS * 86_400}), 3, 'UTC') AS t0 FROM numbers(${trips})`;
  const places = `[${PLACES.map(([id, name, kind, along]) => `('${id}', '${name}', '${kind}', ${along})`).join(', ')}]`;
  let t = performance.now();
  out['load1m.before_generating'] = load1m();
  // visits: one per place per trip, a lognormal-ish wait (border post hours, weighbridges minutes)
  await exec(`INSERT INTO ${db}.obs_visits SELECT device, company, p.1, p.2, p.3, 'northern', dir, t0 + toIntervalSecond(idx * 20000),
    t0 + toIntervalSecond(idx * 20000 + w), w FROM (SELECT *, arrayJoin(arrayEnumerate(${places})) AS idx, ${places}[idx] AS p,
    toFloat64(if(p.3 = 'border_post', 7200, if(p.3 = 'port', 28800, 900)) * exp(0.45 * randNormal(0, 1))) AS w FROM (${trip}))`);
  // legs: the 5 segments between adjacent places and the trip end to end; 1 in 20 counted apart
  await exec(`INSERT INTO ${db}.obs_legs SELECT device, company, 'northern', if(idx = 6, 'corridor', 'segment'), a.1, b.1, a.2, b.2, a.4, b.4, dir,
    t0 + toIntervalSecond(idx * 20000), t0 + toIntervalSecond(idx * 20000 + s), s,
    multiIf(rand() % 20 = 0, 'left_corridor', rand() % 40 = 1, 'long_stop', '')
    FROM (SELECT *, arrayJoin([1, 2, 3, 4, 5, 6]) AS idx, if(idx = 6, ${places}[1], ${places}[idx]) AS a, if(idx = 6, ${places}[6], ${places}[idx + 1]) AS b,
    toFloat64(abs(b.4 - a.4) / 15 * (1 + 0.3 * rand() / 4294967295)) AS s FROM (${trip}))`);
  await exec(`INSERT INTO ${db}.obs_stops SELECT device, company, 'northern', dir, t0 + toIntervalSecond(k * 15000), t0 + toIntervalSecond(k * 15000 + d), d, -1, 36,
    if(k % 2 = 0, '', 'parking') FROM (SELECT *, arrayJoin([1, 2, 3, 4, 5]) AS k, toFloat64(300 + rand() % 3600) AS d FROM (${trip}))`);
  await exec(
    `INSERT INTO ${db}.obs_distance SELECT toDate(t0) + k, device, company, 'northern', dir, 460000, 1 FROM (SELECT *, arrayJoin([0, 1]) AS k FROM (${trip}))`,
  );
  out['generate_s'] = Math.round((performance.now() - t) / 100) / 10;
  const count = async (table: string) =>
    Number(
      (await (await ch.client.query({ query: `SELECT count() AS n FROM ${db}.${table}`, format: 'JSONEachRow' })).json<{ n: string }>())[0]!
        .n,
    );
  for (const table of ['obs_visits', 'obs_legs', 'obs_stops', 'obs_distance']) out[`${table}.rows`] = await count(table);
  await exec(`OPTIMIZE TABLE ${db}.obs_visits FINAL`).catch(() => undefined);

  // the daily indicators the queries read, from the facts: every day once (what migration 0004 does
  // for an installation's stored days), then one day as the geofence service recomputes the day
  // new facts touched, at most once every 30 s (ObservatoryRollup): its share of the store's time
  const days = Array.from({ length: DAYS }, (_, i) => new Date(START + i * 86_400_000).toISOString().slice(0, 10));
  out['load1m.before_rollup'] = load1m();
  t = performance.now();
  await rollUpObservatoryDays(ch, days);
  out['rollup.all_days_s'] = Math.round((performance.now() - t) / 100) / 10;
  for (const table of ['obs_visits_daily', 'obs_legs_daily', 'obs_stops_daily', 'obs_distance_daily'])
    out[`${table}.rows`] = await count(table);
  const oneDay: number[] = [];
  for (let i = 0; i < 3; i++) {
    t = performance.now();
    await rollUpObservatoryDays(ch, [days[DAYS - 10 + i]!]);
    oneDay.push(performance.now() - t);
  }
  out['rollup.one_day_ms'] = Math.round(median(oneDay));

  const ops = await buildOpsApi({ ...adapters, identitySecret: TEST_IDENTITY_SECRET, logger: adapters.logger });
  await ops.app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(ops.app.server.address() as { port: number }).port}/api/association/observatory`;
  const weeks = `from=${new Date(END - 84 * 86_400_000).toISOString()}&to=${new Date(END).toISOString()}`;
  const march = `from=2026-03-01T00:00:00Z&to=2026-04-01T00:00:00Z`;
  const queries: [string, string, typeof testUsers.analyst][] = [
    ['map_12_weeks', `/map?${weeks}`, testUsers.analyst],
    ['dwell_12_weeks_by_week', `/dwell?${weeks}`, testUsers.analyst],
    ['transit_12_weeks_by_week', `/transit?${weeks}`, testUsers.analyst],
    ['stops_12_weeks_by_week', `/stops?${weeks}`, testUsers.analyst],
    ['dwell_march_by_week', `/dwell?${march}`, testUsers.analyst],
    [
      'transit_90_days_by_month_company_vs_rest',
      `/transit?from=${new Date(START).toISOString()}&to=${new Date(END).toISOString()}&interval=month&companyId=101`,
      testUsers.analyst,
    ],
    ['dwell_12_weeks_csv', `/dwell?${weeks}&format=csv`, testUsers.analyst],
  ];
  try {
    out['load1m.before_queries'] = load1m();
    for (const [name, path, who] of queries) {
      const headers = await asUser(who);
      const runs: number[] = [];
      let items = 0;
      for (let i = 0; i < 3; i++) {
        t = performance.now();
        const res = await request(base + path, { headers });
        const body = await res.body.text();
        runs.push(performance.now() - t);
        if (res.statusCode !== 200) throw new Error(`${name}: ${res.statusCode} ${body.slice(0, 300)}`);
        items = body.startsWith('{')
          ? (
              (JSON.parse(body) as { items?: unknown[]; segments?: unknown[] }).items ??
              (JSON.parse(body) as { segments: unknown[] }).segments
            ).length
          : body.split('\n').length - 2;
      }
      out[`query.${name}_ms`] = Math.round(median(runs));
      out[`query.${name}_rows`] = items;
    }
    out['load1m.after_queries'] = load1m();
  } finally {
    await ops.close();
  }

  // the tracker's cost per fix: simulated trucks with a fix every 30 s, folded as the live consumer folds them
  const map = new ObservatoryMap(observatoryPlaces(seededFences(), corridorLines()));
  const plans = planFleet({ trucks: 40, random: seededRandom(7) });
  const silent = { protocol: 'bench', send: async () => true };
  const tracks: TrackFix[][] = plans.map((plan) => {
    const truck = new Truck(plan, { sender: silent, random: seededRandom(3), waits: waitSeconds });
    const fixes: TrackFix[] = [];
    for (let s = 30; s <= 2 * 86_400; s += 30) {
      const at = new Date(START + s * 1000);
      truck.advance(30, at);
      const f = truck.fix(at);
      fixes.push({ t: at.getTime(), lon: f.lon, lat: f.lat, speedKmh: f.speedKph });
    }
    return fixes;
  });
  const fixes = tracks.reduce((n, f) => n + f.length, 0);
  const cpu0 = process.cpuUsage();
  t = performance.now();
  let facts = 0;
  tracks.forEach((f, i) => (facts += trackAll(undefined, i + 1, f, map).facts.length));
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  out['tracker.fixes'] = fixes;
  out['tracker.facts'] = facts;
  out['tracker.wall_ms'] = Math.round(performance.now() - t);
  out['tracker.cpu_us_per_fix'] = Math.round(((cpuMs * 1000) / fixes) * 100) / 100;
  out['tracker.core_share_at_5000_fixes_per_s'] = Math.round((cpuMs / 1000 / fixes) * 5000 * 1000) / 1000;

  Object.assign(out, await upkeepAt5000FixesPerSecond(ch, map, adapters.logger, START_OF_LAST_DAY + 8 * 3600_000));
  out['load1m.after'] = load1m();
  await adapters.close();
  return out;
}
