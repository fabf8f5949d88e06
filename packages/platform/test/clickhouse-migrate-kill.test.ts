import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { positionId } from '@corridor/contracts';
import type { Analytics } from '../src/adapters/analytics';
import { createClickHouseAnalytics } from '../src/adapters/clickhouse';
import { migrateAnalytics } from '../src/clickhouse/migrate';
import { readMigrations } from '../src/clickhouse/migration-files';
import { appliedMigrations, stepsDone } from '../src/clickhouse/migration-records';
import { rawFramesTtlDays } from '../src/clickhouse/raw-frames-ttl';
import { startChdbHttp, type ChdbHttpServer } from '../src/testing/chdb-http';
import { eventually } from '../src/testing/eventually';
import { realPart } from '../src/testing/real-parts';
import { uniqueName } from './adapter-variants';
import { legacyDdl } from './fixtures/clickhouse-main-schema';

/**
 * The migrate step as a process of its own, stopped by SIGKILL in the middle of a data migration
 * and run again. The processes share one ClickHouse through HTTP: CLICKHOUSE_URL's server when
 * set, else chDB behind its HTTP front in this process (testing/chdb-http.ts).
 */
const real = await realPart('clickhouse');
let server: ChdbHttpServer | undefined;
let url = '';
const opened: Analytics[] = [];
beforeAll(async () => {
  if (!real) server = await startChdbHttp({ path: ':memory:' });
  url = real?.url ?? server!.url;
});
afterAll(async () => {
  await Promise.allSettled(opened.map((ch) => ch.close()));
  await server?.close();
});

async function open(database: string): Promise<Analytics> {
  const u = new URL(url);
  const ch = await createClickHouseAnalytics({
    url: `${u.protocol}//${u.host}`,
    username: decodeURIComponent(u.username || 'default'),
    password: decodeURIComponent(u.password),
    database,
    createDatabase: true,
  });
  opened.push(ch);
  return ch;
}

const rows = async <T>(ch: Analytics, query: string): Promise<T[]> => (await ch.client.query({ query, format: 'JSONEachRow' })).json<T>();

/** Rows per partition of a table, and a hash of all its rows (equal hashes: the same rows, as many times). */
async function contents(ch: Analytics, table: string, columns: string): Promise<{ perPartition: Record<string, number>; hash: string }> {
  const parts = await rows<{ p: string; n: string | number }>(
    ch,
    `SELECT _partition_id AS p, count() AS n FROM ${ch.database}.${table} GROUP BY p ORDER BY p`,
  );
  const [h] = await rows<{ h: string }>(ch, `SELECT toString(sum(cityHash64(${columns}))) AS h FROM ${ch.database}.${table}`);
  return { perPartition: Object.fromEntries(parts.map((r) => [r.p, Number(r.n)])), hash: h!.h };
}

const childScript = fileURLToPath(new URL('./fixtures/clickhouse-migrate-child.ts', import.meta.url));
const migrateMain = fileURLToPath(new URL('../src/migrate-main.ts', import.meta.url));

/** A child process; its stdout lines as they come, and its exit. */
function start(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { lines: [] as string[], stderr: '' };
  let buffered = '';
  child.stdout.on('data', (d: Buffer) => {
    buffered += d.toString();
    const parts = buffered.split('\n');
    buffered = parts.pop()!;
    out.lines.push(...parts);
  });
  child.stderr.on('data', (d: Buffer) => (out.stderr += d.toString()));
  const exited = new Promise<number | null>((ok) => child.on('exit', (code) => ok(code)));
  return { child, out, exited };
}

/** A data migration of its own (copy readings_old into readings, month by month) into a plain MergeTree, where a row copied twice would stay twice. */
const folder = mkdtempSync(join(tmpdir(), 'ch-migrations-'));
writeFileSync(
  join(folder, '0001_readings.sql'),
  `CREATE TABLE IF NOT EXISTS {{db}}.{{local readings}}{{on_cluster}} (t DateTime('UTC'), device UInt32, v UInt32)
ENGINE = {{engine MergeTree}} PARTITION BY toYYYYMM(t) ORDER BY (device, t);
`,
);
writeFileSync(
  join(folder, '0002_copy_readings.sql'),
  `-- every reading of readings_old, month by month
{{each_partition readings_old into readings}}
INSERT INTO {{db}}.readings (t, device, v) SELECT t, device, v FROM {{db}}.readings_old WHERE _partition_id = {partition:String};
`,
);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('a migrate step killed in the middle of a data migration, then run again', () => {
  it('resumes at the partition it had copied but not recorded; every row is there exactly once', async () => {
    const ch = await open(uniqueName('kill'));
    await ch.client.command({
      query: `CREATE TABLE ${ch.database}.readings_old (t DateTime('UTC'), device UInt32, v UInt32) ENGINE = MergeTree PARTITION BY toYYYYMM(t) ORDER BY (device, t)`,
    });
    await ch.client.command({
      query: `INSERT INTO ${ch.database}.readings_old SELECT toDateTime('2026-01-01 00:00:00', 'UTC') + toIntervalHour(number * 5), number % 7, number FROM numbers(840)`,
    });
    const source = await contents(ch, 'readings_old', 't, device, v');
    const months = Object.keys(source.perPartition);
    expect(months).toHaveLength(6);

    const run = start([childScript], { CH_URL: url, CH_DATABASE: ch.database, CH_MIGRATIONS: folder, STOP_AT: '3' });
    const stopped = await eventually(
      'the migrate step to stop after copying its third partition',
      () => run.out.lines.find((l) => l.startsWith('stopped')) ?? (run.out.stderr.includes('Error') ? run.out.stderr : undefined),
      90_000,
    );
    expect(stopped).toBe(`stopped readings_old ${months[2]}`);
    // half way: two partitions recorded, the third copied and not recorded
    expect([...(await stepsDone(ch, '0002_copy_readings'))].sort()).toEqual([`readings_old ${months[0]}`, `readings_old ${months[1]}`]);
    expect(Object.keys((await contents(ch, 'readings', 't, device, v')).perPartition)).toEqual(months.slice(0, 3));
    expect((await appliedMigrations(ch)).map((m) => m.name)).toEqual(['0001_readings']);
    run.child.kill('SIGKILL');
    expect(await run.exited).toBeNull();

    const copied: string[] = [];
    const result = await migrateAnalytics(ch, {
      files: readMigrations(folder),
      onProgress: (p) => void (p.kind === 'partition' && copied.push(p.partition)),
    });
    expect(result.applied).toEqual(['0002_copy_readings']);
    expect(copied).toEqual(months.slice(2)); // the unrecorded third partition again, then the rest; never the first two
    expect(await contents(ch, 'readings', 't, device, v')).toEqual(source);
    expect((await appliedMigrations(ch)).map((m) => m.name)).toEqual(['0001_readings', '0002_copy_readings']);
    expect((await migrateAnalytics(ch, { files: readMigrations(folder) })).applied).toEqual([]);
    expect(await contents(ch, 'readings', 't, device, v')).toEqual(source);
  }, 180_000);

  it('0002 (rows from before numeric ids) killed half way through positions finishes on the next run with every position converted once', async () => {
    const ch = await open(uniqueName('kill_legacy'));
    for (const query of legacyDdl(ch.database)) await ch.client.command({ query });
    const t0 = Date.parse('2026-01-10T08:00:00.250Z');
    const fixes = Array.from({ length: 120 }, (_, i) => ({ device: 1 + (i % 3), ms: t0 + Math.floor(i / 3) * 3 * 86_400_000 })); // 40 per device over four months
    const chTime = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
    await ch.client.insert({
      table: `${ch.database}.positions`,
      format: 'JSONEachRow',
      values: fixes.map((f) => ({
        id: `${f.device}-${f.ms}`,
        device_id: f.device,
        unique_id: `dev${f.device}`,
        protocol: 'gt06',
        fix_time: chTime(f.ms),
        device_time: chTime(f.ms),
        server_time: chTime(f.ms),
        valid: true,
        latitude: -1,
        longitude: 36,
        speed: 0,
        course: 0,
        altitude: null,
        accuracy: null,
        satellites: null,
        hdop: null,
        ignition: null,
        odometer: null,
        power: null,
        battery: null,
        alarm: null,
        crc_valid: true,
        raw_frame_id: null,
        attributes: '{}',
      })),
    });
    await ch.client.insert({
      table: `${ch.database}.events`,
      format: 'JSONEachRow',
      values: fixes.slice(0, 10).map((f, i) => ({
        id: `e${i}`,
        type: 'geofenceEnter',
        event_time: chTime(f.ms),
        device_id: f.device,
        position_id: `${f.device}-${f.ms}`,
        journey_id: null,
        geofence_id: '9',
        latitude: -1,
        longitude: 36,
        attributes: '{}',
      })),
    });

    const run = start([childScript], { CH_URL: url, CH_DATABASE: ch.database, STOP_AT: '2' });
    const stopped = await eventually(
      'the migrate step to stop after its second partition of positions',
      () => run.out.lines.find((l) => l.startsWith('stopped')) ?? (run.out.stderr.includes('Error') ? run.out.stderr : undefined),
      90_000,
    );
    expect(stopped).toBe('stopped positions_before_0001 202602');
    run.child.kill('SIGKILL');
    await run.exited;
    expect((await appliedMigrations(ch)).map((m) => m.name)).toEqual(['0001_baseline']);

    await migrateAnalytics(ch);
    const ids = await rows<{ id: string }>(ch, `SELECT toString(id) AS id FROM ${ch.database}.positions ORDER BY id`);
    expect(ids.map((r) => Number(r.id))).toEqual(fixes.map((f) => positionId(f.device, f.ms)).sort((a, b) => a - b)); // each once, without FINAL
    const events = await rows<{ id: string; position_id: string }>(
      ch,
      `SELECT id, toString(position_id) AS position_id FROM ${ch.database}.events FINAL ORDER BY id`,
    );
    expect(events).toEqual(
      fixes
        .slice(0, 10)
        .map((f, i) => ({ id: `e${i}`, position_id: String(positionId(f.device, f.ms)) }))
        .sort((a, b) => a.id.localeCompare(b.id)),
    );
    const leftovers = await rows<{ name: string }>(
      ch,
      `SELECT name FROM system.tables WHERE database = '${ch.database}' AND name LIKE '%before%'`,
    );
    expect(leftovers).toEqual([]);
  }, 180_000);
});

describe('the migrate command (migrate-main --clickhouse, as the Job and compose run it)', () => {
  it('creates the database, applies every migration and the raw frames TTL, and finds nothing to do the second time', async () => {
    const database = uniqueName('cli');
    const env = { CLICKHOUSE_URL: url, CLICKHOUSE_DATABASE: database, RAW_FRAME_TTL_DAYS: '9', LOG_LEVEL: 'info' };
    const first = start([migrateMain, '--clickhouse'], env);
    expect(await first.exited, first.out.stderr + first.out.lines.join('\n')).toBe(0);
    const said = first.out.lines.map((l) => (JSON.parse(l) as { msg: string }).msg);
    expect(said).toEqual(expect.arrayContaining(readMigrations().map((f) => `applied ${f.name}`)));
    expect(said).toContain('raw_frames TTL set to 9 days');
    const ch = await open(database);
    expect((await appliedMigrations(ch)).map((m) => m.name)).toEqual(readMigrations().map((f) => f.name));
    expect(await rawFramesTtlDays(ch)).toBe(9);

    const second = start([migrateMain, '--clickhouse'], env);
    expect(await second.exited).toBe(0);
    expect(second.out.lines.map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual([`ClickHouse ${database}: up to date`]);
  }, 180_000);
});
