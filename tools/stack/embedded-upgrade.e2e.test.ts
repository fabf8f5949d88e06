import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Device, Position } from '@corridor/contracts';
import { appliedMigrations, countPositions, createLogger, readMigrations, type Analytics } from '@corridor/platform';
import { createChdbAnalytics } from '@corridor/platform/adapters/clickhouse-chdb';
import { eventually } from '@corridor/platform/testing/eventually';
import { mainSingleNodeDdl } from '../../packages/platform/test/fixtures/clickhouse-main-schema';
import { embeddedStackConfig } from './embedded-stack-config';
import { startStack, type RunningStack } from './stack';

/**
 * `pnpm start` on the embedded default: over a data folder from before versioned migrations (its
 * chDB holds main's tables, created from a frozen copy of main's DDL, with rows in them), the stack
 * applies the migrations as it opens the store, adopts those tables as they are, and its services
 * serve the old rows and store new ones; on an empty database of the same folder it applies them
 * all. (One chDB data folder per process: this file has its own.)
 */
const dataDir = mkdtempSync(join(tmpdir(), 'corridor-upgrade-'));
const ADMIN = 'Basic ' + Buffer.from('admin@corridor.local:corridor-admin').toString('base64');
let stack: RunningStack | undefined;
let before: { positions: number; events: number; rawFrames: number };

/** Rows of a table from before the upgrade (their ids or unique ids begin with `old`, and the new ones' never do). */
const count = async (ch: Analytics, table: string, where: string): Promise<number> =>
  Number(
    (
      await (
        await ch.client.query({ query: `SELECT count() AS n FROM ${ch.database}.${table} WHERE ${where}`, format: 'JSONEachRow' })
      ).json<{ n: string }>()
    )[0]?.n,
  );
const OLD = { positions: "startsWith(unique_id, 'old')", events: "startsWith(id, 'old')", raw_frames: "startsWith(unique_id, 'old')" };

beforeAll(async () => {
  // the data folder as main left it: its tables, with a month of positions of devices 1-5, events and raw frames
  const old = await createChdbAnalytics({ path: join(dataDir, 'chdb'), database: 'corridor' });
  for (const query of mainSingleNodeDdl('corridor')) await old.client.command({ query });
  await old.client.command({
    query: `INSERT INTO corridor.positions (id, device_id, unique_id, protocol, fix_time, device_time, server_time, valid, latitude, longitude, speed, course, crc_valid, attributes)
    SELECT ((toUInt64(intDiv(toUnixTimestamp64Milli(t), 1000) - 946684800) * 2) * 1048576 + d), d, concat('old', toString(d)), 'osmand', t, t, t, true, -3.9, 39.6, 10, 0, true, '{}'
    FROM (SELECT 1 + number % 5 AS d, toDateTime64('2026-10-01 00:00:00', 3, 'UTC') + toIntervalMinute(number * 7) AS t FROM numbers(5000))`,
  });
  await old.client.command({
    query: `INSERT INTO corridor.events (id, type, event_time, device_id, attributes)
    SELECT concat('old', toString(number)), 'deviceMoving', toDateTime64('2026-10-02 00:00:00', 3, 'UTC') + toIntervalMinute(number), 1 + number % 5, '{}' FROM numbers(100)`,
  });
  await old.client.command({
    query: `INSERT INTO corridor.raw_frames (id, received_at, protocol, transport, device_id, unique_id, remote_address, frame_hex, outcome, error_reason, positions, crc_valid)
    SELECT concat('f', toString(number)), now64(3) - toIntervalMinute(number), 'gt06', 'tcp', 1, 'old1', '10.0.0.1:5000', '7878', 'position', '', 1, true FROM numbers(50)`,
  });
  before = {
    positions: await count(old, 'positions', 'true'),
    events: await count(old, 'events', 'true'),
    rawFrames: await count(old, 'raw_frames', 'true'),
  };
  expect(before).toEqual({ positions: 5000, events: 100, rawFrames: 50 });
  await old.close();

  stack = await startEmbedded('corridor');
}, 180_000);

/** `pnpm start` on the embedded parts, on every port any free one, with one simulated truck, its ClickHouse database named. */
function startEmbedded(database: string): Promise<RunningStack> {
  const config = embeddedStackConfig({
    DATA_DIR: dataDir,
    CLICKHOUSE_DATABASE: database,
    SIM_PROTOCOLS: 'osmand',
    SIM_TRUCKS: '1',
    SIM_INTERVAL_MS: '500',
    DEMO: 'false',
  });
  return startStack(config, { loggerFor: (name) => createLogger(name, 'error') });
}

afterAll(async () => {
  await stack?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the embedded stack (pnpm start)', () => {
  it('on a data folder from before versioned migrations: applied every migration as it opened the store, kept every old row, and serves them', async () => {
    const ch = stack!.adapters.analytics;
    expect(ch.kind).toBe('chdb');
    expect((await appliedMigrations(ch)).map((m) => m.name)).toEqual(readMigrations().map((f) => f.name));
    expect({
      positions: await count(ch, 'positions', OLD.positions),
      events: await count(ch, 'events', OLD.events),
      rawFrames: await count(ch, 'raw_frames', OLD.raw_frames),
    }).toEqual(before);

    // the simulated truck is a registered device of the old rows' ids: its October history is the old rows
    const devices = (await (await fetch(`${stack!.urls.gateway}/api/devices`, { headers: { authorization: ADMIN } })).json()) as Device[];
    const truck = devices.find((d) => d.uniqueId === stack!.simulated.uniqueIds[0])!;
    expect(truck.id).toBeLessThanOrEqual(5);
    const res = await fetch(`${stack!.urls.gateway}/api/positions?deviceId=${truck.id}&from=2026-10-01T00:00:00Z&to=2026-10-02T00:00:00Z`, {
      headers: { authorization: ADMIN },
    });
    expect(res.status).toBe(200);
    const history = (await res.json()) as Position[];
    expect(history.length).toBeGreaterThan(0);
    // the API's Position has no uniqueId (Traccar's): the old rows are told by their day, before this run
    expect(history.every((p) => p.deviceId === truck.id && p.fixTime.startsWith('2026-10-01'))).toBe(true);

    // and it stores what the truck sends now, beside them
    await eventually(
      'a new position of the simulated truck in the store',
      async () => (await countPositions(ch)([truck.id])) > before.positions / 5,
      60_000,
    );
    expect(await count(ch, 'positions', OLD.positions)).toBe(before.positions);
  }, 120_000);

  it('on an empty ClickHouse database: applies every migration and stores what the truck sends', async () => {
    await stack?.close();
    stack = undefined;
    stack = await startEmbedded('corridor_fresh');
    const ch = stack.adapters.analytics;
    expect(ch.database).toBe('corridor_fresh');
    expect((await appliedMigrations(ch)).map((m) => m.name)).toEqual(readMigrations().map((f) => f.name));
    const devices = (await (await fetch(`${stack.urls.gateway}/api/devices`, { headers: { authorization: ADMIN } })).json()) as Device[];
    const truck = devices.find((d) => d.uniqueId === stack!.simulated.uniqueIds[0])!;
    await eventually(
      'a position of the simulated truck in the new database',
      async () => (await countPositions(ch)([truck.id])) > 0,
      60_000,
    );
  }, 240_000);
});
