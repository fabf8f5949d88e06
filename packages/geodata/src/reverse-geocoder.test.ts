import { describe, expect, it } from 'vitest';
import { compassOf, createReverseGeocoder, offlineGeocoder } from './reverse-geocoder';
import { loadTowns } from './gazetteer';

// Independent geometry for the hand checks (not the package's geo-math): haversine and initial bearing.
const R = 6371.0088;
const rad = (d: number): number => (d * Math.PI) / 180;
function km(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const h = Math.sin(rad(lat2 - lat1) / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(rad(lon2 - lon1) / 2) ** 2;
  return 2 * R * Math.asin(Math.sqrt(h));
}
function bearing(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const y = Math.sin(rad(lon2 - lon1)) * Math.cos(rad(lat2));
  const x = Math.cos(rad(lat1)) * Math.sin(rad(lat2)) - Math.sin(rad(lat1)) * Math.cos(rad(lat2)) * Math.cos(rad(lon2 - lon1));
  return ((Math.atan2(y, x) * 180) / Math.PI + 360) % 360;
}

const geocoder = offlineGeocoder();
const town = (name: string, country: string) => {
  const t = loadTowns().find((x) => x.name === name && x.country === country);
  if (!t) throw new Error(`${name}, ${country} is not in the gazetteer`);
  return t;
};

describe('offline reverse geocoding: known places', () => {
  it('names the town itself within a kilometre of its centre', () => {
    const kigali = town('Kigali', 'RW');
    const r = geocoder.reverse(kigali.lat + 0.003, kigali.lon);
    expect(r.address).toBe('Kigali, RW');
    expect(r.country).toBe('RW');
    expect(r.place).toMatchObject({ name: 'Kigali', country: 'RW', kind: 'town' });
    expect(r.distanceMetres).toBeCloseTo(km(kigali.lat + 0.003, kigali.lon, kigali.lat, kigali.lon) * 1000, -1);
  });

  it('gives distance and bearing from the nearest town: 14 km NW of Voi', () => {
    // GeoNames places Voi at 3.39605 S, 38.55609 E; the point is 0.086° north and west of it:
    // 9.57 km north and 9.55 km west, 13.5 km at 315°
    const voi = town('Voi', 'KE');
    const [lat, lon] = [-3.31, 38.47];
    const r = geocoder.reverse(lat, lon);
    expect(r.address).toBe('14 km NW of Voi, KE');
    expect(r.distanceMetres! / 1000).toBeCloseTo(km(voi.lat, voi.lon, lat, lon), 2);
    expect(r.distanceMetres! / 1000).toBeCloseTo(13.52, 1);
    expect(r.bearingDegrees!).toBeCloseTo(bearing(voi.lat, voi.lon, lat, lon), 3);
    expect(r.bearingDegrees!).toBeCloseTo(315, 0);
    expect(r.compass).toBe('NW');
  });

  it('measures from the town to the point: east of Mtito Andei on the Mombasa road', () => {
    const mtito = town('Mtito Andei', 'KE');
    const r = geocoder.reverse(-2.7, 38.2);
    expect(r.place?.name).toBe('Mtito Andei');
    expect(r.distanceMetres! / 1000).toBeCloseTo(km(mtito.lat, mtito.lon, -2.7, 38.2), 2); // 3.85 km
    expect(r.address).toBe('4 km E of Mtito Andei, KE');
  });

  it('names a border post, port or depot when the point is on the site', () => {
    expect(geocoder.reverse(-2.545, 36.788).address).toBe('Namanga OSBP, KE');
    expect(geocoder.reverse(-1.33, 36.9)).toMatchObject({
      address: 'Inland Container Depot Nairobi (Embakasi), KE',
      distanceMetres: 0,
      place: { kind: 'inland_depot' },
    });
    // Kilindini's quays are on the water by the 1:10m coastline: the site says where the point is
    expect(geocoder.reverse(-4.056, 39.646)).toMatchObject({
      country: 'KE',
      atSea: false,
      place: { kind: 'port' },
      address: 'Port of Mombasa (Kilindini and Kipevu), KE',
    });
  });
});

describe('offline reverse geocoding: the sea, remote places and borders', () => {
  it('says "at sea" off the coast, relative to the nearest coastal town', () => {
    const r = geocoder.reverse(-4.1, 39.75);
    expect(r).toMatchObject({ atSea: true, country: null, address: 'at sea, 11 km SE of Mombasa, KE' });
  });

  it('gives coordinates far out at sea, with no town within reach', () => {
    expect(geocoder.reverse(-5, 50)).toMatchObject({ atSea: true, country: null, place: null, address: 'at sea, -5.0000, 50.0000' });
  });

  it("is on land, in a country, on Lake Victoria (the lake is within the countries' outlines)", () => {
    const r = geocoder.reverse(-0.5, 33.0);
    expect(r.atSea).toBe(false);
    expect(r.country).toBe('UG');
  });

  it('names a distant town in an empty area (the Chalbi desert)', () => {
    const r = geocoder.reverse(3.0, 37.5);
    expect(r.country).toBe('KE');
    expect(r.distanceMetres! / 1000).toBeGreaterThan(50);
    expect(r.address).toMatch(/^\d+ km [NSEW]{1,2} of .+, KE$/);
  });

  it('gives the country and coordinates where no town is within the limit, and only coordinates outside the covered region', () => {
    const few = createReverseGeocoder({ towns: [town('Voi', 'KE')], maxDistanceKm: 50 });
    expect(few.reverse(0.5, 37.5)).toMatchObject({ address: '0.5000, 37.5000, KE', place: null, country: 'KE' });
    expect(geocoder.reverse(48.85, 2.35)).toMatchObject({ address: '48.8500, 2.3500', country: null, atSea: false, place: null });
  });

  it('names the right country on each side of the Kenya – Tanzania border at Namanga', () => {
    const kenyaSide = geocoder.reverse(-2.51, 36.79); // 4.6 km north of the border town
    const tanzaniaSide = geocoder.reverse(-2.6, 36.78); // 5.4 km south
    expect(kenyaSide.country).toBe('KE');
    expect(tanzaniaSide.country).toBe('TZ');
    // the nearest town is Namanga (TZ), across the border from the Kenyan point: both countries are said
    expect(kenyaSide.address).toBe('5 km N of Namanga (TZ), KE');
    expect(tanzaniaSide.address).toBe('5 km S of Namanga, TZ');
  });

  it('names the right country on each side of the Kenya – Uganda border near Malaba and of the Rwanda – Tanzania border at Rusumo', () => {
    expect(geocoder.reverse(0.66, 34.15)).toMatchObject({ country: 'UG', address: '5 km SW of Tororo, UG' });
    expect(geocoder.reverse(0.6, 34.4).country).toBe('KE');
    expect(geocoder.reverse(-2.36, 30.76).country).toBe('RW');
    expect(geocoder.reverse(-2.42, 30.8).country).toBe('TZ');
  });

  it("prefers a town of the point's own country over a slightly nearer one across the border", () => {
    const voi = town('Voi', 'KE');
    const near = { ...voi, name: 'Across', country: 'TZ', lat: voi.lat + 0.02 };
    const g = createReverseGeocoder({ towns: [near, { ...voi, lat: voi.lat - 0.03 }], sites: [] });
    expect(g.reverse(voi.lat, voi.lon).place?.name).toBe('Voi'); // 3.3 km against 2.2 km across the border
  });
});

describe('input and helpers', () => {
  it('refuses coordinates out of range or not numbers', () => {
    expect(() => geocoder.reverse(91, 0)).toThrow(RangeError);
    expect(() => geocoder.reverse(0, -181)).toThrow(/longitude/);
    expect(() => geocoder.reverse(Number.NaN, 0)).toThrow(/latitude/);
  });

  it('maps bearings to the 8-point compass', () => {
    expect([0, 22.4, 22.6, 90, 135, 180, 247.5, 292.6, 337.4, 337.6, 359.9, 360].map(compassOf)).toEqual([
      'N',
      'N',
      'NE',
      'E',
      'SE',
      'S',
      'W',
      'NW',
      'NW',
      'N',
      'N',
      'N',
    ]);
  });
});
