/**
 * One reverse lookup against a Nominatim-compatible service (Nominatim's /reverse API:
 * format=jsonv2, lat, lon; answers { display_name }, or { error } where it knows no address). Null when the service knows no
 * address there (at sea, say); throws on any other answer than a 200, and after `timeoutMs`.
 */
export function nominatimLookup(opts: { url: string; timeoutMs: number; language: string; fetch: typeof fetch }) {
  return async (latitude: number, longitude: number): Promise<string | null> => {
    const url = new URL(opts.url);
    url.searchParams.set('format', 'jsonv2');
    url.searchParams.set('lat', String(latitude));
    url.searchParams.set('lon', String(longitude));
    const res = await opts.fetch(url, {
      headers: { accept: 'application/json', 'accept-language': opts.language, 'user-agent': 'Corridor telematics (reverse geocoding)' },
      signal: AbortSignal.timeout(opts.timeoutMs),
      redirect: 'error',
    });
    if (!res.ok) throw new Error(`geocoder answered HTTP ${res.status}`);
    const body = (await res.json()) as { display_name?: unknown; error?: unknown };
    if (typeof body.display_name === 'string' && body.display_name.trim()) return body.display_name.trim();
    if (typeof body.error === 'string') return null;
    throw new Error('geocoder answered neither display_name nor error');
  };
}
