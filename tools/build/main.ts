import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildPackage, PRODUCTION_PACKAGES } from './build-package';

/**
 * `pnpm build`: compiles what runs in production to each package's dist/ (after `pnpm typecheck`,
 * which the script runs first: the build artefact is type-checked). `pnpm build:js [dir...]`
 * compiles without the type check, all the production packages or the ones named.
 */
const REPO = join(import.meta.dirname, '..', '..');
const { positionals } = parseArgs({ allowPositionals: true });
const targets = positionals.length ? positionals : [...PRODUCTION_PACKAGES];
const unknown = targets.filter((t) => !(PRODUCTION_PACKAGES as readonly string[]).includes(t));
if (unknown.length) throw new Error(`not a production package: ${unknown.join(', ')} (one of ${PRODUCTION_PACKAGES.join(', ')})`);
const started = performance.now();
for (const dir of PRODUCTION_PACKAGES.filter((p) => targets.includes(p))) await buildPackage(join(REPO, dir));
process.stdout.write(`built ${targets.join(', ')} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
