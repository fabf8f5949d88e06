/** A coordinate in GeoJSON order: longitude first, then latitude (WGS84 degrees). */
export type LonLat = readonly [lon: number, lat: number];

/** ISO 3166-1 alpha-2 codes of the countries the corridors and their border posts touch. */
export type CountryCode = 'KE' | 'TZ' | 'UG' | 'RW' | 'BI' | 'ZM' | 'CD' | 'SS';

export type CorridorId = 'northern' | 'central';

/** A closed ring: the first and last coordinates are identical. */
export type Ring = readonly LonLat[];
