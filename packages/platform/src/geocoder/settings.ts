import { z } from 'zod';

/**
 * Where addresses come from. Unset (the default): offline, from packages/geodata's gazetteer (no
 * network, microseconds per lookup). GEOCODER_URL: a Nominatim-compatible reverse geocoding endpoint
 * (its /reverse URL, e.g. https://nominatim.example.org/reverse), asked with format=jsonv2&lat=&lon=;
 * its display_name is the address. It answers what a person reads one at a time: GET
 * /api/server/geocode and the reports' start and end addresses (trips, stops), at most 4 requests at
 * once, each place asked once (cached). Positions, events, flags, exports and the live feed carry the
 * offline address always (bounded time, no outside service on those paths). A failed or slow answer
 * (past GEOCODER_TIMEOUT_MS) falls back to the offline address.
 */
export const GeocoderEnv = z.object({
  GEOCODER_URL: z.url({ protocol: /^https?$/ }).optional(),
  GEOCODER_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(3000),
  /** Answers kept, keyed by position to ~11 m (4 decimals). */
  GEOCODER_CACHE_SIZE: z.coerce.number().int().min(0).max(1_000_000).default(20_000),
  /** Sent as Accept-Language to the external geocoder (e.g. en, sw). */
  GEOCODER_LANGUAGE: z
    .string()
    .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*(,\s*[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*)*$/, 'a language list such as en or sw,en')
    .default('en'),
});
export type GeocoderSettings = z.infer<typeof GeocoderEnv>;
