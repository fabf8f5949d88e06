import { z } from 'zod';
import { ref } from './references';
import { MAX_ID } from './common';
import { defineEndpoint } from './endpoint';
import { trackingWriters } from './resource-endpoints';
import { objectLinkPairs, objectLinkProperties } from './object-links';

/**
 * Permissions, as Traccar has them: a link between two objects, written as an object with exactly
 * two ids (`{ "userId": 5, "deviceId": 8 }`, `{ "deviceId": 8, "geofenceId": 16 }`). The first of
 * each pair below owns the link; a geofence or a notification rule is only ever the second. A user
 * linked to a device or a group sees that device in the live feed beyond their company's, so only
 * administrators link those. Links to a notification rule (notificationId) are the rule's own
 * (its deviceIds, groupIds and recipients, kept by ops-api: /notifications/links); the gateway
 * forwards them there, and the rule's writers (admin, dispatcher) may make them for their company.
 */
export const permissionKeys = [
  'userId',
  'deviceId',
  'groupId',
  'geofenceId',
  'notificationId',
  'reportId',
  ...objectLinkProperties,
] as const;
export type PermissionKey = (typeof permissionKeys)[number];

export const permissionPairs: readonly (readonly [owner: PermissionKey, property: PermissionKey])[] = [
  ['userId', 'deviceId'],
  ['userId', 'groupId'],
  ['userId', 'geofenceId'],
  ['deviceId', 'geofenceId'],
  ['groupId', 'geofenceId'],
  ['userId', 'notificationId'],
  ['deviceId', 'notificationId'],
  ['groupId', 'notificationId'],
  ['deviceId', 'reportId'],
  ['groupId', 'reportId'],
  ...objectLinkPairs,
];

/**
 * Where a link is kept when the gateway does not keep it: ops-api keeps a notification rule's and a
 * scheduled report's (fields of that entry) and the object links; the geofence service keeps a
 * fence's links to devices and groups (its evaluator reads them). Undefined: the gateway's table
 * (links to users, and a user's fences).
 */
export function linkStore(keys: readonly string[]): { service: 'ops-api' | 'geofence'; path: string } | undefined {
  if (keys.includes('notificationId')) return { service: 'ops-api', path: '/notifications/links' };
  if (keys.includes('reportId')) return { service: 'ops-api', path: '/reports/links' };
  if (keys.some((k) => (objectLinkProperties as readonly string[]).includes(k))) return { service: 'ops-api', path: '/links/objects' };
  if (keys.includes('geofenceId') && !keys.includes('userId')) return { service: 'geofence', path: '/links/geofences' };
  return undefined;
}

/** The (owner, property) pair the given keys form, or undefined when they form none. */
export function permissionPairOf(keys: readonly string[]): readonly [PermissionKey, PermissionKey] | undefined {
  if (keys.length !== 2) return undefined;
  return permissionPairs.find(([a, b]) => keys.includes(a) && keys.includes(b));
}

const pairsText = permissionPairs.map(([a, b]) => `${a}+${b}`).join(', ');

function exactlyTwo(p: Record<string, unknown>, ctx: z.RefinementCtx): void {
  const keys = permissionKeys.filter((k) => p[k] !== undefined);
  if (keys.length !== 2) {
    ctx.addIssue({ code: 'custom', message: `exactly two of ${permissionKeys.join(', ')} are required (got ${keys.length})`, path: [] });
  } else if (!permissionPairOf(keys)) {
    ctx.addIssue({ code: 'custom', message: `${keys.join('+')} is not a link; links are ${pairsText}`, path: [keys[1]!] });
  }
}

/** An id as a number, or as a numeric string ("26": traccar-web sends the id of the page it is on so). */
const objectId = z.preprocess(
  (v) => (typeof v === 'string' && /^\d{1,10}$/.test(v) ? Number(v) : v),
  z.number().int().positive().max(MAX_ID),
);
const idOf: Record<PermissionKey, z.ZodType<number>> = {
  userId: ref('user', objectId),
  deviceId: ref('device', objectId),
  groupId: ref('group', objectId),
  geofenceId: ref('geofence', objectId),
  notificationId: ref('notificationRule', objectId),
  reportId: ref('report', objectId),
  driverId: ref('driver', objectId),
  attributeId: ref('computedAttribute', objectId),
  commandId: ref('command', objectId),
  maintenanceId: ref('maintenance', objectId),
  calendarId: ref('calendar', objectId),
};
/**
 * One object per link kind, exactly its two ids (a union, so a request generator builds valid
 * links by construction); anything else answers one message naming the links.
 */
export const Permission = z
  .union(
    permissionPairs.map(([a, b]) => z.strictObject({ [a]: idOf[a], [b]: idOf[b] })) as unknown as [
      z.ZodObject,
      z.ZodObject,
      ...z.ZodObject[],
    ],
    {
      error: `exactly two ids that form a link (${pairsText}); other ids or combinations are not a link`,
    },
  )
  .meta({ id: 'Permission' });
export type Permission = Partial<Record<PermissionKey, number>>;
/** A link as answered: its two ids, numbers. */
export const PermissionAnswer = z
  .union(
    permissionPairs.map(([a, b]) => z.strictObject({ [a]: z.number().int(), [b]: z.number().int() })) as unknown as [
      z.ZodObject,
      z.ZodObject,
      ...z.ZodObject[],
    ],
  )
  .meta({ id: 'PermissionAnswer' });

/** The body of /permissions/bulk: 1 to 1000 links. */
export const PermissionList = z.array(Permission).min(1).max(1000).meta({ id: 'PermissionList' });
export type PermissionList = Permission[];

const queryId = z.coerce.number().int().min(0).optional().describe('0 = any');
export const PermissionsQuery = z
  .object({
    userId: ref('user', queryId),
    deviceId: ref('device', queryId),
    groupId: ref('group', queryId),
    geofenceId: ref('geofence', queryId),
    notificationId: ref('notificationRule', queryId),
    reportId: ref('report', queryId),
    driverId: ref('driver', queryId),
    attributeId: ref('computedAttribute', queryId),
    commandId: ref('command', queryId),
    maintenanceId: ref('maintenance', queryId),
    calendarId: ref('calendar', queryId),
    limit: z.coerce.number().int().min(1).max(10000).default(1000),
    offset: z.coerce.number().int().min(0).default(0),
  })
  .superRefine(exactlyTwo);

const notificationLinks =
  "Links with notificationId (to a user, device or group) are the notification rule's own, kept by ops-api " +
  "(the rule's recipients, deviceIds and groupIds; GET /notifications/links): the gateway forwards them there. A dispatcher may make, " +
  'remove and list those only (403 for other links), for rules, devices, groups of their company and themselves as the user.';

const tags = ['permissions'];
export const permissionsEndpoints = [
  defineEndpoint({
    id: 'permissions.list',
    method: 'get',
    path: '/permissions',
    service: 'gateway',
    tags,
    summary: 'Links of one kind (exactly two *Id query parameters; 0 = any), paginated',
    description: notificationLinks,
    access: ['association_officer', ...trackingWriters],
    request: { query: PermissionsQuery },
    responses: { 200: { description: 'Links', schema: z.array(PermissionAnswer) } },
  }),
  defineEndpoint({
    id: 'permissions.create',
    method: 'post',
    path: '/permissions',
    service: 'gateway',
    tags,
    summary: 'Link two objects (exactly two ids); a link that exists answers 409',
    access: trackingWriters,
    description: notificationLinks,
    request: { body: Permission },
    responses: { 204: { description: 'Linked', schema: null } },
  }),
  defineEndpoint({
    id: 'permissions.delete',
    method: 'delete',
    path: '/permissions',
    service: 'gateway',
    tags,
    summary: 'Unlink two objects (exactly two ids); an absent link answers 404',
    access: trackingWriters,
    description: notificationLinks,
    request: { body: Permission },
    responses: { 204: { description: 'Unlinked', schema: null } },
  }),
  defineEndpoint({
    id: 'permissions.bulk.create',
    method: 'post',
    path: '/permissions/bulk',
    service: 'gateway',
    tags,
    summary: 'Link many pairs at once (Permission[]): all or nothing',
    description:
      'One transaction: when any link is wrong nothing is stored. A malformed item or a repeated one answers 400 naming ' +
      'its index; an unknown user 404 and a link that exists already 409, with the index and the link in details. ' +
      'Links to notification rules go to ops-api in one transaction of their own: a body mixing them with other links is 400.',
    access: trackingWriters,
    request: { body: PermissionList },
    responses: { 204: { description: 'Linked', schema: null } },
  }),
  defineEndpoint({
    id: 'permissions.bulk.delete',
    method: 'delete',
    path: '/permissions/bulk',
    service: 'gateway',
    tags,
    summary: 'Unlink many pairs at once (Permission[]): all or nothing',
    description: 'One transaction: an absent link answers 404 with its index and the link, and nothing is removed; a repeated item 400.',
    access: trackingWriters,
    request: { body: PermissionList },
    responses: { 204: { description: 'Unlinked', schema: null } },
  }),
] as const;
