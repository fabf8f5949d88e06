import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { geocodeEndpoints } from '@corridor/contracts/geocode';
import { parseAddress } from '@corridor/geodata/address-format';
import { endpoint } from '../api/endpoint';
import { useApiQuery } from '../api/hooks';
import { useFormat, type Formatters } from '../i18n/format';

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
 * The server's offline address in the reader's language: "14 km NW of Voi, KE" reads "km 14
 * kaskazini-magharibi mwa Voi, KE" in Swahili (the parts from packages/geodata's address-format,
 * the words from the catalogue). Any other text (an external geocoder's) is shown as given.
 */
export function wordAddress(address: string, t: TFunction, f: Pick<Formatters, 'number'>): string {
  const parts = parseAddress(address);
  if (!parts) return address;
  const sea = (where: string) => (parts.atSea ? t('address.atSea', { where }) : where);
  if (parts.kind === 'coordinates') return sea(`${parts.latitude}, ${parts.longitude}${parts.country ? `, ${parts.country}` : ''}`);
  const place =
    parts.km !== null && parts.compass !== null
      ? t('address.near', { distance: f.number(parts.km), direction: t(`address.compass.${parts.compass}`), place: parts.place })
      : parts.place;
  const country = parts.country !== null ? ` (${parts.placeCountry}), ${parts.country}` : `, ${parts.placeCountry}`;
  return sea(place + country);
}

/**
 * A place in words ("14 km NW of Voi, KE"), in the reader's language (wordAddress): the address
 * the server stored with the fix or event when it has one, else the server's reverse geocoder (GET
 * /server/geocode, offline by default), asked once the point has stayed put for a moment and
 * remembered for the page.
 */
export function useAddress(
  where: { latitude: number | null; longitude: number | null } | null | undefined,
  settleMs = 300,
): { address: string | null; pending: boolean } {
  const stored = (where as { address?: unknown } | null | undefined)?.address;
  const has = typeof stored === 'string' && stored !== '';
  const key =
    where && where.latitude !== null && where.longitude !== null && !has ? `${round(where.latitude)},${round(where.longitude)}` : null;
  const settled = useSettled(key, settleMs);
  const [latitude, longitude] = (settled ?? '0,0').split(',').map(Number) as [number, number];
  const q = useApiQuery(
    geocode,
    { query: { latitude, longitude } },
    { enabled: settled !== null, staleTime: Infinity, gcTime: 30 * 60_000 },
  );
  const { t } = useTranslation();
  const f = useFormat();
  if (has) return { address: wordAddress(stored, t, f), pending: false };
  if (key === null) return { address: null, pending: false };
  const found = settled === key ? (q.data ?? null) : null;
  return { address: found === null ? null : wordAddress(found, t, f), pending: settled !== key || q.isPending };
}
