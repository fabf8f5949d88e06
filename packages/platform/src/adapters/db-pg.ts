import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type { SQL } from 'drizzle-orm';
import pg from 'pg';
import type { Db, Orm } from './db';
import { migrationsTableFor, selectOne } from './db';

/** PostgreSQL through node-postgres (a pool) and drizzle. */
export function createPgDb(url: string, opts: { max?: number } = {}): Db {
  const pool = new pg.Pool({ connectionString: url, max: opts.max ?? 10, connectionTimeoutMillis: 5000, idleTimeoutMillis: 30000 });
  // an idle client error (server restart) must not crash the process; the next query reconnects
  pool.on('error', () => undefined);
  const orm = drizzle(pool);
  return {
    kind: 'pg',
    orm: orm as unknown as Orm,
    /**
     * Under a session advisory lock per service: instances starting together (replicas, a
     * migration Job racing a rollout) apply the pending migrations once, one after the other; the
     * ones that waited find nothing left to apply.
     */
    async migrate(migrationsFolder, service) {
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
