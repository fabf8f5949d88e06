/**
 * The position writer's insert into chDB (issue 28: 16.5 % of the embedded stack's main thread at
 * saturation): packages/platform clickhouse/positions.ts insertPositions, two encodings alternated
 * in one run on one on-disk chDB store with the migrated positions table:
 * - `objects`: a row object per fix (three ISO conversions, the attributes' JSON) through the
 *   client's JSONEachRow encoder, which chDB's connection reads back from a stream into the query;
 * - `compact`: one INSERT text of JSONCompactEachRow rows, a JSON.stringify of an array per fix,
 *   times as integers of milliseconds.
 * BATCH positions per insert (a consumer's batch of one partition), ROUNDS rounds of BATCHES
 * inserts per way, the order swapped every round. Figures: CPU µs per position of the main thread
 * (process.threadCpuUsage: the JavaScript side, what the stack's main thread pays) and of the
 * process (chDB's own threads parsing and writing included), wall µs per position; medians.
 * The fixes are today's (live traffic); `compact_late` inserts fixes of a day long over, for which
 * the writer also marks the reports' stored runs stale (platform clickhouse/track-touched.ts, issue
 * 28): a second statement per insert, what a late batch costs over a live one (`late_over_live`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { positionId, type PositionMessage } from '@corridor/contracts';
import { countPositions, insertPositions, migrateAnalytics, type PositionEncoding } from '@corridor/platform';
import { createChdbAnalytics } from '@corridor/platform/adapters/clickhouse-chdb';
import { load1m } from '../parts';
import { median, round } from '../stats';

const BATCH = Number(process.env.POSITION_WRITER_BATCH ?? 200);
const BATCHES = Number(process.env.POSITION_WRITER_BATCHES ?? 25);
const ROUNDS = Number(process.env.POSITION_WRITER_ROUNDS ?? 8);
/** Live traffic: fixes of today (a minute after midnight on), as trackers send them; `compact_late` sends fixes of a day long over. */
const T0 = Math.floor(Date.now() / 86_400_000) * 86_400_000 + 60_000;
const LATE = Date.UTC(2026, 0, 5, 6, 0, 0) - T0;

/** A GT06 fix as ingest publishes it (normalize.ts: the mirrored attributes, a raw frame id). */
function fix(device: number, s: number, late = false): PositionMessage {
  const t = T0 + s * 1000 + (late ? LATE : 0);
  return {
    id: positionId(device, t),
    deviceId: device,
    uniqueId: String(358_200_000_000_000 + device),
    protocol: 'gt06',
    fixTime: new Date(t).toISOString(),
    deviceTime: new Date(t).toISOString(),
    serverTime: new Date(t + 412).toISOString(),
    valid: true,
    latitude: -1.3 - device / 1000 + s / 1e6,
    longitude: 36.8 + s / 1e5,
    speed: 29.15,
    course: 87,
    altitude: null,
    accuracy: null,
    satellites: 9,
    hdop: null,
    ignition: true,
    odometer: s * 15,
    power: null,
    battery: null,
    alarm: null,
    crcValid: true,
    rawFrameId: `gt06:${device}:${s}`,
    attributes: { sat: 9, ignition: true, motion: true, distance: 15, totalDistance: s * 15, rssi: 4 },
  };
}

interface Way {
  name: string;
  encoding: PositionEncoding;
  late: boolean;
  main: number[];
  process: number[];
  wall: number[];
}

export default async function run(): Promise<Record<string, number | string>> {
  const dir = mkdtempSync(join(tmpdir(), 'corridor-bench-position-writer-'));
  const ch = await createChdbAnalytics({ path: join(dir, 'chdb'), database: 'bench_position_writer' });
  const out: Record<string, number | string> = { load_start: load1m() };
  try {
    await migrateAnalytics(ch);
    const ways: Way[] = [
      { name: 'objects', encoding: 'objects' as const, late: false },
      { name: 'compact', encoding: 'compact' as const, late: false },
      { name: 'compact_late', encoding: 'compact' as const, late: true },
    ].map((w) => ({ ...w, main: [], process: [], wall: [] }));
    let second = 0;
    const batchOf = (late = false): PositionMessage[] => {
      const ps = Array.from({ length: BATCH }, (_, i) => fix(1 + (i % 50), second + Math.floor(i / 50), late));
      second += Math.ceil(BATCH / 50);
      return ps;
    };
    for (const w of ways) for (let b = 0; b < 3; b++) await insertPositions(ch, w.encoding)(batchOf(w.late)); // warm-up
    for (let r = 0; r < ROUNDS; r++) {
      for (const w of r % 2 ? [...ways].reverse() : ways) {
        const insert = insertPositions(ch, w.encoding);
        const batches = Array.from({ length: BATCHES }, () => batchOf(w.late));
        const main = process.threadCpuUsage();
        const all = process.cpuUsage();
        const t = process.hrtime.bigint();
        for (const b of batches) await insert(b);
        const wall = Number(process.hrtime.bigint() - t) / 1000;
        const m = process.threadCpuUsage(main);
        const p = process.cpuUsage(all);
        const n = BATCHES * BATCH;
        w.main.push((m.user + m.system) / n);
        w.process.push((p.user + p.system) / n);
        w.wall.push(wall / n);
      }
    }
    for (const w of ways) {
      out[`${w.name}.main_cpu_us_per_position`] = round(median(w.main));
      out[`${w.name}.process_cpu_us_per_position`] = round(median(w.process));
      out[`${w.name}.wall_us_per_position`] = round(median(w.wall));
    }
    const [objects, compact, late] = ways as [Way, Way, Way];
    out['late_over_live.process_cpu'] = round(median(late.process) / median(compact.process));
    out['late_over_live.wall'] = round(median(late.wall) / median(compact.wall));
    out['compact_over_objects.main_cpu'] = round(median(compact.main) / median(objects.main));
    out['compact_over_objects.process_cpu'] = round(median(compact.process) / median(objects.process));
    out['compact_over_objects.wall'] = round(median(compact.wall) / median(objects.wall));
    out.positions_stored = await countPositions(ch)();
    out.setup = `chDB on disk, migrated positions table; ${ROUNDS} rounds of ${BATCHES} inserts of ${BATCH} GT06 fixes per encoding, alternated, after 3 warm-up inserts each; medians per position`;
  } finally {
    await ch.close();
    rmSync(dir, { recursive: true, force: true });
  }
  out.load_end = load1m();
  return out;
}
