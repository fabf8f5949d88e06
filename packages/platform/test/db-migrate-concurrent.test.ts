import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createPgDb } from '../src/adapters/db-pg';
import type { Db } from '../src/adapters/db';
import { realPart } from '../src/testing/real-parts';
import { uniqueName } from './adapter-variants';

/**
 * Instances of one service starting together (replicas of a rollout, the migration Job racing
 * them) each run the service's migrations: on PostgreSQL they take turns under an advisory lock,
 * so the plain CREATE statements drizzle-kit generates run once and no instance fails to start.
 */
const postgres = await realPart('postgres');
const plain = fileURLToPath(new URL('./fixtures/migrations-plain', import.meta.url));

if (postgres)
  describe('PostgreSQL migrations started by several instances at once', () => {
    const database = uniqueName('migrate');
    let url = '';
    const dbs: Db[] = [];

    beforeAll(async () => {
      const admin = new pg.Client({ connectionString: postgres!.url });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${database}`);
      await admin.end();
      const u = new URL(postgres!.url);
      u.pathname = `/${database}`;
      url = u.toString();
    });

    afterAll(async () => {
      await Promise.allSettled(dbs.map((d) => d.close()));
      const admin = new pg.Client({ connectionString: postgres!.url });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => undefined);
      await admin.end();
    });

    it('apply them once, every instance succeeding', async () => {
      for (let i = 0; i < 4; i++) dbs.push(createPgDb(url, { max: 3 }));
      await Promise.all(dbs.map((d) => d.migrate(plain, 'plain')));
      const applied = await dbs[0]!.rows<{ n: string }>(sql`select count(*) as n from drizzle.migrations_plain`);
      expect(Number(applied[0]?.n)).toBe(1);
      const tables = await dbs[0]!.rows<{ n: string }>(
        sql`select count(*) as n from information_schema.tables where table_schema = 'plain_test'`,
      );
      expect(Number(tables[0]?.n)).toBe(1);
    });
  });

// without PostgreSQL (never in CI, where realPart fails instead) the file still holds one honest test
else {
  describe('PostgreSQL migrations (no PostgreSQL here)', () => {
    it('run only where DATABASE_URL names a server', () => {
      expect(postgres).toBeUndefined();
    });
  });
}
