import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type { SQL } from 'drizzle-orm';
import pg from 'pg';
import type { Db, Orm, SchemaChanges } from './db';
import { migrationsTableFor, selectOne } from './db';
import { pendingPgMigrations, schemaBehindMessage } from './pg-migration-check';

/**
 * PostgreSQL through node-postgres (a pool) and drizzle. `schemaChanges` (default 'apply'): whether
 * migrate() applies a service's pending migrations or only checks that none is pending (a service in
 * production, where the migrate step owns the schema).
 */
export function createPgDb(url: string, opts: { max?: number; schemaChanges?: SchemaChanges } = {}): Db {
  const pool = new pg.Pool({ connectionString: url, max: opts.max ?? 10, connectionTimeoutMillis: 5000, idleTimeoutMillis: 30000 });
  // an idle client error (server restart) must not crash the process; the next query reconnects
  pool.on('error', () => undefined);
  const orm = drizzle(pool);
  return {
    kind: 'pg',
    orm: orm as unknown as Orm,
    /**
     * Applying: under a session advisory lock per service, so that processes applying together (two
     * migrate steps, replicas in development) apply the pending migrations once, one after the
     * other; the ones that waited find nothing left to apply. Checking: no lock, nothing changed.
     */
    async migrate(migrationsFolder, service) {
      if (opts.schemaChanges === 'check') {
        const pending = await pendingPgMigrations(pool, migrationsFolder, service);
        if (pending.length) throw new Error(schemaBehindMessage(service, pending));
        return;
      }
      const lock = await pool.connect();
      try {
        await lock.query('SELECT pg_advisory_lock(hashtext($1))', [`corridor-migrate:${service}`]);
        await migrate(orm, { migrationsFolder, migrationsSchema: 'drizzle', migrationsTable: migrationsTableFor(service) });
      } finally {
        await lock.query('SELECT pg_advisory_unlock(hashtext($1))', [`corridor-migrate:${service}`]).catch(() => undefined);
        lock.release();
      }
    },
    async rows<T>(query: SQL) {
      const res = await orm.execute(query);
      return res.rows as T[];
    },
    async ping() {
      await orm.execute(selectOne);
    },
    async close() {
      await pool.end();
    },
  };
}
