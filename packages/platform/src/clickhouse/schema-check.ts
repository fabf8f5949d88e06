import type { Analytics } from '../adapters/analytics';
import type { Logger } from '../logger';
import { readMigrations, type MigrationFile } from './migration-files';
import { appliedMigrations } from './migration-records';

export interface SchemaState {
  /** Migrations of this version not applied to the database, in order. */
  missing: string[];
  /** Applied migrations this version does not know: a newer version ran the migrate step. */
  ahead: string[];
}

/** How the analytics database stands against the migrations this code ships. */
export async function analyticsSchemaState(ch: Analytics, files: MigrationFile[] = readMigrations()): Promise<SchemaState> {
  const applied = await appliedMigrations(ch);
  const done = new Set(applied.map((a) => a.name));
  const known = new Set(files.map((f) => f.name));
  return {
    missing: files.filter((f) => !done.has(f.name)).map((f) => f.name),
    ahead: applied.filter((a) => !known.has(a.name)).map((a) => a.name),
  };
}

export class AnalyticsSchemaBehindError extends Error {
  constructor(
    readonly database: string,
    readonly missing: string[],
  ) {
    super(
      `The ClickHouse database ${database} is behind this version: ${missing.length === 1 ? 'migration' : 'migrations'} ${missing.join(', ')} ` +
        `${missing.length === 1 ? 'is' : 'are'} not applied. Run the migrate step first (the corridor-migrate Job, docker compose's migrate service, ` +
        'or migrate-main --clickhouse; see deploy/README.md). Services never change the schema themselves.',
    );
    this.name = 'AnalyticsSchemaBehindError';
  }
}

/**
 * A service's check at start: the analytics schema must have every migration this version ships,
 * else the service refuses to start, naming the missing ones. A schema AHEAD of this version is
 * fine: during a rollout the migrate step runs first and the pods of the previous version keep
 * running (and restarting) on it, which is why a migration never breaks the version before it.
 */
export async function requireAnalyticsSchema(ch: Analytics, logger: Logger, files?: MigrationFile[]): Promise<void> {
  const state = await analyticsSchemaState(ch, files);
  if (state.missing.length) throw new AnalyticsSchemaBehindError(ch.database, state.missing);
  if (state.ahead.length)
    logger.info(
      { ahead: state.ahead },
      'the ClickHouse schema has migrations this version does not know (a newer version was migrated): running on it',
    );
}
