import { readFileSync } from 'node:fs';

/**
 * The offline gazetteer's data files (packages/geodata/data, built by tools/geodata/build-basemap.ts
 * from GeoNames cities500, CC BY 4.0, and Natural Earth 1:10m admin-0, public domain), read once.
 * The same towns.geojson and roads.geojson are the console's base-map layers (served as static files).
 */
export interface GazetteerTown {
  readonly name: string;
  /** ISO 3166-1 alpha-2. */
  readonly country: string;
  readonly lon: number;
  readonly lat: number;
  /** GeoNames population (0 when unknown). */
  readonly population: number;
  /** Label rank: 1 capitals and cities of a million, 2 regional capitals and cities of 100,000, 3 towns of 20,000 and district seats, 4 the rest. */
  readonly rank: 1 | 2 | 3 | 4;
  /** geonames; corridor (a waypoint of corridors.ts); map (a trunk road's town GeoNames lacks, placed from public maps). */
  readonly source: 'geonames' | 'corridor' | 'map';
}

export interface CountryOutline {
  /** ISO 3166-1 alpha-2. */
  readonly code: string;
  readonly name: string;
  /** Polygons, each rings of [lon, lat] (the first ring the outline, the others holes). */
  readonly polygons: readonly (readonly (readonly [number, number])[][])[];
}

interface FeatureCollection<G, P> {
  features: { geometry: G; properties: P }[];
}

const dataFile = (name: string): URL => new URL(`../data/${name}`, import.meta.url);
const readJson = <T>(name: string): T => JSON.parse(readFileSync(dataFile(name), 'utf8')) as T;

export function loadTowns(): GazetteerTown[] {
  const fc = readJson<FeatureCollection<{ coordinates: [number, number] }, Omit<GazetteerTown, 'lon' | 'lat'>>>('towns.geojson');
  return fc.features.map((f) => ({ ...f.properties, lon: f.geometry.coordinates[0], lat: f.geometry.coordinates[1] }));
}

export function loadCountries(): CountryOutline[] {
  const fc = readJson<FeatureCollection<{ coordinates: [number, number][][][] }, { code: string; name: string }>>('countries.geojson');
  return fc.features.map((f) => ({ code: f.properties.code, name: f.properties.name, polygons: f.geometry.coordinates }));
}

/** Where the base-map files are on disk (the console imports them by package path; a server may serve them). */
export const BASEMAP_FILES = {
  towns: dataFile('towns.geojson'),
  roads: dataFile('roads.geojson'),
} as const;
