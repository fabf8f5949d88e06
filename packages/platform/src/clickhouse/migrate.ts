import type { Analytics } from '../adapters/analytics';
import { setAsideOldLayouts } from './migration-adoption';
import { readMigrations, type MigrationFile } from './migration-files';
import { appliedMigrations, recordApplied, recordsDdl, recordStep, stepsDone, type AppliedMigration } from './migration-records';
import { onCluster, renderStatement } from './migration-render';
import { applyRawFramesTtl } from './raw-frames-ttl';

/** What the migrate step reports as it goes (awaited: the migrate command logs it). */
export type MigrationProgress =
  | { kind: 'adopted'; setAside: string[] }
  | { kind: 'applying'; name: string }
  /** One partition copied (and not yet recorded: a stop here redoes it). */
  | { kind: 'partition'; name: string; source: string; partition: string; done: number; of: number }
  | { kind: 'applied'; name: string; ms: number }
  | { kind: 'ttl'; days: number };

export interface MigrateOptions {
  /** The migrations (default: the files of migrations/clickhouse). */
  files?: MigrationFile[];
  /** RAW_FRAME_TTL_DAYS: raw_frames' TTL is set to it when it differs; unset leaves the TTL as it is. */
  rawFrameTtlDays?: number | undefined;
  onProgress?: (p: MigrationProgress) => void | Promise<void>;
}

export interface MigrateResult {
  /** The files applied by this run, in order. */
  applied: string[];
  /** Applied migrations this code does not know (a newer version migrated the database). */
  ahead: string[];
}

/**
 * The files still to apply, after checking what was applied against them: an applied file must be
 * unchanged (same checksum), and files apply in order (a file numbered below one already applied
 * is refused: it was added after a later one and must be renumbered).
 */
export function pendingMigrations(files: MigrationFile[], applied: AppliedMigration[]): MigrationFile[] {
  for (const a of applied) {
    const file = files.find((f) => f.version === a.version);
    if (!file) continue; // a newer version's migration
    if (file.name !== a.name)
      throw new Error(`${file.name}.sql: number ${a.version} was applied as ${a.name}; give this file the next free number`);
    if (file.checksum !== a.checksum) {
      throw new Error(
        `${file.name}.sql has changed since it was applied (checksum ${a.checksum.slice(0, 12)}, now ${file.checksum.slice(0, 12)}): an applied migration never changes; put the change in a new file`,
      );
    }
  }
  const done = new Set(applied.map((a) => a.name));
  const pending = files.filter((f) => !done.has(f.name));
  const last = applied.at(-1);
  const early = last && pending.find((f) => f.version < last.version);
  if (early)
    throw new Error(`${early.name}.sql is not applied but ${last.name} is: migrations apply in order; renumber it after ${last.name}`);
  return pending;
}

/** The partitions of a table (its storage table on every node of a cluster), in order. */
async function partitionsOf(ch: Analytics, table: string): Promise<string[]> {
  const parts = ch.cluster ? `clusterAllReplicas(${ch.cluster}, system.parts)` : 'system.parts';
  const rs = await ch.client.query({
    query: `SELECT DISTINCT partition_id FROM ${parts} WHERE database = {db:String} AND table = {table:String} AND active ORDER BY partition_id`,
    query_params: { db: ch.database, table: ch.cluster ? `${table}_local` : table },
    format: 'JSONEachRow',
  });
  return (await rs.json<{ partition_id: string }>()).map((r) => r.partition_id);
}

/**
 * A data migration's statement, partition by partition of its source: the target's partition is
 * emptied (what a stopped run copied of it), the statement copies the source's, and the partition
 * is recorded; partitions recorded by an earlier run are skipped. A source that does not exist has
 * no partitions.
 */
async function eachPartition(
  ch: Analytics,
  file: MigrationFile,
  s: { source: string; target: string; sql: string },
  progress: NonNullable<MigrateOptions['onProgress']>,
): Promise<void> {
  const done = await stepsDone(ch, file.name);
  const partitions = await partitionsOf(ch, s.source);
  const target = `${ch.database}.${ch.cluster ? `${s.target}_local` : s.target}`;
  for (const [i, partition] of partitions.entries()) {
    const step = `${s.source} ${partition}`;
    if (done.has(step)) continue;
    await ch.client.command({
      query: `ALTER TABLE ${target}${onCluster(ch)} DROP PARTITION ID {partition:String}`,
      query_params: { partition },
    });
    await ch.client.command({ query: s.sql, query_params: { partition } });
    await progress({ kind: 'partition', name: file.name, source: s.source, partition, done: i + 1, of: partitions.length });
    await recordStep(ch, file.name, step);
  }
}

/**
 * The migrate step: applies the migration files not yet applied to the analytics database, in
 * order, recording each in schema_migrations; then applies RAW_FRAME_TTL_DAYS. A stopped run is
 * resumed by running it again: a file's statements are each safe to run twice (IF NOT EXISTS, IF
 * EXISTS) and a data migration skips the partitions it recorded. One migrate step at a time (the
 * Kubernetes Job, compose's migrate service, or the process that owns an embedded store).
 */
export async function migrateAnalytics(ch: Analytics, opts: MigrateOptions = {}): Promise<MigrateResult> {
  const files = opts.files ?? readMigrations();
  const progress = opts.onProgress ?? (() => undefined);
  for (const query of recordsDdl(ch)) await ch.client.command({ query });
  const applied = await appliedMigrations(ch);
  const pending = pendingMigrations(files, applied);
  for (const file of pending) {
    const started = Date.now();
    await progress({ kind: 'applying', name: file.name });
    if (file.version === 1) {
      const setAside = await setAsideOldLayouts(ch);
      if (setAside.length) await progress({ kind: 'adopted', setAside });
    }
    for (const statement of file.statements) {
      const s = renderStatement(statement, ch);
      if (s?.kind === 'sql') await ch.client.command({ query: s.sql });
      else if (s?.kind === 'each_partition') await eachPartition(ch, file, s, progress);
    }
    await recordApplied(ch, { version: file.version, name: file.name, checksum: file.checksum });
    await progress({ kind: 'applied', name: file.name, ms: Date.now() - started });
  }
  if (opts.rawFrameTtlDays !== undefined && (await applyRawFramesTtl(ch, opts.rawFrameTtlDays)))
    await progress({ kind: 'ttl', days: opts.rawFrameTtlDays });
  const known = new Set(files.map((f) => f.name));
  return { applied: pending.map((f) => f.name), ahead: applied.filter((a) => !known.has(a.name)).map((a) => a.name) };
}
