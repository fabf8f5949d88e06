import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import type { SQL } from 'drizzle-orm';
import { mkdirSync } from 'node:fs';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db, Orm } from './db';
import { migrationsTableFor, selectOne } from './db';

/** PGlite's shared buffers unless told otherwise (PGLITE_SHARED_BUFFERS_MB): see createPgliteDb. */
export const PGLITE_SHARED_BUFFERS_MB = 16;

/**
 * PGlite: real PostgreSQL compiled to WASM, in process. `dataDir` persists it (under .data/);
 * undefined keeps it in memory (tests). One instance serves every service of the process.
 *
 * Its shared buffers are 16 MiB, not initdb's 128 MiB: they live in the WASM memory, which never
 * shrinks, and the embedded stack's tables are a few MiB (the history is in chDB), while the
 * pages PGlite reads from its data directory stay in the kernel's page cache anyway. Measured
 * (issue 28, docs/design-changes.md): 100-115 MiB less RSS, fresh or reopened.
 */
export async function createPgliteDb(dataDir?: string, opts: { sharedBuffersMb?: number } = {}): Promise<Db> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const startParams = [...PGlite.defaultStartParams, '-c', `shared_buffers=${opts.sharedBuffersMb ?? PGLITE_SHARED_BUFFERS_MB}MB`];
  const client = dataDir ? new PGlite(dataDir, { startParams }) : new PGlite({ startParams });
  await client.waitReady;
  guardAgainstSelfDeadlock(client);
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

/**
 * PGlite is one connection: while a transaction is open every other query waits for it. A query
 * made on the root handle (not `tx`) from inside the transaction's own callback therefore waits
 * for itself forever; on a pg pool the same code works (on a second connection, outside the
 * transaction). Such a query is refused at once, naming the mistake, instead of hanging.
 * Concurrent requests are unaffected: only the transaction's own async context is refused.
 */
function guardAgainstSelfDeadlock(client: PGlite): void {
  // the store outlives the transaction in work it started and left running: `open` tells them apart
  const insideTransaction = new AsyncLocalStorage<{ open: boolean }>();
  const refuse = (what: string) => {
    if (insideTransaction.getStore()?.open) {
      throw new Error(
        `${what} on the root database handle inside a transaction would wait for that transaction forever (PGlite has one connection): pass the transaction handle (tx) instead`,
      );
    }
  };
  const query = client.query.bind(client);
  const exec = client.exec.bind(client);
  const transaction = client.transaction.bind(client);
  client.query = ((...args: Parameters<PGlite['query']>) => {
    refuse('a query');
    return query(...args);
  }) as PGlite['query'];
  client.exec = ((...args: Parameters<PGlite['exec']>) => {
    refuse('a statement');
    return exec(...args);
  }) as PGlite['exec'];
  client.transaction = ((callback: Parameters<PGlite['transaction']>[0]) => {
    refuse('a transaction');
    return transaction((tx) => {
      const state = { open: true };
      return insideTransaction
        .run(state, () => callback(tx))
        .finally(() => {
          state.open = false;
        });
    });
  }) as PGlite['transaction'];
}
