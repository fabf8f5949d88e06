import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { offlineGeocoder } from '@corridor/geodata/reverse-geocoder';
import { GeocoderEnv } from './settings';
import { createGeocoder } from './geocoder';
import { registry } from '../metrics';

const VOI_NW = [-3.31, 38.47] as const;
const offlineAnswer = offlineGeocoder().reverse(...VOI_NW).address;

/**
 * A Nominatim stand-in on loopback (the real service is on the internet, which tests do not reach):
 * answers /reverse as Nominatim does, and records what it was asked.
 */
let server: Server;
let base: string;
let asked: URL[] = [];
let headers: IncomingMessage['headers'][] = [];
let answer: (url: URL, res: ServerResponse) => void;
beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    asked.push(url);
    headers.push(req.headers);
    answer(url, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/reverse`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  asked = [];
  headers = [];
  answer = (url, res) =>
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ display_name: `road near ${url.searchParams.get('lat')},${url.searchParams.get('lon')}` }));
});

const settings = (env: Record<string, string>) => GeocoderEnv.parse(env);
const outcomes = async () =>
  Object.fromEntries(
    ((await registry.getSingleMetric('geocoder_lookups_total')?.get())?.values ?? []).map((v) => [
      `${v.labels.geocoder}/${v.labels.outcome}`,
      v.value,
    ]),
  );

describe('geocoder', () => {
  it("is offline without GEOCODER_URL, with the gazetteer's address", async () => {
    const g = createGeocoder(settings({}));
    expect(g.kind).toBe('offline');
    expect(await g.address(...VOI_NW)).toBe('14 km NW of Voi, KE');
    expect(g.offline(...VOI_NW)).toBe('14 km NW of Voi, KE');
  });

  it('asks a Nominatim-compatible service, once per place (cached, and one request for concurrent lookups)', async () => {
    const g = createGeocoder(settings({ GEOCODER_URL: base, GEOCODER_LANGUAGE: 'sw,en' }));
    expect(g.kind).toBe('nominatim');
    const [a, b] = await Promise.all([g.address(-1.28333, 36.81667), g.address(-1.28333, 36.81667)]);
    expect(a).toBe('road near -1.28333,36.81667');
    expect(b).toBe(a);
    expect(await g.address(-1.283331, 36.816671)).toBe(a); // the same place to 4 decimals
    expect(asked).toHaveLength(1);
    expect(asked[0]!.searchParams.get('format')).toBe('jsonv2');
    expect(headers[0]!['accept-language']).toBe('sw,en');
    // long lists stay offline
    expect(g.offline(...VOI_NW)).toBe(offlineAnswer);
    expect(asked).toHaveLength(1);
  });

  it('answers the offline address where the service knows none (at sea), without counting a failure', async () => {
    answer = (_url, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"error":"Unable to geocode"}');
    const g = createGeocoder(settings({ GEOCODER_URL: base }));
    const before = await outcomes();
    expect(await g.address(-4.1, 39.75)).toBe('at sea, 11 km SE of Mombasa, KE');
    const after = await outcomes();
    expect((after['nominatim/none'] ?? 0) - (before['nominatim/none'] ?? 0)).toBe(1);
    expect(after['nominatim/fallback'] ?? 0).toBe(before['nominatim/fallback'] ?? 0);
  });

  it('falls back to the offline address when the service fails or is too slow, and asks again later', async () => {
    answer = (_url, res) => res.writeHead(503).end();
    const g = createGeocoder(settings({ GEOCODER_URL: base, GEOCODER_TIMEOUT_MS: '150' }));
    const before = await outcomes();
    expect(await g.address(...VOI_NW)).toBe(offlineAnswer);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    answer = (_url, res) => void held.then(() => res.writeHead(200).end('{"display_name":"late"}'));
    expect(await g.address(...VOI_NW)).toBe(offlineAnswer); // the 150 ms timeout, not the held answer
    release();
    const after = await outcomes();
    expect((after['nominatim/fallback'] ?? 0) - (before['nominatim/fallback'] ?? 0)).toBe(2);
    answer = (_url, res) => res.writeHead(200).end('{"display_name":"back"}');
    expect(await g.address(...VOI_NW)).toBe('back'); // failures are not cached
  });

  it('sends at most 4 requests at once; the others wait their turn', async () => {
    let open = 0;
    let most = 0;
    const held: (() => void)[] = [];
    answer = (url, res) => {
      open++;
      most = Math.max(most, open);
      held.push(() => {
        open--;
        res.writeHead(200).end(JSON.stringify({ display_name: `at ${url.searchParams.get('lat')}` }));
      });
    };
    const g = createGeocoder(settings({ GEOCODER_URL: base }));
    const all = Promise.all(Array.from({ length: 10 }, (_, i) => g.address(-1 - i / 10, 36)));
    await vi.waitFor(() => expect(asked).toHaveLength(4));
    // then answer the held requests one by one as they arrive, until all ten were asked
    await vi.waitFor(
      () => {
        held.shift()?.();
        expect(asked).toHaveLength(10);
      },
      { timeout: 10_000, interval: 5 },
    );
    while (held.length) held.shift()!();
    expect(await all).toEqual(Array.from({ length: 10 }, (_, i) => `at ${-1 - i / 10}`));
    expect(most).toBe(4);
  });

  it('refuses a malformed GEOCODER_URL or timeout at boot', () => {
    expect(GeocoderEnv.safeParse({ GEOCODER_URL: 'ftp://x/reverse' }).success).toBe(false);
    expect(GeocoderEnv.safeParse({ GEOCODER_TIMEOUT_MS: '5' }).success).toBe(false);
    expect(GeocoderEnv.safeParse({ GEOCODER_LANGUAGE: 'english please' }).success).toBe(false);
  });
});
