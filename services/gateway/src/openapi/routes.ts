import { allEndpoints, generateOpenApi, systemEndpoints } from '@corridor/contracts';
import { registerEndpoint, type App } from '@corridor/platform';

const [openapiEndpoint, serverEndpoint] = systemEndpoints;

/** GET /api/openapi.json: the merged document of every service, generated from the contracts. */
export function systemRoutes(app: App, opts: { version: string; openIdEnabled: boolean; openIdForce: boolean }): void {
  const document = generateOpenApi(allEndpoints, { title: 'Corridor API', version: opts.version });
  registerEndpoint(app, openapiEndpoint, async () => document as unknown as Record<string, unknown>);
  registerEndpoint(app, serverEndpoint, async () => ({
    id: 1,
    version: opts.version,
    registration: false,
    readonly: false,
    map: 'osm',
    latitude: -1.2921,
    longitude: 36.8219,
    zoom: 6,
    openIdEnabled: opts.openIdEnabled,
    openIdForce: opts.openIdEnabled && opts.openIdForce,
    attributes: {},
  }));
}
