import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '@corridor/platform/testing/eventually';
import { simDeviceIds, startSimulator } from './simulator';

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A local OsmAnd endpoint answering `status`, counting the requests per device id. */
async function endpoint(status: number): Promise<{ url: string; seen: Map<string, number>; total: () => number }> {
  const seen = new Map<string, number>();
  server = createServer((req, res) => {
    const id = new URL(req.url ?? '/', 'http://x').searchParams.get('id') ?? '';
    seen.set(id, (seen.get(id) ?? 0) + 1);
    res.statusCode = status;
    res.end();
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen, total: () => [...seen.values()].reduce((a, b) => a + b, 0) };
}

/** Runs a one-truck simulator of its own against `url` until the endpoint saw `requests` of it; answers its id. */
async function markerTruck(url: string, intervalMs: number, seen: Map<string, number>, requests: number): Promise<string> {
  const id = 'marker-truck';
  const marker = startSimulator({ trucks: 1, ingestUrl: url, intervalMs, deviceIds: [id] });
  await eventually(`${requests} requests of the marker truck`, () => (seen.get(id) ?? 0) >= requests);
  await marker.stop();
  return id;
}

describe('startSimulator', () => {
  it('has every truck report to the OsmAnd endpoint until stopped', async () => {
    const { url, seen, total } = await endpoint(200);
    const logs: string[] = [];
    const sim = startSimulator({ trucks: 4, ingestUrl: url, intervalMs: 40, timeScale: 60, log: (m) => logs.push(m) });
    const ids = simDeviceIds(4);
    // a truck's third request starts only after its second was answered: two delivered each
    await eventually('three reports from every truck', () => ids.every((id) => (seen.get(id) ?? 0) >= 3));
    await sim.stop();
    const { sent, failed } = sim.stats();
    expect(failed).toBe(0);
    expect(sent).toBeGreaterThanOrEqual(8);
    expect([...seen.keys()].sort()).toEqual(ids);
    // stop() cuts short the report each truck may have in flight, and such a request may or may
    // not reach the endpoint, before stop() returns or after (on a busy machine the endpoint reads
    // it later): every delivery counted was seen, and at most one per truck more, ever
    expect(total()).toBeGreaterThanOrEqual(sent);
    expect(total()).toBeLessThanOrEqual(sent + 4);
    // nothing new after stop, proved by a marker: a truck of another simulator on the same 40 ms
    // interval; timers fire in the order they fall due, so by its third report the stopped trucks,
    // were they still reporting, would have reported at least twice each
    const marker = await markerTruck(url, 40, seen, 3);
    expect(sim.stats().sent).toBe(sent);
    expect(total() - (seen.get(marker) ?? 0)).toBeLessThanOrEqual(sent + 4);
    expect(logs[0]).toContain('4 trucks');
  });

  it('counts failures when ingest refuses, and stop() does not wait for the retries', async () => {
    const { url, seen } = await endpoint(503);
    const sim = startSimulator({ trucks: 2, ingestUrl: url, intervalMs: 30 });
    const ids = simDeviceIds(2);
    // a second request of a truck is the retry of its first report: the first 503 was read
    await eventually('a retry from every truck', () => ids.every((id) => (seen.get(id) ?? 0) >= 2));
    await sim.stop();
    // each truck holds one report (no new one while it retries): both given up at stop, none sent;
    // without the stop the report would have gone on to its 4th attempt (after 0.75 s more backoff)
    expect(sim.stats()).toMatchObject({ sent: 0, failed: 2 });
    // an attempt cut short by stop() may still reach the endpoint afterwards, but no new one starts
    const atStop = new Map(seen);
    // the marker (on the same 30 ms interval) retries its first report after at least 0.25 s of backoff
    await markerTruck(url, 30, seen, 2);
    for (const id of ids) {
      expect(seen.get(id)).toBeLessThanOrEqual((atStop.get(id) ?? 0) + 1);
      expect(seen.get(id)).toBeLessThan(4);
    }
  });
});
