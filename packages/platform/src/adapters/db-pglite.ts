import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import type { SQL } from 'drizzle-orm';
import { mkdirSync } from 'node:fs';
import type { Db, Orm } from './db';
import { migrationsTableFor, selectOne } from './db';

/**
 * PGlite: real PostgreSQL compiled to WASM, in process. `dataDir` persists it (under .data/);
 * undefined keeps it in memory (tests). One instance serves every service of the process.
 */
export async function createPgliteDb(dataDir?: string): Promise<Db> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const client = dataDir ? new PGlite(dataDir) : new PGlite();
  await client.waitReady;
  const orm = drizzle(client);
  // migrations of several services must not interleave on the one connection
  let chain: Promise<void> = Promise.resolve();
  return {
    kind: 'pglite',
    orm: orm as unknown as Orm,
    migrate(migrationsFolder, service) {
      const run = chain.then(() =>
        migrate(orm, { migrationsFolder, migrationsSchema: 'drizzle', migrationsTable: migrationsTableFor(service) }),
      );
      chain = run.catch(() => undefined);
      return run;
    },
    async rows<T>(query: SQL) {
      const res = await orm.execute(query);
      return res.rows as T[];
    },
    async ping() {
      await orm.execute(selectOne);
    },
    async close() {
      await client.close();
    },
  };
}
