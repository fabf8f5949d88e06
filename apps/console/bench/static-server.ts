import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import type { AddressInfo } from 'node:net';

export const DIST = join(import.meta.dirname, '..', 'dist');

const TYPES: Record<string, string> = {
  // .mjs: MapLibre's worker is a module script, which the browser refuses under any other type (the map never loads)
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.geojson': 'application/geo+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.pbf': 'application/x-protobuf',
};

/**
 * The built console served as the gateway serves it (files under dist/, index.html for every other
 * path; `dist` another build of it), without the API: the benchmarks answer /api themselves in the browser. Port 0 (ephemeral).
 */
export async function serveDist(dist = DIST): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    const file = join(dist, path);
    readFile(file)
      .then((body) => {
        res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
        res.end(body);
      })
      .catch(async () => {
        res.writeHead(200, { 'content-type': TYPES['.html']! });
        res.end(await readFile(join(dist, 'index.html')));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
