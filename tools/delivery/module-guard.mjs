// `node --import <this file> …`: checks every module the process loads, ES module or require()d.
// A TypeScript file is refused (its import throws, so a service that needs one fails to start),
// and with MODULE_GUARD_LOG set, the URL of each file loaded is appended to that file, one a line.
// Plain JavaScript on purpose: it guards processes that run without tsx. The staging script
// (tools/delivery/stage.ts) and the production-layout test use it on the compiled services.
import { appendFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const log = process.env.MODULE_GUARD_LOG;

registerHooks({
  load(url, context, nextLoad) {
    if (url.startsWith('file:')) {
      if (/\.[cm]?tsx?$/.test(new URL(url).pathname)) throw new Error(`module guard: a TypeScript file was to be loaded: ${url}`);
      if (log) appendFileSync(log, `${url}\n`);
    }
    return nextLoad(url, context);
  },
});
