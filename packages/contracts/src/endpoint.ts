import type { z } from 'zod';
import type { Role } from './roles';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type ServiceName = 'gateway' | 'ingest' | 'journey' | 'geofence' | 'ops-api';

/** Who may call an endpoint: anyone, any signed-in user, or the listed roles. */
export type Access = 'public' | 'authenticated' | readonly Role[];

type ZodObj = z.ZodType<Record<string, unknown>>;

export interface EndpointDef {
  /** Unique id, e.g. 'positions.list'. */
  id: string;
  method: HttpMethod;
  /** OpenAPI-style path below /api, e.g. '/positions/{id}'. */
  path: string;
  service: ServiceName;
  summary: string;
  description?: string;
  tags: string[];
  access: Access;
  /** When true, company users see only their company's data (enforced by the owning service). */
  companyScoped?: boolean;
  request?: { params?: ZodObj; query?: ZodObj; body?: z.ZodTypeAny; bodyContentType?: string };
  /** Success responses by status. A null schema means no body (e.g. 204). */
  responses: Record<number, { description: string; schema: z.ZodTypeAny | null; contentType?: string }>;
}

export function defineEndpoint<const T extends EndpointDef>(def: T): T {
  return def;
}

/** '/positions/{id}' → '/api/positions/:id' for fastify. */
export function fastifyPath(def: Pick<EndpointDef, 'path'>): string {
  return '/api' + def.path.replace(/\{([^}]+)\}/g, ':$1');
}
