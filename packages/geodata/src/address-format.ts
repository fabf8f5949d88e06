/**
 * The words of an offline address ("14 km NW of Voi, KE"), in one place: the reverse geocoder writes
 * them with formatAddress (English: Traccar's API gives an address as one string), and a reader in
 * another language gets the parts back with parseAddress and words them itself (the console does,
 * in English and Swahili). An address from an external geocoder does not parse and is shown as given.
 */
export type Compass = 'N' | 'NE' | 'E' | 'SE' | 'S' | 'SW' | 'W' | 'NW';
const COMPASS: readonly Compass[] = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'];

export type AddressParts =
  /** At or near a named place: the place itself (`km` null) or `km` towards `compass` of it. */
  | {
      kind: 'place';
      atSea: boolean;
      km: number | null;
      compass: Compass | null;
      place: string;
      /** ISO 3166-1 alpha-2 of the place. */
      placeCountry: string;
      /** Of the point, when it is not the place's (across a border); else null. */
      country: string | null;
    }
  /** No place near enough: the coordinates, 4 decimals, with the country the point is in when known. */
  | { kind: 'coordinates'; atSea: boolean; latitude: string; longitude: string; country: string | null };

export function formatAddress(p: AddressParts): string {
  const sea = p.atSea ? 'at sea, ' : '';
  if (p.kind === 'coordinates') return `${sea}${p.latitude}, ${p.longitude}${p.country ? `, ${p.country}` : ''}`;
  const near = p.km !== null && p.compass !== null ? `${p.km} km ${p.compass} of ` : '';
  const country = p.country !== null && p.country !== p.placeCountry ? ` (${p.placeCountry}), ${p.country}` : `, ${p.placeCountry}`;
  return `${sea}${near}${p.place}${country}`;
}

const COORDINATES = /^(at sea, )?(-?\d{1,3}\.\d{4}), (-?\d{1,3}\.\d{4})(?:, ([A-Z]{2}))?$/;
const PLACE = new RegExp(`^(at sea, )?(?:(\\d+) km (${COMPASS.join('|')}) of )?(.+?)(?: \\(([A-Z]{2})\\), ([A-Z]{2})|, ([A-Z]{2}))$`);

/** The parts of an address formatAddress wrote; null for any other text (an external geocoder's). */
export function parseAddress(text: string): AddressParts | null {
  const c = COORDINATES.exec(text);
  if (c) return { kind: 'coordinates', atSea: c[1] !== undefined, latitude: c[2]!, longitude: c[3]!, country: c[4] ?? null };
  const m = PLACE.exec(text);
  if (!m) return null;
  const km = m[2] === undefined ? null : Number(m[2]);
  const compass = (m[3] as Compass | undefined) ?? null;
  return m[5] !== undefined
    ? { kind: 'place', atSea: m[1] !== undefined, km, compass, place: m[4]!, placeCountry: m[5], country: m[6]! }
    : { kind: 'place', atSea: m[1] !== undefined, km, compass, place: m[4]!, placeCountry: m[7]!, country: null };
}

/** The 8-point compass direction of a bearing (each covers 45°, N from 337.5° to 22.5°). */
export const compassOf = (bearing: number): Compass => COMPASS[Math.round((((bearing % 360) + 360) % 360) / 45) % 8]!;
