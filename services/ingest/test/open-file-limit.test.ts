import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { primaryKind } from '@corridor/platform/testing/test-adapters';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gt06, TestDevice, waitFor } from './test-device';

/**
 * The connection budget in a real process under a low open-file limit (`ulimit -n 256`), on the
 * real parts when the environment has them: device connections past the budget are closed at
 * accept, counted and logged, the process never runs out of files, and its API and /metrics keep
 * answering with every device connection of the budget open.
 */
const LIMIT = 256;
const IMEI = '359710049077777';
const here = dirname(fileURLToPath(import.meta.url));

let child: ChildProcess;
let stdout = '';
let ports: { api: number; osmand: number; gt06: number; metrics: number };
const devices: TestDevice[] = [];

beforeAll(async () => {
  const kind = await primaryKind();
  child = spawn(
    'sh',
    ['-c', `ulimit -n ${LIMIT} && exec "$0" --import tsx test/fd-limited-ingest.ts ${kind} 4301 ${IMEI}`, process.execPath],
    {
      cwd: join(here, '..'),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout!.setEncoding('utf8').on('data', (s: string) => (stdout += s));
  child.stderr!.setEncoding('utf8').on('data', (s: string) => (stdout += s));
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`ingest exited (${code}): ${stdout.slice(-2000)}`))),
  );
  const ready = (async () => {
    await waitFor(() => /^\{"ports":/m.test(stdout), 120_000, 'ingest listening');
    ports = (JSON.parse(stdout.split('\n').find((l) => l.startsWith('{"ports":'))!) as { ports: typeof ports }).ports;
  })();
  await Promise.race([ready, exited]);
}, 150_000);

afterAll(async () => {
  for (const d of devices) d.close();
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}, 60_000);

/** A sample of the child's /metrics (0 when absent). */
async function metric(name: string, labels = ''): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${ports.metrics}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(labels ? `${name}{` : `${name} `) && (!labels || l.includes(labels)));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

describe('device connections under a low open-file limit', () => {
  it('fills the budget, refuses the rest at accept (counted, logged), keeps the API answering, and takes a device again once one left', async () => {
    const budget = await metric('ingest_connection_budget');
    expect(budget).toBeGreaterThan(0);
    expect(budget).toBeLessThanOrEqual(LIMIT - 64); // the reserve keeps at least 64 files

    // every connection of the budget, logged in and acknowledged (served, not merely accepted)
    for (let i = 0; i < budget; i += 25) {
      const batch = await Promise.all(Array.from({ length: Math.min(25, budget - i) }, () => TestDevice.open(ports.gt06)));
      devices.push(...batch);
      await Promise.all(
        batch.map(async (d) => {
          await d.write(gt06.login(IMEI, 1));
          await d.waitReceived(10, 60_000);
        }),
      );
    }
    expect(await metric('ingest_connection_budget_used')).toBe(budget);

    // past the budget: closed at once, TCP and OsmAnd HTTP alike, counted by reason
    const extra = await Promise.all(Array.from({ length: 5 }, () => TestDevice.open(ports.gt06)));
    await Promise.all(extra.map((d) => d.waitClosed(60_000)));
    await expect(fetch(`http://127.0.0.1:${ports.osmand}/?id=${IMEI}&lat=-1.29&lon=36.82`)).rejects.toThrow();
    expect(await metric('ingest_connections_refused_total', 'protocol="gt06",reason="fd_budget"')).toBe(5);
    expect(await metric('ingest_connections_refused_total', 'protocol="osmand",reason="fd_budget"')).toBe(1);
    await waitFor(() => stdout.includes('device connections refused: the open-file budget is spent'), 30_000, 'the refusal logged');

    // the API answers many clients at once with every device connection open
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => fetch(`http://127.0.0.1:${ports.api}/healthz`, { headers: { connection: 'close' } })),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(stdout).not.toMatch(/EMFILE|Too many open files/);
    expect(devices.every((d) => !d.closed)).toBe(true);

    // a device leaves: its file goes back to the budget and the next tracker is served
    devices.shift()!.close();
    await waitFor(async () => (await metric('ingest_connection_budget_used')) === budget - 1, 60_000, 'the connection given back');
    const next = await TestDevice.open(ports.gt06);
    devices.push(next);
    await next.write(gt06.login(IMEI, 1));
    await next.waitReceived(10, 60_000);
    expect(await metric('ingest_connection_budget_used')).toBe(budget);
  }, 240_000);
});
