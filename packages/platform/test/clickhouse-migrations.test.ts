import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { positionId, type PositionMessage } from '@corridor/contracts';
import type { Analytics } from '../src/adapters/analytics';
import { createChdbAnalytics } from '../src/adapters/clickhouse-chdb';
import { createClickHouseAnalytics } from '../src/adapters/clickhouse';
import { createLogger } from '../src/logger';
import { migrateAnalytics, pendingMigrations } from '../src/clickhouse/migrate';
import { readMigrations, type MigrationFile } from '../src/clickhouse/migration-files';
import { appliedMigrations, MIGRATIONS_TABLE } from '../src/clickhouse/migration-records';
import { countPositions, insertPositions, queryPositionHistory } from '../src/clickhouse/positions';
import { queryEvents } from '../src/clickhouse/events';
import { rawFramesTtlDays } from '../src/clickhouse/raw-frames-ttl';
import { AnalyticsSchemaBehindError, analyticsSchemaState, requireAnalyticsSchema } from '../src/clickhouse/schema-check';
import { realPart } from '../src/testing/real-parts';
import { uniqueName } from './adapter-variants';
import { legacyDdl, mainSingleNodeDdl } from './fixtures/clickhouse-main-schema';

/**
 * The ClickHouse migrations (packages/platform/migrations/clickhouse) applied by migrateAnalytics:
 * in chDB, and on CLICKHOUSE_URL's server when set. Each test has a database of its own.
 */
const files = readMigrations();
/** The tables the files after 0001 and 0002 add (the observatory's facts, 0003, its daily indicators, 0004, and the reports' track runs, 0005), in name order. */
const LATER_TABLES = [
  'obs_distance',
  'obs_distance_daily',
  'obs_legs',
  'obs_legs_daily',
  'obs_stops',
  'obs_stops_daily',
  'obs_visits',
  'obs_visits_daily',
  'track_runs',
  'track_touched',
];
const names = files.map((f) => f.name);
const real = await realPart('clickhouse');
const variants: { name: string; open(database: string): Promise<Analytics> }[] = [
  { name: 'chdb', open: (database) => createChdbAnalytics({ path: ':memory:', database }) },
];
if (real) {
  const u = new URL(real.url);
  variants.push({
    name: 'clickhouse',
    open: (database) =>
      createClickHouseAnalytics({
        url: `${u.protocol}//${u.host}`,
        username: decodeURIComponent(u.username || 'default'),
        password: decodeURIComponent(u.password),
        database,
        createDatabase: true,
      }),
  });
}
const opened: Analytics[] = [];
afterAll(async () => {
  for (const ch of opened) await ch.close();
});

const rows = async <T>(ch: Analytics, query: string): Promise<T[]> => (await ch.client.query({ query, format: 'JSONEachRow' })).json<T>();
const tablesOf = async (ch: Analytics) =>
  rows<{ name: string; uuid: string; create_table_query: string }>(
    ch,
    `SELECT name, toString(uuid) AS uuid, create_table_query FROM system.tables WHERE database = '${ch.database}' ORDER BY name`,
  );
/** Row count and a hash of every row of a table: equal means the same rows, as many times. */
const content = async (ch: Analytics, table: string) =>
  (
    await rows<{ n: string; h: string }>(
      ch,
      `SELECT toString(count()) AS n, toString(sum(cityHash64(*))) AS h FROM ${ch.database}.${table}`,
    )
  )[0];

const at = Date.parse('2026-03-01T10:00:00Z');
const position = (deviceId: number, ms: number): PositionMessage => ({
  id: positionId(deviceId, ms),
  deviceId,
  uniqueId: `dev${deviceId}`,
  protocol: 'osmand',
  fixTime: new Date(ms).toISOString(),
  serverTime: new Date(ms + 500).toISOString(),
  valid: true,
  latitude: -1.29,
  longitude: 36.82,
  speed: 30,
  course: 45,
  altitude: 1650,
  accuracy: 5,
  satellites: 9,
  hdop: 0.9,
  ignition: true,
  odometer: 1000,
  power: 24.1,
  battery: null,
  alarm: null,
  crcValid: true,
  rawFrameId: null,
  attributes: { fuel: 42 },
});
const quiet = createLogger('test', 'silent');

describe.each(variants)('ClickHouse migrations: $name', ({ open }) => {
  const fresh = async (prefix: string) => {
    const ch = await open(uniqueName(prefix));
    opened.push(ch);
    return ch;
  };

  it('from empty: applies every file in order, records each with its checksum, and makes working tables; a second run applies nothing', async () => {
    const ch = await fresh('empty');
    expect(await analyticsSchemaState(ch)).toEqual({ missing: names, ahead: [] });
    expect((await migrateAnalytics(ch)).applied).toEqual(names);
    expect((await appliedMigrations(ch)).map(({ version, name, checksum }) => ({ version, name, checksum }))).toEqual(
      files.map(({ version, name, checksum }) => ({ version, name, checksum })),
    );
    const [{ n }] = (await rows<{ n: string }>(
      ch,
      `SELECT toString(countIf(applied_at > now() - INTERVAL 1 HOUR)) AS n FROM ${ch.database}.${MIGRATIONS_TABLE}`,
    )) as [{ n: string }];
    expect(Number(n)).toBe(files.length);
    const engines = await rows<{ name: string; engine: string }>(
      ch,
      `SELECT name, engine FROM system.tables WHERE database = '${ch.database}' ORDER BY name`,
    );
    expect(engines).toEqual(
      expect.arrayContaining([
        { name: 'events', engine: 'ReplacingMergeTree' },
        { name: 'positions', engine: 'ReplacingMergeTree' },
        { name: 'raw_frames', engine: 'MergeTree' },
      ]),
    );
    await insertPositions(ch)([position(1, at), position(1, at + 1000)]);
    expect(await countPositions(ch)([1])).toBe(2);
    expect(await rawFramesTtlDays(ch)).toBe(30);

    const before = await tablesOf(ch);
    expect((await migrateAnalytics(ch)).applied).toEqual([]);
    expect(await tablesOf(ch)).toEqual(before);
    expect((await appliedMigrations(ch)).map((m) => m.name)).toEqual(names);
    await expect(requireAnalyticsSchema(ch, quiet)).resolves.toBeUndefined();
  });

  it("from main's schema with rows: adopted as it is (the same tables, nothing lost), then the later files applied", async () => {
    const ch = await fresh('main');
    for (const query of mainSingleNodeDdl(ch.database)) await ch.client.command({ query });
    const db = ch.database;
    // four months of positions (and the same fix sent twice: ReplacingMergeTree keeps both rows until a merge), events, today's raw frames
    await ch.client.command({
      query: `INSERT INTO ${db}.positions (id, device_id, unique_id, protocol, fix_time, device_time, server_time, valid, latitude, longitude, speed, course, crc_valid, attributes)
      SELECT ((toUInt64(intDiv(toUnixTimestamp64Milli(t), 1000) - 946684800) * 2) * 1048576 + d), d, concat('dev', toString(d)), 'gt06', t, t, t + toIntervalSecond(1), true, -1.3, 36.8, 20, 90, true, '{}'
      FROM (SELECT 1 + number % 5 AS d, toDateTime64('2026-01-01 00:00:00', 3, 'UTC') + toIntervalMinute(number * 97) AS t FROM numbers(1800))`,
    });
    await ch.client.command({
      query: `INSERT INTO ${db}.positions (id, device_id, unique_id, protocol, fix_time, device_time, server_time, valid, latitude, longitude, speed, course, crc_valid, attributes)
      SELECT id, device_id, unique_id, protocol, fix_time, device_time, server_time + toIntervalSecond(5), valid, latitude, longitude, speed, course, crc_valid, attributes FROM ${db}.positions LIMIT 10`,
    });
    await ch.client.command({
      query: `INSERT INTO ${db}.events (id, type, event_time, device_id, position_id, attributes)
      SELECT concat('e', toString(number)), 'geofenceEnter', toDateTime64('2026-02-01 00:00:00', 3, 'UTC') + toIntervalHour(number), 1 + number % 5, NULL, '{}' FROM numbers(300)`,
    });
    await ch.client.command({
      query: `INSERT INTO ${db}.raw_frames (id, received_at, protocol, transport, device_id, unique_id, remote_address, frame_hex, outcome, error_reason, positions, crc_valid)
      SELECT concat('f', toString(number)), now64(3) - toIntervalMinute(number), 'gt06', 'tcp', 1, 'dev1', '10.0.0.1:5000', '7878', 'position', '', 1, true FROM numbers(200)`,
    });
    const tables = await tablesOf(ch);
    const before = {
      positions: await content(ch, 'positions'),
      events: await content(ch, 'events'),
      raw_frames: await content(ch, 'raw_frames'),
    };
    expect(before.positions?.n).toBe('1810');

    const progress: string[] = [];
    const result = await migrateAnalytics(ch, {
      onProgress: (p) => void progress.push(p.kind === 'partition' ? `${p.name} ${p.source}` : p.kind),
    });
    expect(result.applied).toEqual(names);
    expect(progress).not.toContain('adopted'); // nothing set aside
    // nothing copied but the reports' track runs computed from the positions (0005)
    expect(new Set(progress.filter((p) => p.includes(' ')))).toEqual(new Set(['0005_track_runs positions']));
    expect({
      positions: await content(ch, 'positions'),
      events: await content(ch, 'events'),
      raw_frames: await content(ch, 'raw_frames'),
    }).toEqual(before);
    // the very same tables (same UUIDs, same definitions): 0001 created nothing, and nothing else appeared but the migrations' own tables
    const after = await tablesOf(ch);
    expect(after.filter((t) => tables.some((b) => b.name === t.name))).toEqual(tables);
    expect(after.map((t) => t.name)).toEqual(
      ['events', ...LATER_TABLES, 'positions', 'raw_frames', 'schema_migration_steps', 'schema_migrations'].sort(),
    );
    await expect(requireAnalyticsSchema(ch, quiet)).resolves.toBeUndefined();
    expect(
      await queryPositionHistory(ch)({
        deviceIds: [1],
        from: new Date('2026-01-01T00:00:00Z'),
        to: new Date('2026-01-01T08:05:00Z'),
        limit: 10,
      }),
    ).toHaveLength(2);
  });

  it('from the layouts before numeric ids: the tables are set aside, made anew, and their rows converted', async () => {
    const ch = await fresh('legacy');
    for (const query of legacyDdl(ch.database)) await ch.client.command({ query });
    const t = Date.parse('2026-02-01T08:00:00.250Z');
    const chTime = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
    await ch.client.insert({
      table: `${ch.database}.positions`,
      format: 'JSONEachRow',
      values: [0, 60_000, 40 * 86_400_000].map((dt) => ({
        id: `5-${t + dt}`,
        device_id: 5,
        unique_id: 'dev5',
        protocol: 'gt06',
        fix_time: chTime(t + dt),
        device_time: chTime(t + dt),
        server_time: chTime(t + dt),
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
      values: [
        {
          id: 'g1',
          type: 'geofenceEnter',
          event_time: chTime(t),
          device_id: 5,
          position_id: `5-${t}`,
          journey_id: null,
          geofence_id: '9',
          latitude: -1,
          longitude: 36,
          attributes: '{}',
        },
        {
          id: 'a1',
          type: 'alarm',
          event_time: chTime(t),
          device_id: 5,
          position_id: null,
          journey_id: null,
          geofence_id: null,
          latitude: null,
          longitude: null,
          attributes: '{}',
        },
      ],
    });
    const progress: { kind: string; setAside?: string[]; partition?: string; name?: string }[] = [];
    await migrateAnalytics(ch, { onProgress: (p) => void progress.push(p) });
    expect(progress.find((p) => p.kind === 'adopted')).toEqual({ kind: 'adopted', setAside: ['positions', 'events'] });
    const copied = (file: string) => progress.filter((p) => p.kind === 'partition' && p.name?.startsWith(file)).map((p) => p.partition);
    expect(copied('0002_')).toEqual(['202602', '202603', '202602']);
    // and the converted positions' track runs, from the positions 0002 filled
    expect(copied('0005_')).toEqual(['202602', '202603']);
    const history = await queryPositionHistory(ch)({
      deviceIds: [5],
      from: new Date(t - 1000),
      to: new Date(t + 50 * 86_400_000),
      limit: 10,
    });
    expect(history.map((p) => [p.id, p.fixTime])).toEqual([
      [positionId(5, t), '2026-02-01T08:00:00.000Z'],
      [positionId(5, t + 60_000), '2026-02-01T08:01:00.000Z'],
      [positionId(5, t + 40 * 86_400_000), '2026-03-13T08:00:00.000Z'],
    ]);
    const events = await queryEvents(ch)({ deviceIds: [5], from: new Date(t - 1000), to: new Date(t + 1000), limit: 10 });
    expect(events.map((e) => [e.id, e.positionId])).toEqual([
      ['a1', null],
      ['g1', positionId(5, t)],
    ]);
    expect((await tablesOf(ch)).map((x) => x.name)).toEqual(
      ['events', ...LATER_TABLES, 'positions', 'raw_frames', 'schema_migration_steps', 'schema_migrations'].sort(),
    );
  });

  it('sets raw_frames TTL to RAW_FRAME_TTL_DAYS only when it differs', async () => {
    const ch = await fresh('ttl');
    const ttl: number[] = [];
    const onProgress = (p: { kind: string; days?: number }) => void (p.kind === 'ttl' && ttl.push(p.days!));
    await migrateAnalytics(ch, { rawFrameTtlDays: 30, onProgress });
    await migrateAnalytics(ch, { rawFrameTtlDays: 12, onProgress });
    await migrateAnalytics(ch, { rawFrameTtlDays: 12, onProgress });
    await migrateAnalytics(ch, { onProgress });
    expect(ttl).toEqual([12]);
    expect(await rawFramesTtlDays(ch)).toBe(12);
    await expect(migrateAnalytics(ch, { rawFrameTtlDays: 0 })).rejects.toThrow(RangeError);
  });

  it("a service's check: refuses a schema behind its version naming each missing migration, runs on one ahead", async () => {
    const ch = await fresh('check');
    await expect(requireAnalyticsSchema(ch, quiet)).rejects.toThrow(new AnalyticsSchemaBehindError(ch.database, names));
    await migrateAnalytics(ch, { files: files.slice(0, -1) });
    const behind = requireAnalyticsSchema(ch, quiet);
    await expect(behind).rejects.toBeInstanceOf(AnalyticsSchemaBehindError);
    await expect(behind).rejects.toThrow(`migration ${names.at(-1)} is not applied`);
    await migrateAnalytics(ch);
    await ch.client.command({
      query: `INSERT INTO ${ch.database}.${MIGRATIONS_TABLE} (version, name, checksum, applied_at) VALUES (9999, '9999_from_a_newer_version', 'x', now64(3))`,
    });
    const said: unknown[] = [];
    const logger = createLogger('test', 'info', {});
    logger.info = ((obj: unknown) => void said.push(obj)) as typeof logger.info;
    await expect(requireAnalyticsSchema(ch, logger)).resolves.toBeUndefined();
    expect(said).toEqual([{ ahead: ['9999_from_a_newer_version'] }]);
    expect((await migrateAnalytics(ch)).ahead).toEqual(['9999_from_a_newer_version']);
  });

  it('refuses an applied file that changed, and a file numbered below one already applied', async () => {
    const ch = await fresh('drift');
    const folder = mkdtempSync(join(tmpdir(), 'ch-drift-'));
    try {
      writeFileSync(
        join(folder, '0001_a.sql'),
        'CREATE TABLE IF NOT EXISTS {{db}}.a{{on_cluster}} (x UInt8) ENGINE = {{engine MergeTree}} ORDER BY x;\n',
      );
      writeFileSync(
        join(folder, '0003_c.sql'),
        'CREATE TABLE IF NOT EXISTS {{db}}.c{{on_cluster}} (x UInt8) ENGINE = {{engine MergeTree}} ORDER BY x;\n',
      );
      expect((await migrateAnalytics(ch, { files: readMigrations(folder) })).applied).toEqual(['0001_a', '0003_c']);
      writeFileSync(
        join(folder, '0002_b.sql'),
        'CREATE TABLE IF NOT EXISTS {{db}}.b{{on_cluster}} (x UInt8) ENGINE = {{engine MergeTree}} ORDER BY x;\n',
      );
      await expect(migrateAnalytics(ch, { files: readMigrations(folder) })).rejects.toThrow(
        '0002_b.sql is not applied but 0003_c is: migrations apply in order; renumber it after 0003_c',
      );
      rmSync(join(folder, '0002_b.sql'));
      writeFileSync(
        join(folder, '0001_a.sql'),
        'CREATE TABLE IF NOT EXISTS {{db}}.a{{on_cluster}} (x UInt16) ENGINE = {{engine MergeTree}} ORDER BY x;\n',
      );
      await expect(migrateAnalytics(ch, { files: readMigrations(folder) })).rejects.toThrow(/0001_a\.sql has changed since it was applied/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('which files are pending', () => {
  const file = (version: number, name: string, checksum = 'c'): MigrationFile => ({
    version,
    name: `${String(version).padStart(4, '0')}_${name}`,
    checksum,
    statements: [],
  });
  const applied = (f: MigrationFile) => ({ version: f.version, name: f.name, checksum: f.checksum });

  it("the ones not applied, in order; a newer version's applied migrations are no obstacle", () => {
    const [a, b, c] = [file(1, 'a'), file(2, 'b'), file(3, 'c')];
    expect(pendingMigrations([a, b, c], [])).toEqual([a, b, c]);
    expect(pendingMigrations([a, b, c], [applied(a)])).toEqual([b, c]);
    expect(pendingMigrations([a, b], [applied(a), applied(b), applied(c)])).toEqual([]);
  });

  it('refuses a number applied under another name', () => {
    expect(() => pendingMigrations([file(1, 'a'), file(2, 'x')], [applied(file(1, 'a')), applied(file(2, 'b'))])).toThrow(
      '0002_x.sql: number 2 was applied as 0002_b',
    );
  });

  it('reads names as NNNN_words.sql and refuses others', () => {
    const folder = mkdtempSync(join(tmpdir(), 'ch-names-'));
    try {
      writeFileSync(join(folder, 'README.md'), 'not a migration');
      writeFileSync(join(folder, '0001_ok.sql'), 'SELECT 1;\n');
      expect(readMigrations(folder).map((f) => f.name)).toEqual(['0001_ok']);
      writeFileSync(join(folder, '0001_again.sql'), 'SELECT 1;\n');
      expect(() => readMigrations(folder)).toThrow(/same number/);
      rmSync(join(folder, '0001_again.sql'));
      writeFileSync(join(folder, '2_Bad-Name.sql'), 'SELECT 1;\n');
      expect(() => readMigrations(folder)).toThrow(/NNNN_lower_case_words\.sql/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
