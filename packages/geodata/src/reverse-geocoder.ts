import KDBush from 'kdbush';
import { around } from 'geokdbush';
import pointInPolygon from 'point-in-polygon-hao';
import { countryIndex, type CountryIndex } from './country-index';
import { loadCountries, loadTowns, type CountryOutline, type GazetteerTown } from './gazetteer';
import { COVERAGE_BOX } from './gazetteer-region';
import { compassOf, formatAddress, type Compass } from './address-format';
import { bearingDegrees, distanceMetresLatLon } from './geo-math';
import { PLACES, type Place, type PlaceKind } from './places';

export { compassOf, type Compass } from './address-format';

export interface ReverseGeocode {
  /** For people: "14 km NW of Voi, KE", "Voi, KE", "Malaba OSBP, KE", "at sea, 21 km E of Mombasa, KE", "2 km W of Malaba (KE), UG". */
  address: string;
  /** ISO 3166-1 alpha-2 of the country the point is in; null at sea or outside the covered region. */
  country: string | null;
  /** Outside every country, inside the region the outlines cover. */
  atSea: boolean;
  /** The named place the address is relative to; null when none is near enough. */
  place: { name: string; country: string; kind: 'town' | PlaceKind; latitude: number; longitude: number } | null;
  /** From the place to the point, metres (0 inside a site). */
  distanceMetres: number | null;
  /** From the place to the point, degrees clockwise from true north. */
  bearingDegrees: number | null;
  compass: Compass | null;
}

export interface ReverseGeocoderOptions {
  towns?: readonly GazetteerTown[];
  countries?: readonly CountryOutline[];
  /** Named sites (border posts, ports, depots, weighbridges, parking): inside one, the address is the site. */
  sites?: readonly Place[];
  /** No town farther than this is named, km (default 300). */
  maxDistanceKm?: number;
}

/** Closer than this to a town's centre, the address is the town itself. */
const AT_TOWN_M = 1000;
/** A town of the point's own country is preferred to a nearer one across a border when it is at most this much farther (and at most twice as far). */
const SAME_COUNTRY_SLACK_M = 5000;
/** Sites are at most this big (radius), so only sites this close are tested. */
const MAX_SITE_RADIUS_KM = 5;

const fixed = (v: number): string => v.toFixed(4);

/**
 * Offline reverse geocoding: the nearest named place with distance and bearing, from the gazetteer
 * (gazetteer.ts) in a KDBush index searched by great-circle distance (geokdbush), the country from
 * Natural Earth outlines (country-index.ts), and packages/geodata's sites by their radius or outline.
 * Within the same country a slightly farther town is preferred to one across a border; a point outside
 * every country inside the covered region is at sea; a point with no town within maxDistanceKm gets
 * its coordinates. Synchronous and allocation-light: microseconds per lookup (bench/results/geocode.json).
 */
export function createReverseGeocoder(opts: ReverseGeocoderOptions = {}) {
  const towns = opts.towns ?? loadTowns();
  const countries: CountryIndex = countryIndex(opts.countries ?? loadCountries());
  const sites = opts.sites ?? PLACES;
  const maxKm = opts.maxDistanceKm ?? 300;

  const townIndex = new KDBush(Math.max(1, towns.length));
  for (const t of towns) townIndex.add(t.lon, t.lat);
  if (!towns.length) townIndex.add(0, 0);
  townIndex.finish();
  const siteIndex = new KDBush(Math.max(1, sites.length));
  for (const s of sites) siteIndex.add(s.center[0], s.center[1]);
  if (!sites.length) siteIndex.add(0, 0);
  siteIndex.finish();

  // a box a little larger than the largest site's radius (degrees of longitude shrink towards the poles, not near the equator)
  const siteBoxDeg = (MAX_SITE_RADIUS_KM / 111) * 1.2;
  function siteAt(lon: number, lat: number): Place | undefined {
    // a box query first: most points are near no site, and that costs a few comparisons
    for (const i of siteIndex.range(lon - siteBoxDeg, lat - siteBoxDeg, lon + siteBoxDeg, lat + siteBoxDeg)) {
      const s = sites[i];
      if (!s) continue;
      if (s.polygon && pointInPolygon([lon, lat], [s.polygon as unknown as number[][]]) !== false) return s;
      if (distanceMetresLatLon(lat, lon, s.center[1], s.center[0]) <= s.radiusMetres) return s;
    }
    return undefined;
  }

  function nearestTown(lon: number, lat: number, country: string | null): { town: GazetteerTown; metres: number } | undefined {
    const first = towns[around(townIndex, lon, lat, 1, maxKm)[0] ?? -1];
    if (!first) return undefined;
    const nearest = { town: first, metres: distanceMetresLatLon(lat, lon, first.lat, first.lon) };
    if (country === null || first.country === country) return nearest;
    // across a border from the nearest town: a town of the point's own country, if not much farther
    const boundKm = Math.min(maxKm, Math.max(2 * nearest.metres, nearest.metres + SAME_COUNTRY_SLACK_M) / 1000);
    const own = towns[around(townIndex, lon, lat, 1, boundKm, (i) => towns[i]?.country === country)[0] ?? -1];
    return own ? { town: own, metres: distanceMetresLatLon(lat, lon, own.lat, own.lon) } : nearest;
  }

  function reverse(latitude: number, longitude: number): ReverseGeocode {
    if (!Number.isFinite(latitude) || latitude < -90 || latitude > 90) throw new RangeError('latitude must be a number from -90 to 90');
    if (!Number.isFinite(longitude) || longitude < -180 || longitude > 180)
      throw new RangeError('longitude must be a number from -180 to 180');
    const outlined = countries.at(longitude, latitude);
    const covered =
      longitude >= COVERAGE_BOX[0] && longitude <= COVERAGE_BOX[2] && latitude >= COVERAGE_BOX[1] && latitude <= COVERAGE_BOX[3];
    const site = siteAt(longitude, latitude);
    // a port's quays reach past the 1:10m coastline: on a site, the point is in the site's country
    const country = outlined ?? (site ? site.country : null);
    const atSea = covered && country === null;
    const words = (placeName: string, placeCountry: string, km: number | null, compass: Compass | null, sea = atSea): string =>
      formatAddress({ kind: 'place', atSea: sea, km, compass, place: placeName, placeCountry, country });

    if (site) {
      return {
        address: words(site.name, site.country, null, null, false),
        country,
        atSea,
        place: { name: site.name, country: site.country, kind: site.kind, latitude: site.center[1], longitude: site.center[0] },
        distanceMetres: 0,
        bearingDegrees: null,
        compass: null,
      };
    }
    const near = nearestTown(longitude, latitude, country);
    if (!near) {
      return {
        address: formatAddress({
          kind: 'coordinates',
          atSea,
          latitude: fixed(latitude),
          longitude: fixed(longitude),
          country: atSea ? null : country,
        }),
        country,
        atSea,
        place: null,
        distanceMetres: null,
        bearingDegrees: null,
        compass: null,
      };
    }
    const { town, metres } = near;
    const place = { name: town.name, country: town.country, kind: 'town' as const, latitude: town.lat, longitude: town.lon };
    if (metres < AT_TOWN_M) {
      return {
        address: words(town.name, town.country, null, null),
        country,
        atSea,
        place,
        distanceMetres: metres,
        bearingDegrees: null,
        compass: null,
      };
    }
    const bearing = bearingDegrees([town.lon, town.lat], [longitude, latitude]);
    const compass = compassOf(bearing);
    return {
      address: words(town.name, town.country, Math.round(metres / 1000), compass),
      country,
      atSea,
      place,
      distanceMetres: metres,
      bearingDegrees: bearing,
      compass,
    };
  }

  return { reverse, countryAt: (latitude: number, longitude: number) => countries.at(longitude, latitude), countryName: countries.name };
}
export type ReverseGeocoder = ReturnType<typeof createReverseGeocoder>;

let shared: ReverseGeocoder | undefined;
/** The process's one offline geocoder over packages/geodata's data, built on first use (about 0.1 s). */
export const offlineGeocoder = (): ReverseGeocoder => (shared ??= createReverseGeocoder());
