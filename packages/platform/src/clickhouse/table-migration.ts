import type { Analytics } from '../adapters/analytics';

export interface TableMigration {
  /** The table as it must be. */
  table: string;
  /** CREATE TABLE IF NOT EXISTS statements of the new layout (table-layout.ts). */
  ddl: string[];
  /** True when the existing table (under `table`) has the old layout. */
  isLegacy(ch: Analytics): Promise<boolean>;
  /** INSERT INTO <table> (...) SELECT ... FROM <from>: the old rows in the new layout. */
  copy(from: string): string;
}

/** The type of a column of a table of the analytics database, or undefined without that table or column. */
export async function columnType(ch: Analytics, table: string, column: string): Promise<string | undefined> {
  const rs = await ch.client.query({
    query: 'SELECT type FROM system.columns WHERE database = {db:String} AND table = {table:String} AND name = {column:String}',
    query_params: { db: ch.database, table, column },
    format: 'JSONEachRow',
  });
  return (await rs.json<{ type: string }>())[0]?.type;
}

async function tablesLike(ch: Analytics, prefix: string): Promise<string[]> {
  const rs = await ch.client.query({
    query: 'SELECT name FROM system.tables WHERE database = {db:String} AND startsWith(name, {prefix:String})',
    query_params: { db: ch.database, prefix },
    format: 'JSONEachRow',
  });
  return (await rs.json<{ name: string }>()).map((r) => r.name);
}

const STALE_CLAIM_MS = 3600_000;

async function renamed(ch: Analytics, from: string, to: string): Promise<boolean> {
  try {
    await ch.client.command({ query: `RENAME TABLE ${ch.database}.${from} TO ${ch.database}.${to}` });
    return true;
  } catch {
    return false; // another process renamed it first (or it is gone): not ours to migrate
  }
}

/**
 * Brings a table to its new layout, safe when several services (or instances) start at once:
 * the old table is renamed aside (RENAME is atomic: one process wins), the new one created, and
 * each aside table is claimed by a second rename before its rows are copied over and it is dropped.
 * A process that stops half way leaves an aside table that the next start copies (a claim older
 * than an hour is taken over; the tables migrated here collapse repeated rows, so copying twice is harmless).
 */
export async function migrateTable(ch: Analytics, m: TableMigration): Promise<void> {
  const aside = `${m.table}_legacy`;
  if (await m.isLegacy(ch)) await renamed(ch, m.table, `${aside}_${Date.now()}`);
  for (const query of m.ddl) await ch.client.command({ query });
  for (const name of await tablesLike(ch, `${aside}_`)) {
    const claimedAt = /_claimed_(\d+)_/.exec(name);
    if (claimedAt && Number(claimedAt[1]) > Date.now() - STALE_CLAIM_MS) continue; // another process is copying it
    const claimed = `${aside}_claimed_${Date.now()}_${Math.floor(Math.random() * 1e9)}`;
    if (!(await renamed(ch, name, claimed))) continue;
    await ch.client.command({ query: m.copy(`${ch.database}.${claimed}`) });
    await ch.client.command({ query: `DROP TABLE ${ch.database}.${claimed}` });
  }
}
