import type { Analytics } from '../adapters/analytics';
import { onCluster, replicatedEngine, type Placement } from './migration-render';

/**
 * The migrations table (every file applied: number, name, checksum, when) and the steps table (each
 * partition a data migration has finished). On a cluster each is one replica set spanning every node
 * (no {shard} in its Keeper path), so whichever node a service asks reads the same.
 */
export const MIGRATIONS_TABLE = 'schema_migrations';
export const STEPS_TABLE = 'schema_migration_steps';

const engine = (p: Placement): string =>
  p.cluster ? replicatedEngine('MergeTree', "'/clickhouse/tables/all/{database}/{table}'", "'{shard}-{replica}'") : 'MergeTree';

/** The two tables (IF NOT EXISTS): the migrate step makes them before anything else. */
export function recordsDdl(p: Placement): string[] {
  return [
    `CREATE TABLE IF NOT EXISTS ${p.database}.${MIGRATIONS_TABLE}${onCluster(p)} (
  version UInt32,
  name String,
  checksum String,
  applied_at DateTime64(3, 'UTC')
) ENGINE = ${engine(p)}
ORDER BY version`,
    `CREATE TABLE IF NOT EXISTS ${p.database}.${STEPS_TABLE}${onCluster(p)} (
  migration String,
  step String,
  done_at DateTime64(3, 'UTC')
) ENGINE = ${engine(p)}
ORDER BY (migration, step)`,
  ];
}

export interface AppliedMigration {
  version: number;
  name: string;
  checksum: string;
}

/** ClickHouse's codes for a table or database that does not exist. */
const MISSING = new Set(['60', '81']);
const isMissing = (err: unknown): boolean => MISSING.has(String((err as { code?: unknown }).code));

/** The migrations applied, in order; none when the database or the table does not exist yet. */
export async function appliedMigrations(ch: Analytics): Promise<AppliedMigration[]> {
  try {
    const rs = await ch.client.query({
      query: `SELECT version, name, any(checksum) AS checksum FROM ${ch.database}.${MIGRATIONS_TABLE} GROUP BY version, name ORDER BY version`,
      format: 'JSONEachRow',
    });
    return (await rs.json<{ version: number | string; name: string; checksum: string }>()).map((r) => ({
      ...r,
      version: Number(r.version),
    }));
  } catch (err) {
    if (isMissing(err)) return [];
    throw err;
  }
}

export async function recordApplied(ch: Analytics, m: AppliedMigration): Promise<void> {
  await ch.client.command({
    query: `INSERT INTO ${ch.database}.${MIGRATIONS_TABLE} (version, name, checksum, applied_at) VALUES ({version:UInt32}, {name:String}, {checksum:String}, now64(3))`,
    query_params: { ...m },
  });
}

/** The steps of a data migration already done. */
export async function stepsDone(ch: Analytics, migration: string): Promise<Set<string>> {
  const rs = await ch.client.query({
    query: `SELECT DISTINCT step FROM ${ch.database}.${STEPS_TABLE} WHERE migration = {migration:String}`,
    query_params: { migration },
    format: 'JSONEachRow',
  });
  return new Set((await rs.json<{ step: string }>()).map((r) => r.step));
}

export async function recordStep(ch: Analytics, migration: string, step: string): Promise<void> {
  await ch.client.command({
    query: `INSERT INTO ${ch.database}.${STEPS_TABLE} (migration, step, done_at) VALUES ({migration:String}, {step:String}, now64(3))`,
    query_params: { migration, step },
  });
}
