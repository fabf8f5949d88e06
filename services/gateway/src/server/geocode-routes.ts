import { geocodeEndpoints } from '@corridor/contracts';
import { registerEndpoint, type App, type Geocoder } from '@corridor/platform';

const [geocodeEndpoint] = geocodeEndpoints;

/** GET /api/server/geocode (Traccar's): the address of a point as text, from the server's geocoder (offline unless GEOCODER_URL). */
export function geocodeRoutes(app: App, geocoder: Geocoder): void {
  registerEndpoint(app, geocodeEndpoint, async (req, reply) =>
    reply.type('text/plain; charset=utf-8').send((await geocoder.address(req.query.latitude, req.query.longitude)) ?? ''),
  );
}
