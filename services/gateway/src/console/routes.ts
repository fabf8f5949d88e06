import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { AppError, packageDir, type App } from '@corridor/platform';

/** Hashed build output: the name changes whenever the content does, so browsers may keep it for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The web console (apps/console, built by Vite) at `/`, on the same origin as /api: hashed files
 * under /assets with a long cache (pre-compressed .br/.gz siblings served where the browser takes
 * them), and index.html, never cached, for every other GET that is not under /api (the console
 * routes in the browser). Without a build, `/` says how to make one.
 */
export async function consoleRoutes(app: App, opts: { dir: string | undefined }): Promise<void> {
  const dir = opts.dir;
  const built = Boolean(dir && existsSync(join(dir, 'index.html')));
  if (!built || !dir) {
    app.get('/', async (_req, reply) =>
      reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The console is not built. Run `pnpm --filter @corridor/console build` (pnpm install and pnpm start do it), then reload.\n'),
    );
    return;
  }
  await app.register(fastifyStatic, {
    root: join(dir, 'assets'),
    prefix: '/assets/',
    preCompressed: true,
    index: false,
    cacheControl: false,
    // sendFile of index.html passes here too: only the hashed files are kept
    setHeaders: (res, path) => void res.header('cache-control', path.startsWith(join(dir, 'assets')) ? IMMUTABLE : 'no-cache'),
  });
  const sendIndex = async (req: { url: string }, reply: import('fastify').FastifyReply) => {
    if (req.url === '/api' || req.url.startsWith('/api/') || req.url.startsWith('/assets/')) {
      throw new AppError('NOT_FOUND', `No route GET ${req.url.split('?')[0]}`);
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html', dir);
  };
  app.get('/', sendIndex);
  app.get('/*', sendIndex);
}

/**
 * Where the console's build is, without any setting: `console/` beside the gateway's compiled code
 * in its image (deploy/stage.ts copies apps/console/dist there), else apps/console/dist of this
 * repository (`pnpm start`, tests).
 */
export function defaultConsoleDir(): string {
  const gateway = packageDir(import.meta.url);
  const staged = join(gateway, 'console');
  return existsSync(join(staged, 'index.html')) ? staged : join(gateway, '..', '..', 'apps', 'console', 'dist');
}
