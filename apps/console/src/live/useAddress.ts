import { useEffect, useState } from 'react';
import { geocodeEndpoints } from '@corridor/contracts/geocode';
import { endpoint } from '../api/endpoint';
import { useApiQuery } from '../api/hooks';

const geocode = endpoint(geocodeEndpoints, 'server.geocode');

/** A point asked about is rounded to this many decimals (~11 m): nearby fixes share one answer. */
const DECIMALS = 4;
const round = (v: number) => Math.round(v * 10 ** DECIMALS) / 10 ** DECIMALS;

/** The value once it has stayed the same for `ms` (a replay playing does not ask for every fix it passes). */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * A place in words ("14 km NW of Voi, KE"): the address the server stored with the fix or event
 * when it has one, else the server's reverse geocoder (GET /server/geocode, offline by default),
 * asked once the point has stayed put for a moment and remembered for the page.
 */
export function useAddress(where: { latitude: number | null; longitude: number | null } | null | undefined, settleMs = 300): { address: string | null; pending: boolean } {
  const stored = (where as { address?: unknown } | null | undefined)?.address;
  const has = typeof stored === 'string' && stored !== '';
  const key = where && where.latitude !== null && where.longitude !== null && !has ? `${round(where.latitude)},${round(where.longitude)}` : null;
  const settled = useSettled(key, settleMs);
  const [latitude, longitude] = (settled ?? '0,0').split(',').map(Number) as [number, number];
  const q = useApiQuery(geocode, { query: { latitude, longitude } }, { enabled: settled !== null, staleTime: Infinity, gcTime: 30 * 60_000 });
  if (has) return { address: stored, pending: false };
  if (key === null) return { address: null, pending: false };
  return { address: settled === key ? (q.data ?? null) : null, pending: settled !== key || q.isPending };
}
