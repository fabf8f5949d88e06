import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { simDeviceIds, startSimulator } from './simulator';

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

describe('startSimulator', () => {
  it('has every truck report to the OsmAnd endpoint until stopped', async () => {
    const seen = new Map<string, number>();
    server = createServer((req, res) => {
      const id = new URL(req.url ?? '/', 'http://x').searchParams.get('id') ?? '';
      seen.set(id, (seen.get(id) ?? 0) + 1);
      res.end();
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;

    const logs: string[] = [];
    const sim = startSimulator({ trucks: 4, ingestUrl: `http://127.0.0.1:${port}`, intervalMs: 40, timeScale: 60, log: (m) => logs.push(m) });
    await new Promise((r) => setTimeout(r, 300));
    await sim.stop();
    const { sent, failed } = sim.stats();
    expect(failed).toBe(0);
    expect(sent).toBeGreaterThanOrEqual(8);
    expect([...seen.keys()].sort()).toEqual(simDeviceIds(4));
    expect([...seen.values()].reduce((a, b) => a + b, 0)).toBe(sent);
    await new Promise((r) => setTimeout(r, 100));
    expect(sim.stats().sent).toBe(sent); // nothing sent after stop
    expect(logs[0]).toContain('4 trucks');
  });

  it('counts failures when ingest is down and stops promptly', async () => {
    const sim = startSimulator({ trucks: 2, ingestUrl: 'http://127.0.0.1:9', intervalMs: 30 });
    await new Promise((r) => setTimeout(r, 200));
    const before = Date.now();
    await sim.stop();
    expect(Date.now() - before).toBeLessThan(1000);
    expect(sim.stats().sent).toBe(0);
    expect(sim.stats().failed).toBeGreaterThanOrEqual(2);
  });
});
