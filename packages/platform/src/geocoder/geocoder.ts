import { LRUCache } from 'lru-cache';
import { offlineGeocoder, type ReverseGeocoder } from '@corridor/geodata/reverse-geocoder';
import { counter, histogram } from '../metrics';
import type { Logger } from '../logger';
import type { GeocoderSettings } from './settings';
import { nominatimLookup } from './nominatim';

/**
 * Addresses of positions for every service (Traccar's geocoder): offline by default, or an external
 * Nominatim-compatible service (settings.ts) with a cache and the offline answer as its fallback.
 */
export interface Geocoder {
  readonly kind: 'offline' | 'nominatim';
  /**
   * The address of a point from the configured geocoder, for what a person reads one at a time (the
   * geocode endpoint, reports' start and end addresses); null for a point out of range. Never fails.
   */
  address(latitude: number, longitude: number): Promise<string | null>;
  /** The offline address, synchronous (microseconds): positions, events, exports, the live feed; null for a point out of range. */
  offline(latitude: number, longitude: number): string | null;
}

/** Requests to the external geocoder at once, at most. */
const EXTERNAL_CONCURRENCY = 4;

const lookups = counter(
  'geocoder_lookups_total',
  'Reverse geocoding lookups by geocoder and outcome (offline; external, none: the service knew no address, cached, fallback: it failed)',
  ['geocoder', 'outcome'],
);
const externalSeconds = histogram(
  'geocoder_external_seconds',
  'Time the external geocoder took to answer',
  [],
  [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
);

/** A finite position within range (the API validates first; stored positions may hold anything). */
export const validPoint = (latitude: number, longitude: number): boolean =>
  Number.isFinite(latitude) && Number.isFinite(longitude) && Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180;

export function createGeocoder(
  settings: GeocoderSettings,
  deps: { logger?: Logger; fetch?: typeof fetch; local?: ReverseGeocoder } = {},
): Geocoder {
  const local = deps.local ?? offlineGeocoder();
  const offline = (latitude: number, longitude: number): string | null => {
    if (!validPoint(latitude, longitude)) return null;
    lookups.inc({ geocoder: 'offline', outcome: 'offline' });
    return local.reverse(latitude, longitude).address;
  };
  if (!settings.GEOCODER_URL) {
    return { kind: 'offline', offline, address: async (latitude, longitude) => offline(latitude, longitude) };
  }
  const lookup = nominatimLookup({
    url: settings.GEOCODER_URL,
    timeoutMs: settings.GEOCODER_TIMEOUT_MS,
    language: settings.GEOCODER_LANGUAGE,
    fetch: deps.fetch ?? fetch,
  });
  const cache = settings.GEOCODER_CACHE_SIZE > 0 ? new LRUCache<string, string>({ max: settings.GEOCODER_CACHE_SIZE }) : undefined;
  const inFlight = new Map<string, Promise<string>>();
  // at most EXTERNAL_CONCURRENCY requests at once (a report's many trips queue here); a freed slot passes to the next in line
  let active = 0;
  const waiting: (() => void)[] = [];
  const slot = async (): Promise<void> => {
    if (active < EXTERNAL_CONCURRENCY) {
      active++;
      return;
    }
    await new Promise<void>((resolve) => waiting.push(resolve));
  };
  const release = (): void => {
    const next = waiting.shift();
    if (next) next();
    else active--;
  };
  let lastWarning = 0;
  return {
    kind: 'nominatim',
    offline,
    async address(latitude, longitude) {
      if (!validPoint(latitude, longitude)) return null;
      const key = `${latitude.toFixed(4)},${longitude.toFixed(4)}`;
      const hit = cache?.get(key);
      if (hit !== undefined) {
        lookups.inc({ geocoder: 'nominatim', outcome: 'cached' });
        return hit;
      }
      const pending = inFlight.get(key);
      if (pending) return pending;
      const asked = slot()
        .then(async () => {
          const started = performance.now();
          try {
            return { found: await lookup(latitude, longitude), started };
          } finally {
            release();
          }
        })
        .then(({ found, started }) => {
          externalSeconds.observe((performance.now() - started) / 1000);
          lookups.inc({ geocoder: 'nominatim', outcome: found === null ? 'none' : 'external' });
          // where the service knows no address (at sea), the offline one says where the point is
          const address = found ?? local.reverse(latitude, longitude).address;
          cache?.set(key, address);
          return address;
        })
        .catch((err: unknown) => {
          lookups.inc({ geocoder: 'nominatim', outcome: 'fallback' });
          // one line a minute at most: an outage would otherwise log every lookup
          if (Date.now() - lastWarning > 60_000) {
            lastWarning = Date.now();
            deps.logger?.warn(
              { err },
              'external geocoder failed; answering offline addresses (counted in geocoder_lookups_total{outcome="fallback"})',
            );
          }
          return local.reverse(latitude, longitude).address;
        })
        .finally(() => inFlight.delete(key));
      inFlight.set(key, asked);
      return asked;
    },
  };
}
