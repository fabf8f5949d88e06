import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { sql, type SQL } from 'drizzle-orm';

/** drizzle over either driver; repositories are written once against this type. */
export type Orm = PgDatabase<PgQueryResultHKT, Record<string, never>>;

export interface Db {
  readonly kind: 'pg' | 'pglite';
  readonly orm: Orm;
  /**
   * A service's drizzle-kit migrations (its own folder, its own bookkeeping table), so each service
   * owns its schema and migrations as DESIGN.md says. With schema changes 'apply' (development,
   * tests, the migrate step, PGlite always) the pending ones are applied; with 'check' (a service
   * on PostgreSQL with NODE_ENV=production) nothing is changed and a schema behind the folder is
   * refused, naming the missing migrations.
   */
  migrate(migrationsFolder: string, service: string): Promise<void>;
  /** Raw rows of a statement (tests, readiness, ad-hoc admin queries). */
  rows<T = Record<string, unknown>>(query: SQL): Promise<T[]>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Who changes a PostgreSQL schema: the process itself ('apply') or only the migrate step ('check'). */
export type SchemaChanges = 'apply' | 'check';

export const migrationsTableFor = (service: string): string => `migrations_${service.replace(/[^a-z0-9]/gi, '_')}`;
export const selectOne = sql`select 1 as ok`;
