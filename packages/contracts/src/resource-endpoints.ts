import { z } from 'zod';
import { Pagination } from './common';
import { defineEndpoint, type Access } from './endpoint';
import { idParam, ref, type ReferenceKind } from './references';
import type { Role } from './roles';

/**
 * Traccar's CRUD pattern (BaseObjectResource) for one resource: GET list, POST create, GET {id},
 * PUT {id} (full entity), DELETE {id} → 204. Every tracking resource of ops-api is defined with it,
 * so they answer alike.
 */

/** Roles that change tracking resources (admin always passes). Association roles read. */
export const trackingWriters: Role[] = ['admin', 'dispatcher'];

/** A boolean query flag: only "true"/"false" (z.coerce.boolean would read "false" as true). */
export const queryFlag = z.enum(['true', 'false']).transform((v) => v === 'true');

/** Query parameters every list takes; resources add their own filters (deviceId, groupId, ...). */
export const ListQuery = Pagination.extend({
  keyword: z.string().max(100).optional().describe("Text search over the resource's names and identifiers"),
  companyId: ref('company', z.coerce.number().int().positive())
    .optional()
    .describe('Staff only: narrow to one company (company users always see their own)'),
});

/** companyId on an input: the owning company (company callers may leave it out: theirs is used). */
export const OwnerCompanyInput = ref('company', z.number().int().positive())
  .nullable()
  .default(null)
  .describe('Owning company. Company callers may omit it (their company is used); staff may leave it null for a shared entry.');

/** Traccar's `{ type }` items (command types, notification types, notificators). */
export const TypeItem = z.object({ type: z.string() }).meta({ id: 'TypeItem' });

type ZodObj = z.ZodType<Record<string, unknown>>;

export interface ResourceSpec<E extends z.ZodTypeAny, I extends z.ZodTypeAny, Q extends ZodObj> {
  /** Endpoint id prefix, e.g. 'groups'. */
  id: string;
  /** Collection path, e.g. '/groups'. */
  path: string;
  /** Singular noun for summaries, e.g. 'group'. */
  noun: string;
  /** What the `{id}` of its paths refers to. */
  kind: ReferenceKind;
  tags: string[];
  entity: E;
  input: I;
  query: Q;
  /** Who reads (default any signed-in user), writes (create/update) and deletes (default = write). */
  read?: Access;
  write: Access;
  remove?: Access;
  /** Company users see only their company's entries. */
  companyScoped: boolean;
  description?: string;
}

export function resourceEndpoints<E extends z.ZodTypeAny, I extends z.ZodTypeAny, Q extends ZodObj>(s: ResourceSpec<E, I, Q>) {
  const common = {
    service: 'ops-api' as const,
    tags: s.tags,
    companyScoped: s.companyScoped,
    ...(s.description ? { description: s.description } : {}),
  };
  const read = s.read ?? 'authenticated';
  return [
    defineEndpoint({
      ...common,
      id: `${s.id}.list`,
      method: 'get',
      path: s.path,
      summary: `List ${s.noun} entries`,
      access: read,
      request: { query: s.query },
      responses: { 200: { description: `The ${s.noun} entries the caller may see, paginated`, schema: z.array(s.entity) } },
    }),
    defineEndpoint({
      ...common,
      id: `${s.id}.create`,
      method: 'post',
      path: s.path,
      summary: `Create a ${s.noun}`,
      access: s.write,
      request: { body: s.input },
      responses: { 200: { description: `The created ${s.noun} (with its id)`, schema: s.entity } },
    }),
    defineEndpoint({
      ...common,
      id: `${s.id}.get`,
      method: 'get',
      path: `${s.path}/{id}`,
      summary: `One ${s.noun}`,
      access: read,
      request: { params: idParam(s.kind) },
      responses: { 200: { description: `The ${s.noun}`, schema: s.entity } },
    }),
    defineEndpoint({
      ...common,
      id: `${s.id}.update`,
      method: 'put',
      path: `${s.path}/{id}`,
      summary: `Replace a ${s.noun}`,
      access: s.write,
      request: { params: idParam(s.kind), body: s.input },
      responses: { 200: { description: `The updated ${s.noun}`, schema: s.entity } },
    }),
    defineEndpoint({
      ...common,
      id: `${s.id}.delete`,
      method: 'delete',
      path: `${s.path}/{id}`,
      summary: `Delete a ${s.noun}`,
      access: s.remove ?? s.write,
      request: { params: idParam(s.kind) },
      responses: { 204: { description: 'Deleted', schema: null } },
    }),
  ] as const;
}
export type ResourceEndpoints<E extends z.ZodTypeAny, I extends z.ZodTypeAny, Q extends ZodObj> = ReturnType<
  typeof resourceEndpoints<E, I, Q>
>;
