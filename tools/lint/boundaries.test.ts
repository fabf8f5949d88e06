import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * `pnpm lint:boundaries` (dependency-cruiser with the repository's .dependency-cruiser.cjs) over a
 * small tree laid out as the repository is: planted imports across the boundaries fail it, each
 * under its rule; the imports the boundaries allow pass.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);
const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

async function tree(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'boundaries-'));
  dirs.push(dir);
  for (const [path, text] of Object.entries({ 'tsconfig.json': '{}', ...files })) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

async function violations(dir: string): Promise<{ rule: string; from: string; to: string }[]> {
  const args = ['services', 'packages', 'apps/console/src', '--config', join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'json'];
  const out = await run(join(ROOT, 'node_modules/.bin/depcruise'), args, { cwd: dir }).catch((err: { stdout: string }) => err);
  const result = JSON.parse(out.stdout) as { summary: { violations: Violation[] } };
  return result.summary.violations
    .map((v) => ({ rule: v.rule.name, from: v.from, to: v.to }))
    .sort((a, b) => a.from.localeCompare(b.from) || a.to.localeCompare(b.to));
}

const library = {
  'packages/platform/src/clock.ts': 'export const now = (): number => 1;\n',
  'packages/contracts/src/trip.ts': 'export interface Trip { id: number }\n',
  'services/journey/src/trips.ts': 'export const trips = 1;\n',
  'services/ingest/src/config.ts': 'export const port = 5055;\n',
  'tools/stack/stack.ts': 'export const stack = 1;\n',
};

describe('the import-boundary check', () => {
  it('refuses a service importing another service, the console importing a service, platform importing a service', async () => {
    const dir = await tree({
      ...library,
      'services/geofence/src/planted.ts':
        "export { trips } from '../../journey/src/trips';\nexport { stack } from '../../../tools/stack/stack';\n",
      'services/gateway/src/planted.ts': "export { build } from '@corridor/ingest';\n",
      'apps/console/src/planted.ts':
        "export { port } from '../../../services/ingest/src/config';\nexport { now } from '../../../packages/platform/src/clock';\n",
      'packages/platform/src/planted.ts': "export { port } from '../../../services/ingest/src/config';\n",
    });
    expect(await violations(dir)).toEqual([
      { rule: 'console-imports-a-service', from: 'apps/console/src/planted.ts', to: 'packages/platform/src/clock.ts' },
      { rule: 'console-imports-a-service', from: 'apps/console/src/planted.ts', to: 'services/ingest/src/config.ts' },
      { rule: 'package-imports-a-service', from: 'packages/platform/src/planted.ts', to: 'services/ingest/src/config.ts' },
      // an undeclared workspace package does not resolve (a declared one resolves to its files: the rule above)
      { rule: 'import-that-does-not-resolve', from: 'services/gateway/src/planted.ts', to: '@corridor/ingest' },
      { rule: 'service-imports-another-service', from: 'services/geofence/src/planted.ts', to: 'services/journey/src/trips.ts' },
      { rule: 'service-imports-tools-or-an-app', from: 'services/geofence/src/planted.ts', to: 'tools/stack/stack.ts' },
    ]);
  });

  it('lets a service use its own files, platform and the contract, and the console the contract', async () => {
    const dir = await tree({
      ...library,
      'services/journey/src/uses.ts':
        "export { now } from '../../../packages/platform/src/clock';\nexport type { Trip } from '../../../packages/contracts/src/trip';\nexport { trips } from './trips';\n",
      'apps/console/src/uses.ts': "export type { Trip } from '../../../packages/contracts/src/trip';\n",
      'packages/platform/src/uses.ts': "export type { Trip } from '../../contracts/src/trip';\n",
    });
    expect(await violations(dir)).toEqual([]);
  });
});
