import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { createPgliteDb, PGLITE_SHARED_BUFFERS_MB } from '../src/adapters/db-pglite';
import { CHDB_ENGINE_ARGS, createChdbAnalytics } from '../src/adapters/clickhouse-chdb';

/**
 * The embedded stores' memory settings (issue 28): PGlite's shared buffers and chDB's caches are
 * what the stack asks for, on a data directory as `pnpm start` opens them. What they save is
 * measured by `pnpm bench stack-memory`, not here.
 */
const dir = mkdtempSync(join(tmpdir(), 'embedded-memory-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('embedded stores memory settings', () => {
  it('PGlite runs with 16 MiB of shared buffers by default, and with what it is given', async () => {
    expect(PGLITE_SHARED_BUFFERS_MB).toBe(16);
    const db = await createPgliteDb(join(dir, 'pglite'));
    try {
      expect(await db.rows(sql`show shared_buffers`)).toEqual([{ shared_buffers: '16MB' }]);
    } finally {
      await db.close();
    }
    const reopened = await createPgliteDb(join(dir, 'pglite'), { sharedBuffersMb: 32 });
    try {
      expect(await reopened.rows(sql`show shared_buffers`)).toEqual([{ shared_buffers: '32MB' }]);
    } finally {
      await reopened.close();
    }
  }, 180_000); // initdb and two starts of the WASM PostgreSQL on a loaded machine

  it('chDB on a data directory starts its engine with bounded caches', async () => {
    const analytics = await createChdbAnalytics({ path: join(dir, 'chdb'), database: 'corridor' });
    try {
      const rows = await analytics.client
        .query({
          query: `SELECT name, value FROM system.server_settings WHERE name IN ('mark_cache_size', 'primary_index_cache_size', 'index_mark_cache_size', 'query_condition_cache_size') ORDER BY name`,
          format: 'JSONEachRow',
        })
        .then((r) => r.json<{ name: string; value: string }>());
      const asked = Object.fromEntries(CHDB_ENGINE_ARGS.map((a) => /^--(\w+)=(\d+)$/.exec(a)!.slice(1)));
      expect(Object.keys(asked)).toHaveLength(4);
      expect(Object.fromEntries(rows.map((r) => [r.name, r.value]))).toEqual(asked);
      // each at most 64 MiB (a server's default is 5 GiB for the first three)
      for (const v of Object.values(asked)) expect(Number(v)).toBeLessThanOrEqual(64 * 2 ** 20);
    } finally {
      await analytics.close();
    }
  });
});
