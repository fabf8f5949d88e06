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
    async migrate(migrationsFolder, service) {
      await migrate(orm, { migrationsFolder, migrationsSchema: 'drizzle', migrationsTable: migrationsTableFor(service) });
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
