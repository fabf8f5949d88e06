import { z } from 'zod';
import { ref } from './references';
import { defineEndpoint } from './endpoint';
import { ListQuery, trackingWriters } from './resource-endpoints';

/**
 * Traccar's links of drivers, computed attributes, saved commands, maintenance and calendars (its
 * permissions with driverId, attributeId, commandId, maintenanceId or calendarId): to a device or a
 * group (not calendars), or to a user. ops-api keeps them (ops.object_links) beside the objects; the
 * gateway's /permissions forwards them here. What a link does: the lists' ?deviceId, ?groupId and
 * ?userId filters answer the objects linked so; a computed attribute applies to the devices linked to
 * it (directly or through their group), as in Traccar.
 */
export const objectLinkProperties = ['driverId', 'attributeId', 'commandId', 'maintenanceId', 'calendarId'] as const;
export type ObjectLinkProperty = (typeof objectLinkProperties)[number];
export const objectLinkOwners = ['userId', 'deviceId', 'groupId'] as const;
export type ObjectLinkOwner = (typeof objectLinkOwners)[number];

/** The links that exist: every property to a user; all but calendars to a device or a group. */
export const objectLinkPairs: readonly (readonly [ObjectLinkOwner, ObjectLinkProperty])[] = objectLinkOwners.flatMap((owner) =>
  objectLinkProperties.filter((p) => owner === 'userId' || p !== 'calendarId').map((p) => [owner, p] as const),
);

const linkId = z.number().int().positive().max(2147483647);
const refOf = {
  userId: ref('user', linkId),
  deviceId: ref('device', linkId),
  groupId: ref('group', linkId),
  driverId: ref('driver', linkId),
  attributeId: ref('computedAttribute', linkId),
  commandId: ref('command', linkId),
  maintenanceId: ref('maintenance', linkId),
  calendarId: ref('calendar', linkId),
};

export const ObjectLink = z
  .union(
    objectLinkPairs.map(([o, p]) => z.strictObject({ [o]: refOf[o], [p]: refOf[p] })) as unknown as [
      z.ZodObject,
      z.ZodObject,
      ...z.ZodObject[],
    ],
    {
      error: `one owner (${objectLinkOwners.join(', ')}) and one of ${objectLinkProperties.join(', ')} (calendars link to users only)`,
    },
  )
  .meta({ id: 'ObjectLink' });
export type ObjectLink = Partial<Record<ObjectLinkOwner | ObjectLinkProperty, number>>;

const queryId = z.coerce.number().int().min(0).max(2147483647).optional().describe('0 = any');
export const ObjectLinksQuery = z
  .object({
    userId: ref('user', queryId),
    deviceId: ref('device', queryId),
    groupId: ref('group', queryId),
    driverId: ref('driver', queryId),
    attributeId: ref('computedAttribute', queryId),
    commandId: ref('command', queryId),
    maintenanceId: ref('maintenance', queryId),
    calendarId: ref('calendar', queryId),
    limit: z.coerce.number().int().min(1).max(10000).default(1000),
    offset: z.coerce.number().int().min(0).default(0),
  })
  .refine(
    (q) =>
      objectLinkOwners.filter((k) => q[k] !== undefined).length === 1 &&
      objectLinkProperties.filter((k) => q[k] !== undefined).length === 1,
    {
      message: `exactly one of ${objectLinkOwners.join(', ')} and one of ${objectLinkProperties.join(', ')} (0 = any)`,
      path: [],
    },
  );

const listId = z.coerce.number().int().positive().max(2147483647);
/**
 * Traccar's list parameters for the objects it links: with deviceId, groupId or userId, only the
 * objects linked to that device, group or user (directly, as Traccar's lists answer them: a client
 * ticks the linked ones in its list of all).
 */
export const LinkedListQuery = ListQuery.extend({
  deviceId: ref('device', listId).optional().describe('only those linked to this device'),
  groupId: ref('group', listId).optional().describe('only those linked to this group'),
  userId: ref('user', listId).optional().describe('only those linked to this user'),
});

const tags = ['permissions'];
export const objectLinksEndpoints = [
  defineEndpoint({
    service: 'ops-api',
    id: 'objectLinks.list',
    method: 'get',
    path: '/links/objects',
    tags,
    companyScoped: true,
    access: 'authenticated',
    summary: 'Links of drivers, computed attributes, saved commands, maintenance and calendars (Traccar permissions with those ids)',
    description: "One owner key and one object key; 0 = any. A company user sees the links of their company's devices, groups and objects.",
    request: { query: ObjectLinksQuery },
    responses: { 200: { description: 'Links', schema: z.array(ObjectLink) } },
  }),
  defineEndpoint({
    service: 'ops-api',
    id: 'objectLinks.create',
    method: 'post',
    path: '/links/objects',
    tags,
    companyScoped: true,
    access: trackingWriters,
    summary: 'Link objects to devices, groups or users (all or nothing; an existing link 409, a repeated item 400)',
    description:
      'Links to a user are for administrators (403 otherwise). A device, group or object the caller may not see answers 404 naming the item.',
    request: { body: z.array(ObjectLink).min(1).max(1000) },
    responses: { 204: { description: 'Linked', schema: null } },
  }),
  defineEndpoint({
    service: 'ops-api',
    id: 'objectLinks.delete',
    method: 'delete',
    path: '/links/objects',
    tags,
    companyScoped: true,
    access: trackingWriters,
    summary: 'Unlink objects (all or nothing; an absent link 404)',
    request: { body: z.array(ObjectLink).min(1).max(1000) },
    responses: { 204: { description: 'Unlinked', schema: null } },
  }),
] as const;
