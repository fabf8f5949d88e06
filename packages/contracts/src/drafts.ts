import { z } from 'zod';
import { ref } from './references';
import { IsoDateTime } from './common';
import { queryFlag, ListQuery, resourceEndpoints } from './resource-endpoints';
import type { Role } from './roles';

/** A saved, unfinished form: only its owner sees it (admins may list everyone's with all=true). */
export const Draft = z
  .object({
    id: z.number().int().positive(),
    userId: z.number().int().describe('Owner'),
    companyId: z.number().int().nullable(),
    kind: z.string().describe('Which form, e.g. shipment, certificate, device'),
    title: z.string().nullable(),
    payload: z.unknown().describe('The form as the client saved it (JSON)'),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  })
  .meta({ id: 'Draft' });
export type Draft = z.infer<typeof Draft>;

export const DraftInput = z
  .object({
    kind: z.string().regex(/^[a-z][a-z0-9_-]{0,63}$/, 'lower-case form name'),
    title: z.string().max(200).nullable().default(null),
    payload: z
      .unknown()
      .refine((v) => v !== undefined && v !== null, 'required (any JSON value but null)')
      .refine((v) => v === undefined || (JSON.stringify(v) ?? '').length <= 256 * 1024, 'at most 256 KiB of JSON')
      .describe('The form as JSON (at most 256 KiB)'),
  })
  .meta({ id: 'DraftInput' });
export type DraftInput = z.infer<typeof DraftInput>;

export const DraftsQuery = ListQuery.omit({ companyId: true }).extend({
  kind: z.string().max(64).optional(),
  all: queryFlag.optional().describe("Admin only: every user's drafts"),
  userId: ref('user', z.coerce.number().int().positive()).optional().describe("Admin only: that user's drafts"),
});

const people: Role[] = ['admin', 'association_officer', 'association_analyst', 'dispatcher', 'company_user', 'clearing_agent'];

export const draftsEndpoints = resourceEndpoints({
  id: 'drafts',
  path: '/drafts',
  noun: 'draft',
  kind: 'draft',
  tags: ['drafts'],
  entity: Draft,
  input: DraftInput,
  query: DraftsQuery,
  read: people,
  write: people,
  companyScoped: false,
  description: 'Drafts belong to the user who saved them; another user gets 404. Keyword searches the title.',
});
