import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { readMigrations } from '../src/clickhouse/migration-files';

/**
 * The migrations ship with @corridor/platform: images get the package as `pnpm deploy` lays it out,
 * which keeps the files `pnpm pack` would (the package.json "files" field, when there is one, must
 * list the migrations folder). Without them the migrate Job has nothing to apply and every service
 * refuses to start.
 */
const platform = fileURLToPath(new URL('..', import.meta.url));

describe('the ClickHouse migrations in the package', () => {
  it('are among the files the package ships', async () => {
    const { stdout } = await promisify(execFile)('pnpm', ['pack', '--dry-run', '--json'], { cwd: platform });
    const packed = (JSON.parse(stdout) as { files: { path: string }[] }).files.map((f) => f.path);
    const migrations = readMigrations().map((f) => `migrations/clickhouse/${f.name}.sql`);
    expect(migrations.length).toBeGreaterThan(0);
    expect(packed).toEqual(expect.arrayContaining(migrations));
  }, 60_000);
});
