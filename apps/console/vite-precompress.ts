import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { promisify } from 'node:util';
import type { Plugin } from 'vite';

const br = promisify(brotliCompress);
const gz = promisify(gzip);
const COMPRESSIBLE = /\.(m?js|css|json|svg|html)$/;

/**
 * Writes .br and .gz beside every compressible asset after the build, so the gateway serves them
 * pre-compressed (@fastify/static preCompressed) without compressing per request.
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'corridor-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async closeBundle() {
      const dir = join(outDir, 'assets');
      for (const name of await readdir(dir)) {
        const file = join(dir, name);
        if (!COMPRESSIBLE.test(name) || (await stat(file)).size < 1024) continue;
        const data = await readFile(file);
        await writeFile(`${file}.br`, await br(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }));
        await writeFile(`${file}.gz`, await gz(data, { level: 9 }));
      }
    },
  };
}
