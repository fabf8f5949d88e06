import { allEndpoints, generateOpenApi, systemEndpoints } from '@corridor/contracts';
import { registerEndpoint, type App } from '@corridor/platform';

const [openapiEndpoint] = systemEndpoints;

/** GET /api/openapi.json: the merged document of every service, generated from the contracts. */
export function systemRoutes(app: App, opts: { version: string }): void {
  const document = generateOpenApi(allEndpoints, { title: 'Corridor API', version: opts.version });
  registerEndpoint(app, openapiEndpoint, async () => document as unknown as Record<string, unknown>);
}
