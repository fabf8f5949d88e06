import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const appDir = join(root, 'apps/console');
export const consoleDist = join(appDir, 'dist');
const STAMP = '.build-inputs';

/** What the console build reads: its sources and config, and the contracts and geodata it imports. */
const INPUTS = [
  'apps/console/src',
  'apps/console/index.html',
  'apps/console/vite.config.ts',
  'apps/console/vite-precompress.ts',
  'apps/console/package.json',
  'packages/contracts/src',
  'packages/geodata/src',
  'pnpm-lock.yaml',
];

function files(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .filter((n) => !n.endsWith('.test.ts') && !n.endsWith('.test.tsx'))
    .sort()
    .flatMap((n) => files(join(path, n)));
}

/** A hash of every input file's path and content. */
export function consoleInputsHash(): string {
  const h = createHash('sha256');
  for (const f of INPUTS.flatMap((p) => files(join(root, p))))
    h.update(relative(root, f)).update('\0').update(readFileSync(f)).update('\0');
  return h.digest('hex');
}

/** True when dist/ exists and was built from the current inputs. */
export function consoleBuildIsCurrent(hash = consoleInputsHash()): boolean {
  const stamp = join(consoleDist, STAMP);
  return existsSync(join(consoleDist, 'index.html')) && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === hash;
}

/**
 * Builds apps/console with Vite unless dist/ is current (`pnpm install` and `pnpm start` call
 * this; a current build costs one hash of the inputs, ~0.1 s). Resolves with what it did and how long it took.
 */
export async function ensureConsoleBuilt(log: (line: string) => void = () => undefined): Promise<{ built: boolean; seconds: number }> {
  const started = performance.now();
  const hash = consoleInputsHash();
  if (consoleBuildIsCurrent(hash)) return { built: false, seconds: (performance.now() - started) / 1000 };
  log('building the console (apps/console)…');
  const vite = join(appDir, 'node_modules/vite/bin/vite.js');
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: appDir, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`console build failed (vite exit ${code})`))));
  });
  writeFileSync(join(consoleDist, STAMP), hash + '\n');
  const seconds = (performance.now() - started) / 1000;
  log(`console built in ${seconds.toFixed(1)} s`);
  return { built: true, seconds };
}

// `tsx tools/stack/console-build.ts` (the root postinstall): build when needed
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  ensureConsoleBuilt((l) => process.stdout.write(l + '\n')).catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  });
}
