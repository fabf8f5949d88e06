import { z } from 'zod';
import { ref, optionalRef } from './references';
import { Attributes } from './common';
import { ListQuery, OwnerCompanyInput, resourceEndpoints, trackingWriters } from './resource-endpoints';

/** Group, in Traccar's shape (plus companyId): devices are grouped, groups nest through groupId. */
export const Group = z
  .object({
    id: z.number().int().positive(),
    name: z.string(),
    groupId: z.number().int().min(0).describe('Parent group; 0 = none (Traccar)'),
    companyId: z.number().int().nullable(),
    attributes: Attributes,
  })
  .meta({ id: 'Group' });
export type Group = z.infer<typeof Group>;

export const GroupInput = z
  .object({
    name: z.string().min(1).max(128),
    groupId: optionalRef('group').describe('Parent group (same company; no cycles)'),
    companyId: OwnerCompanyInput,
    attributes: Attributes.default({}),
  })
  .meta({ id: 'GroupInput' });
export type GroupInput = z.infer<typeof GroupInput>;

export const GroupsQuery = ListQuery.extend({
  groupId: ref('group', z.coerce.number().int().positive()).optional().describe('Only the direct children of this group'),
});

export const groupsEndpoints = resourceEndpoints({
  id: 'groups',
  path: '/groups',
  noun: 'group',
  kind: 'group',
  tags: ['groups'],
  entity: Group,
  input: GroupInput,
  query: GroupsQuery,
  write: trackingWriters,
  companyScoped: true,
  description: 'Traccar Group. A group with child groups cannot be deleted (409). Keyword searches the name.',
});
