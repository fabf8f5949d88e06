import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { OsmAndSender } from './osmand-client';
import type { Fix } from './truck';

const fix: Fix = {
  deviceId: '356000000000003',
  time: new Date('2025-03-01T10:00:00Z'),
  lat: -1.29,
  lon: 36.82,
  speedKph: 55.56,
  courseDeg: 45,
  altitudeM: 1660,
  accuracyM: 8,
  batteryPct: 90,
};

interface Received {
  method: string;
  query: Record<string, string>;
}

let server: Server | undefined;

/** A local HTTP server answering each request with the next status in `statuses` (then 200). */
async function serve(statuses: number[]): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  server = createServer((req: IncomingMessage, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    received.push({ method: req.method ?? '', query: Object.fromEntries(url.searchParams) });
    res.statusCode = statuses.shift() ?? 200;
    res.end();
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, received };
}

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

describe('OsmAnd sender', () => {
  it('POSTs the fix as OsmAnd query parameters with speed in knots', async () => {
    const { url, received } = await serve([200]);
    const sender = new OsmAndSender({ url });
    expect(await sender.send(fix)).toBe(true);
    expect(received).toHaveLength(1);
    expect(received[0]!.method).toBe('POST');
    expect(received[0]!.query).toMatchObject({
      id: '356000000000003',
      timestamp: '1740823200',
      speed: '30.00',
      lat: '-1.290000',
      lon: '36.820000',
    });
    expect(sender.stats).toEqual({ sent: 1, failed: 0, retries: 0 });
  });

  // (the waits between attempts are platform's retryWithBackoff, tested in retry.test.ts; no backoff here)
  it('retries on 503 and succeeds', async () => {
    const { url, received } = await serve([503, 503, 200]);
    const sender = new OsmAndSender({ url, initialBackoffMs: 0 });
    expect(await sender.send(fix)).toBe(true);
    expect(received).toHaveLength(3);
    expect(sender.stats).toEqual({ sent: 1, failed: 0, retries: 2 });
  });

  it('gives up after the retries, counting one failure and reporting the reason', async () => {
    const { url, received } = await serve([503, 503, 503, 503, 503]);
    const reasons: string[] = [];
    const sender = new OsmAndSender({ url, maxRetries: 2, initialBackoffMs: 0, onFailure: (_f, r) => reasons.push(r) });
    expect(await sender.send(fix)).toBe(false);
    expect(received).toHaveLength(3);
    expect(sender.stats).toEqual({ sent: 0, failed: 1, retries: 2 });
    expect(reasons).toEqual(['HTTP 503']);
  });

  it('does not retry a rejected request (400)', async () => {
    const { url, received } = await serve([400]);
    const sender = new OsmAndSender({ url, initialBackoffMs: 0 });
    expect(await sender.send(fix)).toBe(false);
    expect(received).toHaveLength(1);
    expect(sender.stats.failed).toBe(1);
  });

  it('survives a refused connection without throwing', async () => {
    const { url } = await serve([]);
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = undefined;
    const reasons: string[] = [];
    const sender = new OsmAndSender({ url, maxRetries: 1, initialBackoffMs: 0, onFailure: (_f, r) => reasons.push(r) });
    await expect(sender.send(fix)).resolves.toBe(false);
    expect(sender.stats).toEqual({ sent: 0, failed: 1, retries: 1 });
    expect(reasons[0]).toMatch(/ECONNREFUSED|fetch failed/);
  });

  it('stops retrying once aborted', async () => {
    const { url, received } = await serve([503, 503, 503, 503]);
    const abort = new AbortController();
    // aborted once the first answer (503) is read: no second attempt starts
    const answered: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      abort.abort();
      return res;
    };
    const sender = new OsmAndSender({ url, fetch: answered, initialBackoffMs: 0 });
    expect(await sender.send(fix, abort.signal)).toBe(false);
    expect(received).toHaveLength(1);
  });

  it('does not count a request cut short by stop() as a delivery failure', async () => {
    const abort = new AbortController();
    let started!: () => void;
    const inFlight = new Promise<void>((r) => (started = r));
    const hanging: typeof fetch = (_url, init) =>
      new Promise((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        started();
      });
    const sender = new OsmAndSender({ url: 'http://127.0.0.1:9', fetch: hanging, initialBackoffMs: 0 });
    const sent = sender.send(fix, abort.signal);
    await inFlight; // stop() while the request is under way
    abort.abort();
    expect(await sent).toBe(false);
    expect(sender.stats).toEqual({ sent: 0, failed: 0, retries: 0 });
  });
});
