import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { createChdbConnection } from 'chdb/connection';

/**
 * The ClickHouse HTTP interface, the part of it @clickhouse/client uses, served by chDB (the
 * ClickHouse engine in process) from ONE process, so several service processes can share one
 * analytics store through CLICKHOUSE_URL, as they share a ClickHouse server in production.
 *
 * The one-process stack (`pnpm start`) serves its embedded store to its ingest worker threads
 * through it. It stands in for a ClickHouse server where none can run: no ClickHouse server binary can be had
 * on this machine (Debian 12 ships 18.16 from 2018, without DateTime64, Bool or query parameters;
 * PyPI, npm and Maven Central carry clients and chDB, not the server). The engine answering is the
 * real one (chDB's libchdb); only the HTTP transport is this file:
 * - GET/POST /ping → "Ok.";
 * - POST / (or GET ?query=): the SQL is the `query` URL parameter followed by the body (an INSERT's
 *   statement in the URL, its rows in the body), run in the `database` parameter's database;
 * - `param_<name>` URL parameters bind `{name:Type}` placeholders (text format, as the client sends);
 * - every other URL parameter is a setting (HTTP-only ones dropped, default_format honoured);
 * - errors answer 500 with `X-ClickHouse-Exception-Code` and ClickHouse's "Code: N. DB::Exception"
 *   text, which the client parses into a ClickHouseError.
 * Not served: sessions, multipart parameters, compression, progress headers, authentication (it
 * listens on loopback for test and benchmark runs only).
 */
export interface ChdbHttpServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

const TRANSPORT_PARAMS = new Set(['query', 'query_id', 'database', 'session_id', 'role', 'user', 'password']);

/** The placeholder types of a query: `{name:Type}` → Type. */
function placeholderTypes(sql: string): Map<string, string> {
  const types = new Map<string, string>();
  for (const m of sql.matchAll(/\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*:\s*([^}]+)\}/g)) types.set(m[1]!, m[2]!.trim());
  return types;
}

const ESCAPES: Record<string, string> = { '\\': '\\', "'": "'", t: '\t', n: '\n', r: '\r', '0': '\0', b: '\b', f: '\f' };

/**
 * A parameter's text (as the client escaped it) → the value chDB's binder takes. A scalar string
 * type is unescaped (chDB escapes it again for the engine). A composite value (array, tuple, map)
 * goes through as text, which is exact unless it holds a backslash: refused rather than bound wrong.
 */
function bindValue(name: string, text: string, type: string | undefined): string {
  const scalar = !type || !/^(Array|Tuple|Map|Nested)\s*\(/.test(type.replace(/^(Nullable|LowCardinality)\s*\(/, ''));
  if (scalar) return text.replace(/\\(.)/gs, (_, c: string) => ESCAPES[c] ?? c);
  if (text.includes('\\')) throw new Error(`parameter ${name}: composite values with escapes are not supported by this chDB HTTP front`);
  return text;
}

function settingValue(v: string): string | number {
  return /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v;
}

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Starts the server on loopback (port 0 = any free one); `path` is chDB's data directory (':memory:'
 * for none), or `connection` one this process opened already (the one-process stack serves its own
 * store to its ingest threads this way; it stays open when the server closes).
 */
export async function startChdbHttp(
  opts: ({ path: string } | { connection: ReturnType<typeof createChdbConnection> }) & { port?: number; host?: string },
): Promise<ChdbHttpServer> {
  let conn: ReturnType<typeof createChdbConnection>;
  if ('connection' in opts) conn = opts.connection;
  else {
    const path = opts.path === ':memory:' ? ':memory:' : resolve(opts.path);
    if (path !== ':memory:') mkdirSync(path, { recursive: true });
    conn = createChdbConnection({ path });
  }
  const owned = !('connection' in opts);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/ping' || (url.pathname === '/' && req.method === 'GET' && !url.searchParams.has('query'))) {
      res.writeHead(200, { 'content-type': 'text/plain; charset=UTF-8' }).end('Ok.\n');
      return;
    }
    if (url.pathname !== '/') {
      res.writeHead(404).end(`no handler for ${url.pathname}\n`);
      return;
    }
    const queryId = url.searchParams.get('query_id') ?? randomUUID();
    const text = await body(req);
    const head = url.searchParams.get('query') ?? '';
    const database = url.searchParams.get('database');
    const settings: Record<string, string | number> = {};
    const rawParams: [string, string][] = [];
    for (const [k, v] of url.searchParams) {
      if (k.startsWith('param_')) rawParams.push([k.slice(6), v]);
      else if (!TRANSPORT_PARAMS.has(k)) settings[k] = settingValue(v);
    }
    settings.default_format ??= 'TabSeparated';
    try {
      const statement = head || text;
      const types = placeholderTypes(statement);
      const query_params = Object.fromEntries(rawParams.map(([k, v]) => [k, bindValue(k, v, types.get(k))]));
      // the chDB session is shared by every request: name the database in the same statement batch
      const use = database && /^[A-Za-z_][A-Za-z0-9_]*$/.test(database) ? `USE ${database}; ` : '';
      const result = await conn.exec({
        query: use + statement,
        ...(head && text ? { values: Readable.from([text]) } : {}),
        query_params,
        clickhouse_settings: settings,
        query_id: queryId,
      });
      const chunks: Buffer[] = [];
      for await (const c of result.stream) chunks.push(c as Buffer);
      res.writeHead(200, {
        'content-type': 'text/plain; charset=UTF-8',
        'x-clickhouse-query-id': queryId,
        'x-clickhouse-summary': JSON.stringify(result.summary ?? {}),
      });
      res.end(Buffer.concat(chunks));
    } catch (err) {
      const original = (err as { cause?: unknown }).cause ?? err;
      const message = original instanceof Error ? original.message : String(original);
      const code = /^Code: (\d+)\./.exec(message)?.[1] ?? (err as { code?: string }).code ?? '1001';
      res.writeHead(500, {
        'content-type': 'text/plain; charset=UTF-8',
        'x-clickhouse-exception-code': String(code),
        'x-clickhouse-query-id': queryId,
      });
      res.end(/^Code: \d+\./.test(message) ? message : `Code: ${code}. DB::Exception: ${message}. (STD_EXCEPTION)`);
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'x-clickhouse-exception-code': '1001' });
      res.end(`Code: 1001. DB::Exception: ${String(err)}. (STD_EXCEPTION)`);
    });
  });
  await new Promise<void>((ok, fail) => server.once('error', fail).listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => ok()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${opts.host ?? '127.0.0.1'}:${port}`,
    server,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
      if (owned) await conn.close();
    },
  };
}
