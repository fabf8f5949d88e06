import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageDir } from '../package-dir';

/** One numbered file of the ClickHouse migrations: `0002_rows_before_numeric_ids.sql`. */
export interface MigrationFile {
  /** The number: 2. */
  version: number;
  /** The file name without `.sql`: what the migrations table records. */
  name: string;
  /** sha256 of the file's text (line endings as LF), hex. */
  checksum: string;
  /** The statements as written (placeholders not rendered), comment lines left out, in order. */
  statements: string[];
}

/** packages/platform/migrations/clickhouse (found from the source or from the compiled bundle alike, whose chunks sit directly under dist/). */
export const migrationsFolder = (): string => join(packageDir(import.meta.url), 'migrations', 'clickhouse');

const FILE_NAME = /^(\d{4})_([a-z0-9]+(?:_[a-z0-9]+)*)\.sql$/;

/**
 * Splits a file into statements: each ends with `;` at the end of a line. Whole-line `--` comments
 * are dropped (so a statement's markers, `{{cluster_only}}` and `{{each_partition …}}`, come first).
 */
export function splitStatements(text: string): string[] {
  const lines = text.split('\n').filter((line) => !/^\s*--/.test(line));
  const statements: string[] = [];
  let current: string[] = [];
  for (const line of lines) {
    current.push(line);
    if (/;\s*$/.test(line)) {
      statements.push(current.join('\n').replace(/;\s*$/, '').trim());
      current = [];
    }
  }
  const rest = current.join('\n').trim();
  if (rest) throw new Error(`a statement does not end with ';' at the end of a line: ${rest.slice(0, 80)}`);
  return statements.filter(Boolean);
}

/** The migrations of a folder in order; refuses names that are not `NNNN_words.sql` and numbers used twice. */
export function readMigrations(folder: string = migrationsFolder()): MigrationFile[] {
  const files: MigrationFile[] = [];
  if (!existsSync(folder))
    throw new Error(
      `the ClickHouse migrations are missing: no folder ${folder} (packages/platform/migrations/clickhouse ships with @corridor/platform)`,
    );
  for (const entry of readdirSync(folder).sort()) {
    if (!entry.endsWith('.sql')) continue;
    const m = FILE_NAME.exec(entry);
    if (!m) throw new Error(`${entry}: a ClickHouse migration is named NNNN_lower_case_words.sql`);
    const text = readFileSync(join(folder, entry), 'utf8').replace(/\r\n/g, '\n');
    const version = Number(m[1]);
    const same = files.find((f) => f.version === version);
    if (same) throw new Error(`${entry} and ${same.name}.sql have the same number`);
    files.push({
      version,
      name: entry.slice(0, -'.sql'.length),
      checksum: createHash('sha256').update(text).digest('hex'),
      statements: splitStatements(text),
    });
  }
  return files;
}
