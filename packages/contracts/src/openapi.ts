import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import type { z } from 'zod';
import { ErrorBody } from './common';
import { ErrorCatalogue, type ErrorCode } from './errors';
import type { EndpointDef } from './endpoint';
import { endpointReferences } from './references';

type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

/** Error statuses every endpoint may answer, by access kind. */
function errorResponsesFor(def: EndpointDef): ErrorCode[] {
  const codes: ErrorCode[] = ['VALIDATION_FAILED', 'INTERNAL', 'UNAVAILABLE'];
  if (def.access !== 'public') codes.push('UNAUTHENTICATED', 'FORBIDDEN', 'RATE_LIMITED');
  const refs = endpointReferences(def);
  // an id the caller may not see answers like an unknown one, wherever the request carries it
  if (def.path.includes('{') || refs.query.length || refs.body.length) codes.push('NOT_FOUND');
  return codes;
}

/** Generates the OpenAPI 3.1 document from endpoint definitions; never hand-written. */
export function generateOpenApi(
  endpoints: readonly EndpointDef[],
  info: { title: string; version: string; description?: string } = { title: 'Corridor API', version: '0.1.0' },
): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'session', { type: 'apiKey', in: 'cookie', name: 'corridor_session' });
  registry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer' });
  for (const def of endpoints) {
    const responses: Record<string, { description: string; content?: Record<string, { schema: z.ZodTypeAny }> }> = {};
    for (const [status, r] of Object.entries(def.responses)) {
      responses[status] = r.schema
        ? { description: r.description, content: { [r.contentType ?? 'application/json']: { schema: r.schema } } }
        : { description: r.description };
    }
    for (const code of errorResponsesFor(def)) {
      const status = String(ErrorCatalogue[code].status);
      if (!responses[status]) {
        responses[status] = { description: ErrorCatalogue[code].description, content: { 'application/json': { schema: ErrorBody } } };
      }
    }
    registry.registerPath({
      method: def.method,
      path: '/api' + def.path,
      operationId: def.id,
      summary: def.summary,
      ...(def.description ? { description: def.description } : {}),
      tags: def.tags,
      security: def.access === 'public' ? [] : [{ session: [] }, { bearer: [] }],
      'x-service': def.service,
      'x-access': def.access === 'public' || def.access === 'authenticated' ? def.access : [...def.access],
      'x-error-codes': errorResponsesFor(def),
      request: {
        ...(def.request?.params ? { params: def.request.params as never } : {}),
        ...(def.request?.query ? { query: def.request.query as never } : {}),
        ...(def.request?.body
          ? { body: { content: { [def.request.bodyContentType ?? 'application/json']: { schema: def.request.body } } } }
          : {}),
      },
      responses,
    });
  }
  const generator = new OpenApiGeneratorV31(registry.definitions);
  const doc = generator.generateDocument({
    openapi: '3.1.0',
    info: {
      ...info,
      description:
        info.description ??
        'Corridor: telematics and freight-corridor platform. Errors: ' +
          Object.entries(ErrorCatalogue)
            .map(([c, v]) => `${c} (${v.status})`)
            .join(', '),
    },
    servers: [{ url: '/' }],
  });
  (doc as unknown as Record<string, unknown>)['x-error-catalogue'] = ErrorCatalogue;
  return doc;
}
