import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'tsdown';

/** The workspace packages that run in production, in dependency order (each is built with its own). */
export const PRODUCTION_PACKAGES = [
  'packages/contracts',
  'packages/geodata',
  'packages/platform',
  'services/gateway',
  'services/ingest',
  'services/journey',
  'services/geofence',
  'services/ops-api',
] as const;

/** Files at the top of a package's src/ that a process starts from (`node dist/<name>.js`). */
const PROCESSES = ['main.ts', 'migrate-main.ts'];

type ExportTarget = string | { compiled?: string; default?: string };

/**
 * What a package compiles, read from the package itself so the list cannot drift from it:
 * - every entry point of package.json "exports" that has a `compiled` condition (its `default`
 *   source file becomes that dist file);
 * - its processes: `src/main.ts` (a service) and `src/migrate-main.ts` (platform's migrate step).
 * Entry points without a `compiled` condition (tests' helpers, tools' access to internals) are
 * sources only: production never resolves them.
 */
export function entriesOf(dir: string): Record<string, string> {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { exports?: Record<string, ExportTarget> };
  const entries: Record<string, string> = {};
  for (const [name, target] of Object.entries(pkg.exports ?? {})) {
    if (typeof target === 'string' || !target.compiled) continue;
    const out = /^\.\/dist\/(.+)\.js$/.exec(target.compiled)?.[1];
    const source = target.default;
    if (!out || !source || !/^\.\/src\/.+\.ts$/.test(source)) {
      throw new Error(`${dir}: export ${name} must map compiled to ./dist/<path>.js and default to ./src/<path>.ts`);
    }
    entries[out] = join(dir, source);
  }
  const src = join(dir, 'src');
  for (const file of existsSync(src) ? readdirSync(src) : []) {
    if (PROCESSES.includes(file)) entries[file.slice(0, -3)] = join(src, file);
  }
  return entries;
}

/**
 * Compiles one package to `<dir>/dist` with tsdown (rolldown): ES modules for Node 24, one file per
 * entry plus shared chunks (a module is loaded once whichever entries import it; dynamic imports,
 * such as platform's lazy chDB adapter, stay separate chunks). Nothing from node_modules is
 * bundled, workspace packages included: they are imported at run time through their own
 * `compiled` entry points, from the production node_modules that `pnpm deploy --prod` writes.
 */
export async function buildPackage(dir: string): Promise<void> {
  await build({
    cwd: dir,
    entry: entriesOf(dir),
    outDir: join(dir, 'dist'),
    format: 'esm',
    platform: 'node',
    target: 'node24',
    fixedExtension: false,
    dts: false,
    clean: true,
    sourcemap: false,
    deps: { neverBundle: true },
    logLevel: 'warn',
    config: false,
  });
}
