import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { entriesOf, PRODUCTION_PACKAGES } from '../build/build-package';

/**
 * The workspace packages' entry points (package.json "exports"): named one by one, sources by
 * default, and dist/ under the `compiled` condition for what production imports (see
 * docs/design-changes.md, "Delivery"). Read from the files, so it fails on a wildcard export, an
 * import of a name no package exports, or production code reaching an entry that has no compiled
 * form (it would fail only in the image).
 */
const REPO = fileURLToPath(new URL('../..', import.meta.url));
const PACKAGES: Record<string, string> = Object.fromEntries(
  [...PRODUCTION_PACKAGES, 'apps/console', 'tools'].map((dir) => [
    JSON.parse(readFileSync(join(REPO, dir, 'package.json'), 'utf8')).name as string,
    dir,
  ]),
);
type Target = string | { compiled?: string; default?: string };
const exportsOf = (name: string): Record<string, Target> =>
  JSON.parse(readFileSync(join(REPO, PACKAGES[name]!, 'package.json'), 'utf8')).exports ?? {};

const sources = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '*.ts', '*.tsx', '*.mjs'], { cwd: REPO, encoding: 'utf8' })
  .split('\n')
  .filter((f) => f && existsSync(join(REPO, f)));
const IMPORT = /(?:from|import\()\s*['"](@corridor\/[a-z-]+)(\/[A-Za-z0-9/_.-]+)?['"]/g;
const imports = sources.flatMap((file) =>
  [...readFileSync(join(REPO, file), 'utf8').matchAll(IMPORT)].map((m) => ({ file, name: m[1]!, entry: `.${m[2] ?? ''}` })),
);
/** Code that runs in production: the sources of the compiled packages, less tests and test helpers. */
const production = (file: string) =>
  PRODUCTION_PACKAGES.some((dir) => file.startsWith(`${dir}/src/`)) && !/\.test\.tsx?$/.test(file) && !file.includes('/testing/');

describe('package entry points', () => {
  it('are named, never a wildcard over the code', () => {
    for (const name of Object.keys(PACKAGES)) {
      for (const [key, target] of Object.entries(exportsOf(name))) {
        const file = typeof target === 'string' ? target : target.default;
        if (key.includes('*')) expect(file, `${name} ${key}`).toMatch(/^\.\/data\//);
      }
    }
  });

  it('cover every import of a workspace package', () => {
    const missing = imports
      .filter((i) => PACKAGES[i.name] && !(i.entry in exportsOf(i.name)))
      .map((i) => `${i.file}: ${i.name}${i.entry.slice(1)}`);
    expect(missing).toEqual([]);
  });

  it('that production code imports have a compiled form, and production code imports no service', () => {
    const wrong = imports
      .filter((i) => production(i.file))
      .filter(
        (i) =>
          i.name.startsWith('@corridor/') &&
          (PACKAGES[i.name]?.startsWith('services/') ||
            typeof exportsOf(i.name)[i.entry] !== 'object' ||
            !(exportsOf(i.name)[i.entry] as { compiled?: string }).compiled),
      )
      .map((i) => `${i.file}: ${i.name}${i.entry.slice(1)}`);
    expect(wrong).toEqual([]);
  });

  it('compile each source entry to the same path under dist/', () => {
    for (const dir of PRODUCTION_PACKAGES) {
      const entries = entriesOf(join(REPO, dir));
      expect(Object.keys(entries).length, dir).toBeGreaterThan(0);
      for (const [out, source] of Object.entries(entries)) {
        expect(existsSync(source), `${dir}: ${source}`).toBe(true);
        expect(source.slice(join(REPO, dir, 'src').length + 1, -'.ts'.length), dir).toBe(out);
      }
    }
  });
});
