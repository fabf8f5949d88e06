/**
 * Report latency over ClickHouse (embedded: chDB), through ops-api's HTTP endpoints with the body
 * read as it streams. Trips and stops run two ways, alternately on the same data: folded from the
 * store's lean track (the default) and from every fix read whole (`motionInput: 'rows'`, the path
 * before), each answer checked equal to the other; `*_speedup` is the ratio of their medians, with
 * the load average sampled around them (REPORTS_BENCH_PART=motion runs only these):
 * - one device-month: 30 days of a fix every 30 s (86,400 fixes), a working day of 3 trips each;
 * - 1,000 device-days: 1,000 devices (one group) with a day of fixes every 30 s each (2.88 M fixes;
 *   the first device's written by the position writer, copied to the others in the store).
 * Each figure is the median of a few runs, wall clock from request to the last byte (and to the
 * first byte where it says so); the peak RSS growth during the 1,000 device-days reports (sampled
 * every 20 ms from the request on) shows the fixes are not held in memory. The process is the
 * whole ops-api with chDB in it: RSS counts the engine's memory and the answers it hands over.
 * The route CSV is also read for half of the fleet, so the growth can be compared across sizes.
 * `fleet.track_read_*`: the track read alone (store query and decoding), alternated with the trips
 * report, says how much of the report the fold is (issue 28's profile of the reports);
 * `*_cpu_ms_main_thread` and `*_cpu_ms_process`: the CPU a report took on the main thread (its
 * JavaScript: decoding, fold, answer; the bench's HTTP client too) and in the whole process (chDB's
 * query threads added), medians of its runs: the share of the store's work, which wall time under
 * a busy machine's load cannot tell.
 * With the older motion model (newLogic=false) trips and stops run three ways back to back: computed
 * in the store with window functions (motion-runs.ts, motionInput 'store'), folded from the lean
 * track (the default) and folded from every fix (`*_old_logic_*`). The parts are those the
 * environment names (tools/bench/parts.ts): PostgreSQL for the devices when DATABASE_URL is set,
 * ClickHouse when CLICKHOUSE_URL is, else chDB.
 */
import { request } from 'undici';
import { DeviceInput } from '@corridor/contracts';
import { build as buildOpsApi } from '@corridor/ops-api';
import { devices } from '@corridor/ops-api/db/schema/devices';
import { groups } from '@corridor/ops-api/db/schema/groups';
import { defaultReportSettings } from '@corridor/ops-api/reports/settings';
import { buildTrack, trackPositions, type Segment } from '@corridor/ops-api/reports/synthetic-track';
import { stillRunSpan } from '@corridor/ops-api/reports/track-runs';
import { countPositions, insertPositions, touchTrackDays } from '@corridor/platform';
import { streamTracks } from '@corridor/ops-api/clickhouse/report-track';
import { computeTrackRuns } from '@corridor/ops-api/clickhouse/report-track-runs';
import { benchAdapters, load1m, partsOf, primaryBenchKind } from '../parts';
import { TEST_IDENTITY_SECRET, asUser, testUsers } from '@corridor/platform/testing/identity';

const DAY_MS = 86_400_000;
const START = Date.UTC(2026, 0, 1);
const workingDay: Segment[] = [
  { kind: 'stop', seconds: 6 * 3600 },
  { kind: 'drive', seconds: 2 * 3600, kmh: 60 },
  { kind: 'stop', seconds: 3600, idleSeconds: 600 },
  { kind: 'drive', seconds: 3 * 3600, kmh: 55 },
  { kind: 'stop', seconds: 5400, idleSeconds: 600 },
  { kind: 'drive', seconds: 2 * 3600, kmh: 60, bearing: 270 },
  { kind: 'stop', seconds: 8.5 * 3600 },
];
const DEVICE_DAYS = 1000;
const POSITION_COLUMNS =
  'id, device_id, unique_id, protocol, fix_time, device_time, server_time, valid, latitude, longitude, speed, course, ' +
  'altitude, accuracy, satellites, hdop, ignition, odometer, power, battery, alarm, crc_valid, raw_frame_id, attributes';
/** REPORTS_BENCH_PART=motion: only trips and stops, lean track against every fix (the issue's ratio), in minutes rather than half an hour. */
const MOTION_ONLY = process.env.REPORTS_BENCH_PART === 'motion';

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
/** CPU time of this thread, as process.cpuUsage is of the process. */
const threadCpu = (since?: NodeJS.CpuUsage): NodeJS.CpuUsage => process.threadCpuUsage(since);
const cpuMs = (u: NodeJS.CpuUsage): number => Math.round((u.user + u.system) / 1000);

export default async function run(): Promise<Record<string, number | string>> {
  const adapters = await benchAdapters(await primaryBenchKind());
  const ops = await buildOpsApi({ ...adapters, identitySecret: TEST_IDENTITY_SECRET, logger: adapters.logger });
  await ops.app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(ops.app.server.address() as { port: number }).port}/api/reports`;
  // the same service folding trips and stops from every fix read whole (the path before the lean track)
  const before = await buildOpsApi({
    ...adapters,
    identitySecret: TEST_IDENTITY_SECRET,
    logger: adapters.logger,
    reports: { ...defaultReportSettings(), motionInput: 'rows' },
  });
  await before.app.listen({ host: '127.0.0.1', port: 0 });
  const baseBefore = `http://127.0.0.1:${(before.app.server.address() as { port: number }).port}/api/reports`;
  // the same service reading every day's track from the positions (the default before the stored runs, issue 28)
  const trackOnly = await buildOpsApi({
    ...adapters,
    identitySecret: TEST_IDENTITY_SECRET,
    logger: adapters.logger,
    reports: { ...defaultReportSettings(), storedRuns: false },
  });
  await trackOnly.app.listen({ host: '127.0.0.1', port: 0 });
  const baseTrack = `http://127.0.0.1:${(trackOnly.app.server.address() as { port: number }).port}/api/reports`;
  // and computing them in the store with window functions (older motion model)
  const stored = await buildOpsApi({
    ...adapters,
    identitySecret: TEST_IDENTITY_SECRET,
    logger: adapters.logger,
    reports: { ...defaultReportSettings(), motionInput: 'store' },
  });
  await stored.app.listen({ host: '127.0.0.1', port: 0 });
  const baseStored = `http://127.0.0.1:${(stored.app.server.address() as { port: number }).port}/api/reports`;
  const put = insertPositions(adapters.analytics);
  const out: Record<string, number | string> = {};
  try {
    // one device-month
    const month = await ops.devices.create(DeviceInput.parse({ name: 'month truck', uniqueId: 'bench-month' }));
    const monthFixes = buildTrack({
      start: new Date(START),
      origin: [36.82, -1.29],
      everySeconds: 30,
      segments: Array.from({ length: 30 }, () => workingDay).flat(),
    });
    const t0 = performance.now();
    for (let i = 0; i < monthFixes.length; i += 20_000) {
      await put(trackPositions(month.id, 'bench-month', monthFixes.slice(i, i + 20_000)));
    }
    out['month.fixes'] = monthFixes.length;
    out['month.insert_s'] = Math.round((performance.now() - t0) / 100) / 10;

    // 1,000 device-days, one group
    const [group] = await adapters.db.orm.insert(groups).values({ name: 'bench fleet' }).returning();
    const dayFixes = buildTrack({ start: new Date(START), origin: [36.82, -1.29], everySeconds: 30, segments: workingDay });
    const t1 = performance.now();
    const fleet = (
      await adapters.db.orm
        .insert(devices)
        .values(Array.from({ length: DEVICE_DAYS }, (_, i) => ({ name: `fleet ${i}`, uniqueId: `bench-fleet-${i}`, groupId: group!.id })))
        .returning({ id: devices.id })
    ).map((d) => d.id);
    // the first device's day through the writer, the same day copied to the others in the store (a
    // position id is its device's id plus a function of its time: the copy's ids are the ones the writer would give)
    const [first, ...others] = fleet;
    await put(trackPositions(first!, `bench-fleet-${first}`, dayFixes));
    await adapters.analytics.client.command({
      query: `INSERT INTO ${adapters.analytics.database}.positions (${POSITION_COLUMNS})
        SELECT id - {first:UInt64} + d, d, concat('bench-fleet-', toString(d)), ${POSITION_COLUMNS.split(', ').slice(3).join(', ')}
        FROM ${adapters.analytics.database}.positions ARRAY JOIN {others:Array(UInt64)} AS d WHERE device_id = {first:UInt64}`,
      query_params: { first, others },
    });
    out['fleet.fixes'] = await countPositions(adapters.analytics)(fleet);
    out['fleet.insert_s'] = Math.round((performance.now() - t1) / 100) / 10;
    process.stdout.write(`  stored ${monthFixes.length} + ${out['fleet.fixes']} fixes\n`);
    // the copies are late fixes the writer did not see: marked as the writer marks them
    await touchTrackDays(adapters.analytics)(others, [new Date(START).toISOString().slice(0, 10)]);
    // the stored runs of every day (what ops-api's background look does, REPORT_TRACK_RUNS_S)
    const t2 = performance.now();
    const cpu2 = process.cpuUsage();
    let computed = 0;
    for (let n = 2_000; n >= 2_000; computed += n) n = await computeTrackRuns(adapters.analytics)({ settledMs: 0, limit: 2_000 });
    out['runs.device_days_computed'] = computed;
    out['runs.compute_s'] = Math.round((performance.now() - t2) / 100) / 10;
    out['runs.compute_cpu_s'] = Math.round(cpuMs(process.cpuUsage(cpu2)) / 100) / 10;

    async function timed(
      path: string,
      query: string,
      runs: number,
      accept?: string,
      at = base,
    ): Promise<{ ms: number; firstByteMs: number; bytes: number; body?: string; peakRssMiB: number; cpuMain: number; cpuProcess: number }> {
      const times: number[] = [];
      const mains: number[] = [];
      const processes: number[] = [];
      const firstBytes: number[] = [];
      let bytes = 0;
      let body: string | undefined;
      let peak = 0;
      for (let r = 0; r < runs; r++) {
        const rss0 = process.memoryUsage().rss;
        const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss - rss0)), 20);
        const start = performance.now();
        const main0 = threadCpu();
        const process0 = process.cpuUsage();
        const headers = await asUser(testUsers.officer, TEST_IDENTITY_SECRET); // identity tokens live 60 s
        const res = await request(`${at}/${path}?${query}`, { headers: { ...headers, ...(accept ? { accept } : {}) } });
        bytes = 0;
        const keep = path !== 'route' && !accept;
        const chunks: Buffer[] = [];
        for await (const c of res.body) {
          if (!bytes) firstBytes.push(performance.now() - start);
          bytes += (c as Buffer).length;
          if (keep) chunks.push(c as Buffer);
        }
        times.push(performance.now() - start);
        mains.push(cpuMs(threadCpu(main0)));
        processes.push(cpuMs(process.cpuUsage(process0)));
        clearInterval(sampler);
        if (res.statusCode !== 200) throw new Error(`${path} answered ${res.statusCode}: ${Buffer.concat(chunks).toString()}`);
        if (keep) body = Buffer.concat(chunks).toString();
      }
      const how = at === base ? '' : at === baseBefore ? '(rows) ' : at === baseTrack ? '(track) ' : '(store) ';
      process.stdout.write(`  ${how}${path}?${query.slice(0, 60)}… ${accept ?? ''} ${times.map(Math.round).join(', ')} ms\n`);
      return {
        ms: Math.round(median(times)),
        firstByteMs: Math.round(median(firstBytes)),
        bytes,
        body,
        peakRssMiB: Math.round(peak / 2 ** 20),
        cpuMain: median(mains),
        cpuProcess: median(processes),
      };
    }

    const monthQuery = `deviceId=${month.id}&from=${new Date(START).toISOString()}&to=${new Date(START + 30 * DAY_MS).toISOString()}`;
    if (!MOTION_ONLY) await monthReports();
    async function monthReports() {
      out['month.summary_json_ms'] = (await timed('summary', monthQuery, 3)).ms;
      out['month.summary_daily_json_ms'] = (await timed('summary', `${monthQuery}&daily=true&timezone=Africa/Nairobi`, 3)).ms;
      out['month.trips_xlsx_ms'] = (await timed('trips', `${monthQuery}&format=xlsx`, 3)).ms;
      const route = await timed('route', monthQuery, 1);
      out['month.route_json_ms'] = route.ms;
      out['month.route_json_MiB'] = Math.round((route.bytes / 2 ** 20) * 10) / 10;
      const monthRouteCsv = await timed('route', `${monthQuery}&format=csv`, 1);
      out['month.route_csv_ms'] = monthRouteCsv.ms;
      out['month.route_csv_peak_rss_growth_MiB'] = monthRouteCsv.peakRssMiB;
      out['month.route_xlsx_ms'] = (await timed('route', `${monthQuery}&format=xlsx`, 1)).ms;
    }

    const fleetQuery = `groupId=${group!.id}&from=${new Date(START).toISOString()}&to=${new Date(START + DAY_MS).toISOString()}`;
    const load = load1m;

    /**
     * The report from the stored runs (the default: whole days' runs, the lean track of the rest),
     * from the lean track of every day read from the positions (`_track_`: the default before the
     * stored runs) and from every fix read whole (`_rows_`), alternately (so a change of the
     * machine's load weighs on all): same answer, the ratios of their medians.
     */
    async function beforeAfter(name: string, path: string, query: string, runs: number) {
      const loadBefore = load();
      const afters: Awaited<ReturnType<typeof timed>>[] = [];
      const tracks: Awaited<ReturnType<typeof timed>>[] = [];
      const olds: Awaited<ReturnType<typeof timed>>[] = [];
      for (let r = 0; r < runs; r++) {
        afters.push(await timed(path, query, 1));
        tracks.push(await timed(path, query, 1, undefined, baseTrack));
        olds.push(await timed(path, query, 1, undefined, baseBefore));
      }
      if (tracks.some((x) => x.body !== afters[0]!.body))
        throw new Error(`${name}: the stored runs and the positions' track answer differently`);
      out[`${name}_track_json_ms`] = median(tracks.map((x) => x.ms));
      out[`${name}_track_cpu_ms_main_thread`] = median(tracks.map((x) => x.cpuMain));
      out[`${name}_track_cpu_ms_process`] = median(tracks.map((x) => x.cpuProcess));
      out[`${name}_stored_runs_vs_track`] = Math.round((median(tracks.map((x) => x.ms)) / median(afters.map((x) => x.ms))) * 100) / 100;
      const after = { ...afters[0]!, ms: median(afters.map((x) => x.ms)), peakRssMiB: Math.max(...afters.map((x) => x.peakRssMiB)) };
      // CPU of the report, less bent by the machine's load than its wall time: the main thread's
      // (decoding, the fold, the answer) and the whole process's (chDB's threads added)
      out[`${name}_cpu_ms_main_thread`] = median(afters.map((x) => x.cpuMain));
      out[`${name}_cpu_ms_process`] = median(afters.map((x) => x.cpuProcess));
      out[`${name}_cpu_ms_runs`] = afters.map((x) => `main ${x.cpuMain} of ${x.cpuProcess}`).join('; ');
      const old = { ...olds[0]!, ms: median(olds.map((x) => x.ms)) };
      if (afters.some((x) => x.body !== old.body)) throw new Error(`${name}: the lean track and the whole fixes answer differently`);
      out[`${name}_json_ms`] = after.ms;
      out[`${name}_rows_json_ms`] = old.ms;
      out[`${name}_runs_ms`] =
        `stored runs ${afters.map((x) => x.ms).join(', ')}; track ${tracks.map((x) => x.ms).join(', ')}; every fix ${olds.map((x) => x.ms).join(', ')}`;
      out[`${name}_speedup`] = Math.round((old.ms / after.ms) * 10) / 10;
      out[`${name}_load_average_1m`] = `${loadBefore} -> ${load()}`;
      return after;
    }

    /** Lengths (and speeds divided from them) to 9 digits: the store sums the same haversine legs with its own sin/cos. */
    const comparable = (body: string): string =>
      body.replace(/"(distance|averageSpeed)":(-?[0-9.e+-]+)/g, (_, k: string, v: string) => `"${k}":${Number(Number(v).toPrecision(9))}`);

    /**
     * Older motion model (newLogic=false): computed in the store (window functions, the default there)
     * against the fold over the lean track and the fold over every fix, back to back, same answers.
     */
    async function storeAgainstFolds(name: string, path: string, query: string, runs: number) {
      const loadBefore = load();
      const store = await timed(path, `${query}&newLogic=false`, runs, undefined, baseStored);
      const track = await timed(path, `${query}&newLogic=false`, runs);
      const rows = await timed(path, `${query}&newLogic=false`, runs, undefined, baseBefore);
      if (comparable(store.body!) !== comparable(rows.body!) || comparable(track.body!) !== comparable(rows.body!)) {
        throw new Error(`${name}: the store and the folds answer differently`);
      }
      out[`${name}_old_logic_store_json_ms`] = store.ms;
      out[`${name}_old_logic_track_json_ms`] = track.ms;
      out[`${name}_old_logic_rows_json_ms`] = rows.ms;
      out[`${name}_old_logic_store_vs_rows`] = Math.round((rows.ms / store.ms) * 10) / 10;
      out[`${name}_old_logic_store_vs_track`] = Math.round((track.ms / store.ms) * 10) / 10;
      out[`${name}_old_logic_items`] = (JSON.parse(store.body!) as unknown[]).length;
      out[`${name}_old_logic_load_average_1m`] = `${loadBefore} -> ${load()}`;
      return store;
    }

    /**
     * How much of the trips report is the track read alone (the store's query and the decoding into
     * columns, the still runs shortened as for the default thresholds; no fold, no lookups), alternated
     * with the report: the rest is the fold, the lookups of the items' ends and the answer.
     */
    async function trackShare() {
      const loadBefore = load();
      const span = stillRunSpan(defaultReportSettings().trips);
      const reads: number[] = [];
      const reports: number[] = [];
      let kept = 0;
      for (let r = 0; r < 3; r++) {
        const t = performance.now();
        kept = 0;
        const read = streamTracks(adapters.analytics)({
          deviceIds: fleet,
          from: new Date(START),
          to: new Date(START + DAY_MS),
          stillRunSpan: () => span,
        });
        for await (const chunks of read) for (const c of chunks) kept += c.length;
        reads.push(Math.round(performance.now() - t));
        reports.push((await timed('trips', fleetQuery, 1)).ms);
      }
      out['fleet.track_read_ms'] = median(reads);
      out['fleet.track_read_kept_fixes'] = kept;
      out['fleet.track_read_runs_ms'] = `track read ${reads.join(', ')}; trips report ${reports.join(', ')}`;
      out['fleet.track_read_share_of_trips'] = Math.round((median(reads) / median(reports)) * 100) / 100;
      out['fleet.track_read_load_average_1m'] = `${loadBefore} -> ${load()}`;
    }

    const monthTrips = (JSON.parse((await timed('trips', monthQuery, 1)).body!) as unknown[]).length; // warm-up
    if (monthTrips !== 90) throw new Error(`device-month: expected 90 trips, got ${monthTrips}`);
    await beforeAfter('month.trips', 'trips', monthQuery, 3);
    await beforeAfter('month.stops', 'stops', monthQuery, 3);
    const fleetTrips = await beforeAfter('fleet.trips', 'trips', fleetQuery, 3);
    const fleetTripCount = (JSON.parse(fleetTrips.body!) as unknown[]).length;
    if (fleetTripCount !== 3 * DEVICE_DAYS) throw new Error(`device-days: expected ${3 * DEVICE_DAYS} trips, got ${fleetTripCount}`);
    out['fleet.trips_peak_rss_growth_MiB'] = fleetTrips.peakRssMiB;
    out['fleet.fixes_per_s_trips'] = Math.round((out['fleet.fixes'] as number) / (fleetTrips.ms / 1000));
    await trackShare();
    const fleetStops = await beforeAfter('fleet.stops', 'stops', fleetQuery, 3);
    out['fleet.stops_peak_rss_growth_MiB'] = fleetStops.peakRssMiB;
    out.parts = partsOf(adapters);
    if (MOTION_ONLY) {
      out.note = `REPORTS_BENCH_PART=motion: trips and stops only (the other figures: the full run in history.jsonl); ${adapters.analytics.kind === 'chdb' ? 'CLICKHOUSE_URL not set: embedded analytics (chDB)' : 'ClickHouse'}; devices in ${adapters.db.kind}; HTTP on loopback`;
      return out;
    }
    await timed('trips', `${monthQuery}&newLogic=false`, 1, undefined, baseStored); // warm-up
    await storeAgainstFolds('month.trips', 'trips', monthQuery, 3);
    await storeAgainstFolds('month.stops', 'stops', monthQuery, 3);
    const storeTrips = await storeAgainstFolds('fleet.trips', 'trips', fleetQuery, 3);
    out['fleet.trips_old_logic_store_peak_rss_growth_MiB'] = storeTrips.peakRssMiB;
    await storeAgainstFolds('fleet.stops', 'stops', fleetQuery, 3);
    const fleetSummary = await timed('summary', fleetQuery, 1);
    out['fleet.summary_json_ms'] = fleetSummary.ms;
    out['fleet.summary_peak_rss_growth_MiB'] = fleetSummary.peakRssMiB;
    out['fleet.summary_daily_json_ms'] = (await timed('summary', `${fleetQuery}&daily=true&timezone=Africa/Nairobi`, 1)).ms;
    const fleetRoute = await timed('route', `${fleetQuery}&format=csv`, 1);
    out['fleet.route_csv_ms'] = fleetRoute.ms;
    out['fleet.route_csv_first_byte_ms'] = fleetRoute.firstByteMs;
    out['fleet.route_csv_MiB'] = Math.round((fleetRoute.bytes / 2 ** 20) * 10) / 10;
    out['fleet.route_csv_peak_rss_growth_MiB'] = fleetRoute.peakRssMiB;
    const halfQuery = `${fleet
      .slice(0, DEVICE_DAYS / 2)
      .map((id) => `deviceId=${id}`)
      .join('&')}&from=${new Date(START).toISOString()}&to=${new Date(START + DAY_MS).toISOString()}`;
    const halfRoute = await timed('route', `${halfQuery}&format=csv`, 1);
    out['half_fleet.route_csv_ms'] = halfRoute.ms;
    out['half_fleet.route_csv_MiB'] = Math.round((halfRoute.bytes / 2 ** 20) * 10) / 10;
    out['half_fleet.route_csv_peak_rss_growth_MiB'] = halfRoute.peakRssMiB;
    out.note = `${adapters.analytics.kind === 'chdb' ? 'CLICKHOUSE_URL not set: embedded analytics (chDB: positions read in pages of about 20,000 rows by device, summary summed in pages of about 60,000, old-logic runs computed in pages of about 20,000 fixes by device)' : 'ClickHouse'}; devices in ${adapters.db.kind}; HTTP on loopback, body streamed and discarded`;
    return out;
  } finally {
    await ops.close();
    await before.close();
    await trackOnly.close();
    await stored.close();
    await adapters.close();
  }
}
