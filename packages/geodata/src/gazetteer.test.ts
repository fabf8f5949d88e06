import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { CORRIDORS } from './corridors';
import { countryIndex } from './country-index';
import { BASEMAP_FILES, loadCountries, loadTowns } from './gazetteer';
import { NEIGHBOUR_BOX, WHOLE_COUNTRIES } from './gazetteer-region';
import { distanceMetres } from './geo-math';
import { offlineGeocoder } from './reverse-geocoder';

const towns = loadTowns();
const countries = countryIndex(loadCountries());
const roads = JSON.parse(readFileSync(BASEMAP_FILES.roads, 'utf8')) as {
  features: { properties: { ref: string; name: string }; geometry: { coordinates: [number, number][] } }[];
};
const inRegion = ([lon, lat]: readonly [number, number]) => lon >= 23 && lon <= 42.5 && lat >= -12.5 && lat <= 12.5;

describe('the base-map data (packages/geodata/data)', () => {
  it('has the towns of the corridor countries, each in the region and in the country it names', () => {
    for (const cc of WHOLE_COUNTRIES) expect(towns.filter((t) => t.country === cc).length, cc).toBeGreaterThan(5);
    for (const t of towns) expect(inRegion([t.lon, t.lat]), t.name).toBe(true);
    // GeoNames' country against Natural Earth's outline: only towns on a border may differ
    const elsewhere = towns.filter((t) => {
      const c = countries.at(t.lon, t.lat);
      return c !== null && c !== t.country;
    });
    expect(elsewhere.length, elsewhere.map((t) => `${t.name} ${t.country}`).join(', ')).toBeLessThan(towns.length / 50);
    expect(towns.filter((t) => t.rank === 1).map((t) => t.name)).toEqual(
      expect.arrayContaining(['Nairobi', 'Kampala', 'Kigali', 'Dar es Salaam', 'Mombasa']),
    );
  });

  it('knows every corridor town (a GeoNames town or the corridor waypoint itself within 10 km)', () => {
    for (const c of CORRIDORS) {
      for (const w of c.waypoints) {
        const near = towns.some((t) => distanceMetres([t.lon, t.lat], w.coord) < 10_000);
        expect(near, `${c.id}: ${w.name}`).toBe(true);
      }
    }
  });

  it('places every corridor waypoint in its own country (Natural Earth outlines; a port on the water by its site)', () => {
    const geocoder = offlineGeocoder();
    for (const c of CORRIDORS)
      for (const w of c.waypoints) expect(geocoder.reverse(w.coord[1], w.coord[0]).country, w.name).toBe(w.country);
  });

  it('draws each trunk road through towns of the gazetteer, inside the region', () => {
    expect(roads.features.length).toBeGreaterThan(30);
    for (const r of roads.features) {
      const line = r.geometry.coordinates;
      expect(line.length, r.properties.name).toBeGreaterThanOrEqual(2);
      for (const p of line) {
        expect(inRegion(p), r.properties.name).toBe(true);
        expect(
          towns.some((t) => distanceMetres([t.lon, t.lat], p) < 100) ||
            CORRIDORS.some((c) => c.waypoints.some((w) => distanceMetres(w.coord, p) < 100)),
          `${r.properties.name} at ${p.join(',')}`,
        ).toBe(true);
      }
    }
  });

  it('keeps what the browser downloads small: towns and roads under 40 KiB gzipped together', () => {
    const gz = (u: URL) => gzipSync(readFileSync(u), { level: 9 }).length;
    expect(gz(BASEMAP_FILES.towns) + gz(BASEMAP_FILES.roads)).toBeLessThan(40 * 1024);
  });

  it('covers the neighbours only within the region box', () => {
    const [w, s, e, n] = NEIGHBOUR_BOX;
    for (const t of towns.filter((x) => !WHOLE_COUNTRIES.includes(x.country) && x.source === 'geonames')) {
      expect(t.lon >= w && t.lon <= e && t.lat >= s && t.lat <= n, `${t.name} ${t.country}`).toBe(true);
    }
  });
});
