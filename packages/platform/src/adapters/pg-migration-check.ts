import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import { migrationsTableFor } from './db';

interface JournalEntry {
  tag: string;
  when: number;
}

/**
 * The migrations of a drizzle-kit folder that PostgreSQL has not applied, by name, in order.
 * drizzle's migrator applies every migration created after the newest one it recorded
 * (`created_at` in the service's bookkeeping table is the migration's `when` in meta/_journal.json),
 * so "pending" here means exactly what the migrator would apply.
 */
export async function pendingPgMigrations(pool: pg.Pool, migrationsFolder: string, service: string): Promise<string[]> {
  const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: JournalEntry[] };
  // the table name is the service's, reduced to [a-z0-9_] by migrationsTableFor: safe to quote here
  const table = `drizzle."${migrationsTableFor(service)}"`;
  const exists = await pool.query<{ t: string | null }>('select to_regclass($1)::text as t', [table]);
  let newest = -Infinity;
  if (exists.rows[0]?.t) {
    const { rows } = await pool.query<{ m: string | null }>(`select max(created_at)::text as m from ${table}`);
    if (rows[0]?.m != null) newest = Number(rows[0].m);
  }
  return journal.entries.filter((e) => e.when > newest).map((e) => e.tag);
}

/** The refusal of a service whose PostgreSQL schema is behind its version. */
export function schemaBehindMessage(service: string, pending: string[]): string {
  return (
    `The PostgreSQL schema of ${service} is behind this version: migration${pending.length === 1 ? '' : 's'} ${pending.join(', ')} ` +
    `${pending.length === 1 ? 'is' : 'are'} not applied. Run the migrate step first (the corridor-migrate Job, docker compose's ` +
    `migrate-${service} service, or migrate-main --service ${service}; see deploy/README.md). With NODE_ENV=production a service ` +
    'never changes the schema itself (DB_SCHEMA_CHANGES=apply would let it).'
  );
}
