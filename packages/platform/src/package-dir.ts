import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder of the package a module belongs to (the nearest one above it holding a package.json),
 * for files a package carries beside its code (drizzle/, the gateway's console/). A fixed
 * `new URL('../..', import.meta.url)` would differ between the source (src/db/migrate.ts) and the
 * compiled bundle, where that code sits in a chunk directly under dist/.
 */
export function packageDir(moduleUrl: string): string {
  const start = dirname(fileURLToPath(moduleUrl));
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${start}`);
  }
}
