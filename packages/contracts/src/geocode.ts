import { z } from 'zod';
import { defineEndpoint } from './endpoint';

const degrees = (name: 'latitude' | 'longitude', limit: 90 | 180) =>
  z.coerce
    .number({ error: `${name} must be a number of decimal degrees` })
    .min(-limit, `${name} must be from -${limit} to ${limit}`)
    .max(limit, `${name} must be from -${limit} to ${limit}`);

/** Traccar's GET /api/server/geocode query (latitude and longitude, required). */
export const GeocodeQuery = z.object({
  latitude: degrees('latitude', 90).describe('WGS84 decimal degrees, -90 to 90'),
  longitude: degrees('longitude', 180).describe('WGS84 decimal degrees, -180 to 180'),
});

export const geocodeEndpoints = [
  defineEndpoint({
    id: 'server.geocode',
    method: 'get',
    path: '/server/geocode',
    service: 'gateway',
    tags: ['system'],
    access: 'authenticated',
    summary: "Reverse geocode a position (Traccar's /api/server/geocode): its address as text",
    description:
      "The address of the point, as positions, reports and events show it. By default offline, from the server's own " +
      "gazetteer (GeoNames towns, Natural Earth countries, the corridors' sites): the nearest named place with distance and " +
      'compass direction, "14 km NW of Voi, KE"; a named site the point is on, "Malaba OSBP, KE"; the country of the point ' +
      'when the place is across a border, "5 km N of Namanga (TZ), KE"; "at sea, …" off the coast; the coordinates where no ' +
      'town is within 300 km. With GEOCODER_URL set, a Nominatim-compatible service answers instead (its display_name), ' +
      'the offline address when it fails. Unlike Traccar, geocoding is always on: never 500 "not enabled".',
    request: { query: GeocodeQuery },
    responses: { 200: { description: 'The address (UTF-8 text)', schema: z.string(), contentType: 'text/plain' } },
  }),
] as const;
