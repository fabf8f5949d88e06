import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgDb, schemaChangesFor, type Db } from '@corridor/platform';
import { realPart } from '@corridor/platform/testing/real-parts';

/**
 * In production the migrate step owns the PostgreSQL schema (the corridor-migrate Job, compose's
 * migrate-<service> containers): a service started with NODE_ENV=production only checks that its
 * migrations are applied, and refuses a schema behind its version naming what is missing, without
 * changing anything. Development, tests and the migrate step itself apply them.
 */
const postgres = await realPart('postgres');
const two = fileURLToPath(new URL('../../packages/platform/test/fixtures/migrations-two', import.meta.url));
const journeyMigrations = fileURLToPath(new URL('../../services/journey/drizzle', import.meta.url));

describe('who changes the PostgreSQL schema', () => {
  it('the service in development and tests, only the migrate step in production, unless DB_SCHEMA_CHANGES says otherwise', () => {
    expect(schemaChangesFor({ NODE_ENV: 'production' })).toBe('check');
    expect(schemaChangesFor({ NODE_ENV: 'development' })).toBe('apply');
    expect(schemaChangesFor({ NODE_ENV: 'test' })).toBe('apply');
    expect(schemaChangesFor({ NODE_ENV: 'production', DB_SCHEMA_CHANGES: 'apply' })).toBe('apply');
    expect(schemaChangesFor({ NODE_ENV: 'development', DB_SCHEMA_CHANGES: 'check' })).toBe('check');
  });
});

if (postgres)
  describe('a service on PostgreSQL whose schema is behind its version (production)', () => {
    const databases: string[] = [];
    const dbs: Db[] = [];
    const admin = async <T>(f: (c: pg.Client) => Promise<T>, url = postgres.url): Promise<T> => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        return await f(c);
      } finally {
        await c.end();
      }
    };
    const freshDatabase = async (): Promise<string> => {
      const name = `schema_check_${Date.now().toString(36)}_${databases.length}`;
      await admin((c) => c.query(`CREATE DATABASE ${name}`));
      databases.push(name);
      const u = new URL(postgres.url);
      u.pathname = `/${name}`;
      return u.toString();
    };
    const open = (url: string, schemaChanges: 'apply' | 'check'): Db => {
      const db = createPgDb(url, { max: 2, schemaChanges });
      dbs.push(db);
      return db;
    };
    /** The names a query returns in its first column, on the database at url. */
    const names = (url: string, query: string): Promise<string[]> =>
      admin(async (c) => (await c.query<{ n: string }>(query)).rows.map((r) => r.n), url);
    const schemas = (url: string) =>
      names(url, "select schema_name as n from information_schema.schemata where schema_name in ('two_test', 'drizzle') order by 1");

    let dir = '';
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'corridor-pg-schema-'));
    });
    afterAll(async () => {
      await Promise.allSettled(dbs.map((d) => d.close()));
      await admin(async (c) => {
        for (const d of databases) await c.query(`DROP DATABASE IF EXISTS ${d} WITH (FORCE)`).catch(() => undefined);
      });
      rmSync(dir, { recursive: true, force: true });
    });

    it('refuses an empty database naming every migration, and creates nothing', async () => {
      const url = await freshDatabase();
      await expect(open(url, 'check').migrate(two, 'two')).rejects.toThrow(
        'The PostgreSQL schema of two is behind this version: migrations 0000_first, 0001_second are not applied. Run the migrate step first',
      );
      expect(await schemas(url)).toEqual([]);
    });

    it('names only the migration the migrate step has not applied yet, and starts once it has', async () => {
      const url = await freshDatabase();
      // the previous version's folder: the first migration only
      const previous = join(dir, 'previous');
      cpSync(two, previous, { recursive: true });
      rmSync(join(previous, '0001_second.sql'));
      const journal = JSON.parse(readFileSync(join(previous, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] };
      writeFileSync(join(previous, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries: journal.entries.slice(0, 1) }));
      await open(url, 'apply').migrate(previous, 'two');

      const service = open(url, 'check');
      await expect(service.migrate(two, 'two')).rejects.toThrow('migration 0001_second is not applied');
      const columns = () =>
        names(url, "select column_name as n from information_schema.columns where table_schema = 'two_test' order by 1");
      expect(await columns()).toEqual(['id', 'name']);

      await open(url, 'apply').migrate(two, 'two'); // the migrate step of the new version
      await expect(service.migrate(two, 'two')).resolves.toBeUndefined();
      expect(await columns()).toEqual(['id', 'name', 'note']);
    });

    it("a service process (journey's main.ts, NODE_ENV=production) exits at start with the message naming its migrations", async () => {
      const url = await freshDatabase();
      const journal = JSON.parse(readFileSync(join(journeyMigrations, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] };
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', fileURLToPath(new URL('../../services/journey/src/main.ts', import.meta.url))],
        {
          env: {
            PATH: process.env.PATH,
            NODE_ENV: 'production',
            LOG_LEVEL: 'info',
            HOST: '127.0.0.1',
            PORT: '0',
            DATA_DIR: join(dir, 'journey-data'),
            DATABASE_URL: url,
            INTERNAL_TOKEN_SECRET: 'a-test-secret-for-this-process-only-0123456789',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      const code = await new Promise<number | null>((ok) => child.on('exit', ok));
      expect(code, output).toBe(1);
      const fatal = output
        .split('\n')
        .filter((l) => l.includes('"level":60'))
        .map((l) => JSON.parse(l) as { msg: string; err?: { message: string } });
      expect(fatal, output).toHaveLength(1);
      expect(fatal[0]!.err?.message).toContain(
        `The PostgreSQL schema of journey is behind this version: migrations ${journal.entries.map((e) => e.tag).join(', ')} are not applied.`,
      );
      expect(await schemas(url)).toEqual([]);
    }, 120_000);
  });
// without PostgreSQL (never in CI, where realPart fails instead) the file keeps the one test above
