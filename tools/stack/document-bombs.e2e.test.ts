import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentWithLink } from '@corridor/contracts';
import { createClickHouseAnalytics, migrateAnalytics } from '@corridor/platform';
import { startChdbHttp, type ChdbHttpServer } from '@corridor/platform/testing/chdb-http';
import { freePort } from '@corridor/platform/testing/free-port';
import { asUser, TEST_IDENTITY_SECRET, testUsers } from '@corridor/platform/testing/identity';
import { deflateBombPdf } from '../../services/ops-api/test/fixtures/deflate-bomb';
import { idfPdf, sampleIdf } from '../../services/ops-api/test/fixtures/idf-documents';
import { multipart } from '../../services/ops-api/test/fixtures/multipart';
import { ServiceProcess } from '../scale/service-process';

/**
 * Issue 23's finding, against ops-api as its own process (services/ops-api/src/main.ts, as a pod runs
 * it): a company user's PDF whose one content stream inflates to 200 MiB, sent to
 * POST /api/cargos/process-idf, answered 422 after 158 s, with 26 of 62 /healthz probes timing out
 * or over 1 s and the process at 4,254 MiB; one inflating to 1 GiB: 504 at 37 s, 3 GB. Here both
 * (built by the test: ~200 KB and ~1 MB) and one the reader's scan cannot measure (hex-wrapped,
 * stopped by the reader's memory limit) are read while a probe hits /healthz every 0.2 s, and:
 * - the request gets 422 naming the limit;
 * - the service process's resident memory, sampled every 0.2 s, stays under ops-api's Kubernetes
 *   limit (768 MiB, deploy/k8s/base/ops-api); its reader processes' stays within their own limit
 *   (DOCUMENT_PARSE_MEMORY_MB, 256) and what one poll interval lets them add past it before the kill;
 * - every probe answers under 200 ms, the bound. A probe's time is also the test process's
 *   and the machine's: on a busy two-core machine (load 30 when this was written) an idle service
 *   answers some probes late too, and is itself descheduled now and then. So the bound is checked
 *   where the service alone decides it, its event loop, measured in the service
 *   (nodejs_eventloop_*_seconds, reset by each scrape of its /metrics): over the window its 99th
 *   percentile delay stays under 200 ms and its largest under 1 s (a PDF read in the service's
 *   thread held it for 158 s); and the probes over 200 ms are counted against an equal window with
 *   no document read (at most 2 more), and every probe answers.
 * The service runs on the environment's PostgreSQL (DATABASE_URL, in a database of this run's own)
 * when it has one, as in production, else on its embedded PGlite (in its process: more memory), and
 * on ClickHouse through CLICKHOUSE_URL (chDB behind platform's chdb-http in this process).
 */
const MiB = 1024 * 1024;
const LIMIT_BYTES = 768 * MiB;
const BOUND_MS = 200;
/** DOCUMENT_PARSE_MEMORY_MB's default, and what a reader may add within one 20 ms poll (pdf.js doubles its buffer at most once). */
const READER_LIMIT_BYTES = 256 * MiB;
const READER_OVERSHOOT_BYTES = 256 * MiB;
const PROBE_EVERY_MS = 200;
const MIN_PROBES = 15;

let dir: string;
let chdb: ChdbHttpServer;
let database: { url: string; drop(): Promise<void> } | undefined;
let ops: ServiceProcess;
let metricsPort: number;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'corridor-bombs-'));
  chdb = await startChdbHttp({ path: join(dir, 'chdb') });
  // the migrate step, before the service starts (it refuses a schema behind its own)
  const analytics = await createClickHouseAnalytics({
    url: chdb.url,
    username: 'default',
    password: '',
    database: 'corridor',
    createDatabase: true,
  });
  await migrateAnalytics(analytics);
  await analytics.close();
  if (process.env.DATABASE_URL) database = await ownDatabase(process.env.DATABASE_URL);
  metricsPort = await freePort();
  ops = new ServiceProcess(
    'ops-api',
    'ops-api',
    await freePort(),
    {
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      INTERNAL_TOKEN_SECRET: TEST_IDENTITY_SECRET,
      DATA_DIR: join(dir, 'data'),
      CLICKHOUSE_URL: chdb.url,
      METRICS_HOST: '127.0.0.1',
      METRICS_PORT: String(metricsPort),
      // the hex-wrapped bomb is here to meet the readers' memory limit; a mid-session CI at load 40
      // read it for more than the default 20 s before it reached 256 MiB, and the time limit answered
      // first. The time limit has its own test (parsers/parser-pool.test.ts)
      DOCUMENT_PARSE_TIMEOUT_S: '120',
      ...(database ? { DATABASE_URL: database.url } : {}),
    },
    join(dir, 'ops-api.log'),
  );
  await ops.startUntilReady();
}, 300_000);

afterAll(async () => {
  await ops?.kill('SIGTERM');
  await database?.drop();
  await chdb?.close();
  await rm(dir, { recursive: true, force: true });
});

/** A database of this run's own on the environment's PostgreSQL server. */
async function ownDatabase(url: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `bombs_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const run = async (sql: string) => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(sql);
    } finally {
      await admin.end();
    }
  };
  await run(`CREATE DATABASE ${name}`);
  const own = new URL(url);
  own.pathname = `/${name}`;
  return { url: own.toString(), drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined) };
}

const company = () => asUser(testUsers.companyA);

async function upload(bytes: Uint8Array): Promise<DocumentWithLink> {
  const body = await multipart({ kind: 'idf' }, { filename: 'idf.pdf', contentType: 'application/pdf', bytes });
  const res = await fetch(`${ops.url}/api/documents/upload`, {
    method: 'POST',
    headers: { ...body.headers, ...(await company()) },
    body: body.payload,
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as DocumentWithLink;
}

const processIdf = async (documentId: string) =>
  fetch(`${ops.url}/api/cargos/process-idf`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(await company()) },
    body: JSON.stringify({ documentId }),
  });

/** Resident memory of a process, bytes (0 once it is gone). */
async function rss(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1];
  return kb ? Number(kb) * 1024 : 0;
}
/** The service's child processes (its document readers). */
async function children(pid: number): Promise<number[]> {
  const list = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '');
  return list.split(/\s+/).filter(Boolean).map(Number);
}

/** The service's event-loop delay since the last scrape (the scrape resets it): 99th percentile and largest, ms. */
async function eventLoop(): Promise<{ p99: number; max: number }> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const value = (name: string) =>
    Number(
      text
        .split('\n')
        .find((l) => l.startsWith(`${name} `))
        ?.split(' ')[1] ?? NaN,
    ) * 1000;
  return { p99: value('nodejs_eventloop_lag_p99_seconds'), max: value('nodejs_eventloop_lag_max_seconds') };
}

interface Window {
  probesMs: number[];
  failedProbes: number;
  maxServiceRss: number;
  maxReadersRss: number;
  maxTotalRss: number;
  eventLoop: { p99: number; max: number };
}

/**
 * Runs `work` while probing /healthz every 0.2 s (each probe waits for the one before, with a 5 s
 * ceiling) and sampling the service's and its readers' memory, for at least MIN_PROBES probes. The
 * memory breach is reported at once: `work` is not waited for past it.
 */
async function observe<T>(work: () => Promise<T>): Promise<{ result: T; window: Window }> {
  const pid = ops.pid!;
  await eventLoop(); // resets the service's delay histogram: the window starts here
  const w: Window = { probesMs: [], failedProbes: 0, maxServiceRss: 0, maxReadersRss: 0, maxTotalRss: 0, eventLoop: { p99: 0, max: 0 } };
  let stop = false;
  let breach: ((err: Error) => void) | undefined;
  const breached = new Promise<never>((_, reject) => (breach = reject));
  const probing = (async () => {
    while (!stop || w.probesMs.length < MIN_PROBES) {
      const started = performance.now();
      try {
        const res = await fetch(`${ops.url}/healthz`, { signal: AbortSignal.timeout(5000) });
        await res.arrayBuffer();
        if (res.status === 200) w.probesMs.push(performance.now() - started);
        else w.failedProbes++;
      } catch {
        w.failedProbes++;
      }
      const service = await rss(pid);
      const readers = (await Promise.all((await children(pid)).map(rss))).reduce((a, b) => a + b, 0);
      w.maxServiceRss = Math.max(w.maxServiceRss, service);
      w.maxReadersRss = Math.max(w.maxReadersRss, readers);
      w.maxTotalRss = Math.max(w.maxTotalRss, service + readers);
      if (service >= LIMIT_BYTES) breach?.(new Error(`the service reached ${Math.round(service / MiB)} MiB (limit 768 MiB)`));
      // the health probe's sampling interval: the scenario's clock (how often it asks), not a wait for an outcome
      await new Promise((r) => setTimeout(r, Math.max(0, PROBE_EVERY_MS - (performance.now() - started))));
    }
  })();
  try {
    const result = await Promise.race([work(), breached]);
    stop = true;
    await Promise.race([probing, breached]);
    w.eventLoop = await eventLoop();
    return { result, window: w };
  } finally {
    stop = true;
    breached.catch(() => undefined);
  }
}

const over = (w: Window) => w.probesMs.filter((ms) => ms >= BOUND_MS).length;
const summary = (w: Window) =>
  `${w.probesMs.length} probes, ${over(w)} over ${BOUND_MS} ms (slowest ${Math.round(Math.max(...w.probesMs))} ms), ${w.failedProbes} failed; ` +
  `event loop p99 ${Math.round(w.eventLoop.p99)} ms, max ${Math.round(w.eventLoop.max)} ms; ` +
  `service ${Math.round(w.maxServiceRss / MiB)} MiB, readers ${Math.round(w.maxReadersRss / MiB)} MiB, both ${Math.round(w.maxTotalRss / MiB)} MiB`;

describe('deflate bombs sent to POST /api/cargos/process-idf (ops-api in its own process)', () => {
  let baseline: Window;

  it('reads a genuine IDF (through a reader process) and measures a quiet window to compare with', async () => {
    const doc = await upload(await idfPdf(sampleIdf({ idfNumber: '24NBOIM000900001' })));
    const created = await processIdf(doc.id);
    expect(created.status, await created.clone().text()).toBe(201);
    baseline = (await observe(async () => undefined)).window;
    console.info(`quiet window: ${summary(baseline)}`);
    expect(baseline.failedProbes).toBe(0);
    // /metrics is off the API port (its own listener, METRICS_PORT)
    expect((await fetch(`${ops.url}/metrics`)).status).toBe(404);
  }, 300_000);

  it.each([
    ['200 MiB', 200 * MiB, {}, 'inflated_limit'],
    ['1 GiB', 1024 * MiB, {}, 'inflated_limit'],
    ['400 MiB, hex-wrapped (past the scan: the memory limit)', 400 * MiB, { wrapped: true }, 'memory_limit'],
  ] as const)(
    '%s inflated: 422 naming the limit, the service never stalls nor outgrows its memory limit',
    async (_name, inflated, opts, reason) => {
      const bomb = await deflateBombPdf(inflated, opts);
      const doc = await upload(bomb);
      const { result, window } = await observe(async () => {
        const res = await processIdf(doc.id);
        return {
          status: res.status,
          body: (await res.json()) as { error: { code: string; message: string; details: { reason: string } } },
        };
      });
      console.info(`${_name} (${Math.round(bomb.length / 1024)} KB): ${result.status} ${result.body.error?.message}; ${summary(window)}`);
      expect(result.status).toBe(422);
      expect(result.body.error).toMatchObject({ code: 'UNPROCESSABLE', details: { reason } });
      expect(result.body.error.message).toMatch(/MiB/);
      expect(window.maxServiceRss).toBeLessThan(LIMIT_BYTES);
      expect(window.maxReadersRss).toBeLessThan(READER_LIMIT_BYTES + READER_OVERSHOOT_BYTES);
      expect(window.failedProbes).toBe(0);
      expect(window.eventLoop.p99).toBeLessThan(BOUND_MS);
      expect(window.eventLoop.max).toBeLessThan(1000);
      expect(over(window)).toBeLessThanOrEqual(over(baseline) + 2);
    },
    300_000,
  );

  it('still reads a genuine IDF afterwards', async () => {
    const doc = await upload(await idfPdf(sampleIdf({ idfNumber: '24NBOIM000900002' })));
    expect((await processIdf(doc.id)).status).toBe(201);
  }, 300_000);
});
