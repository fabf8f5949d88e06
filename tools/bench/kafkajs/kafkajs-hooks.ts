/**
 * `node --import ./kafkajs-hooks.ts` (with BENCH_KAFKAJS_DIR set): `kafkajs` resolves to the copy
 * obtain-kafkajs.ts installed outside the workspace, as no package depends on it. The kafkajs
 * child processes of suites/kafka-clients.ts run with it. Benchmarks only.
 */
import { registerHooks } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = process.env.BENCH_KAFKAJS_DIR;
if (!dir) throw new Error('kafkajs-hooks.ts needs BENCH_KAFKAJS_DIR (the folder obtain-kafkajs.ts installed kafkajs in)');
/** A module inside that folder: resolving from it finds its node_modules/kafkajs. */
const inside = pathToFileURL(join(dir, 'package.json')).href;

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === 'kafkajs' || specifier.startsWith('kafkajs/')) return nextResolve(specifier, { ...context, parentURL: inside });
    return nextResolve(specifier, context);
  },
});
