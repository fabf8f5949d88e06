import { z } from 'zod';
import { ref } from './references';
import { defineEndpoint } from './endpoint';

/**
 * Permissions, as Traccar has them: a link between two objects, written as an object with exactly
 * two ids (`{ "userId": 5, "deviceId": 8 }`, `{ "deviceId": 8, "geofenceId": 16 }`). The first of
 * each pair below owns the link; a geofence is only ever the second. A user linked to a device or a
 * group sees that device in the live feed beyond their company's, so only administrators link.
 */
export const permissionKeys = ['userId', 'deviceId', 'groupId', 'geofenceId'] as const;
export type PermissionKey = (typeof permissionKeys)[number];

export const permissionPairs: readonly (readonly [owner: PermissionKey, property: PermissionKey])[] = [
  ['userId', 'deviceId'],
  ['userId', 'groupId'],
  ['userId', 'geofenceId'],
  ['deviceId', 'geofenceId'],
  ['groupId', 'geofenceId'],
];

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

const objectId = z.number().int().positive();
export const Permission = z
  .strictObject({
    userId: ref('user', objectId).optional(), deviceId: ref('device', objectId).optional(),
    groupId: ref('group', objectId).optional(), geofenceId: ref('geofence', objectId).optional(),
  })
  .superRefine(exactlyTwo)
  .meta({ id: 'Permission' });
export type Permission = z.infer<typeof Permission>;

/** The body of /permissions/bulk: 1 to 1000 links. */
export const PermissionList = z.array(Permission).min(1).max(1000).meta({ id: 'PermissionList' });
export type PermissionList = z.infer<typeof PermissionList>;

const queryId = z.coerce.number().int().min(0).optional().describe('0 = any');
export const PermissionsQuery = z
  .object({
    userId: ref('user', queryId), deviceId: ref('device', queryId), groupId: ref('group', queryId), geofenceId: ref('geofence', queryId),
    limit: z.coerce.number().int().min(1).max(10000).default(1000),
    offset: z.coerce.number().int().min(0).default(0),
  })
  .superRefine(exactlyTwo);

const tags = ['permissions'];
export const permissionsEndpoints = [
  defineEndpoint({
    id: 'permissions.list', method: 'get', path: '/permissions', service: 'gateway', tags,
    summary: 'Links of one kind (exactly two *Id query parameters; 0 = any), paginated',
    access: ['admin', 'association_officer'],
    request: { query: PermissionsQuery },
    responses: { 200: { description: 'Links', schema: z.array(Permission) } },
  }),
  defineEndpoint({
    id: 'permissions.create', method: 'post', path: '/permissions', service: 'gateway', tags,
    summary: 'Link two objects (exactly two ids); a link that exists answers 409', access: ['admin'],
    request: { body: Permission },
    responses: { 204: { description: 'Linked', schema: null } },
  }),
  defineEndpoint({
    id: 'permissions.delete', method: 'delete', path: '/permissions', service: 'gateway', tags,
    summary: 'Unlink two objects (exactly two ids); an absent link answers 404', access: ['admin'],
    request: { body: Permission },
    responses: { 204: { description: 'Unlinked', schema: null } },
  }),
  defineEndpoint({
    id: 'permissions.bulk.create', method: 'post', path: '/permissions/bulk', service: 'gateway', tags,
    summary: 'Link many pairs at once (Permission[]): all or nothing',
    description:
      'One transaction: when any link is wrong nothing is stored. A malformed item or a repeated one answers 400 naming ' +
      'its index; an unknown user 404 and a link that exists already 409, with the index and the link in details.',
    access: ['admin'],
    request: { body: PermissionList },
    responses: { 204: { description: 'Linked', schema: null } },
  }),
  defineEndpoint({
    id: 'permissions.bulk.delete', method: 'delete', path: '/permissions/bulk', service: 'gateway', tags,
    summary: 'Unlink many pairs at once (Permission[]): all or nothing',
    description: 'One transaction: an absent link answers 404 with its index and the link, and nothing is removed; a repeated item 400.',
    access: ['admin'],
    request: { body: PermissionList },
    responses: { 204: { description: 'Unlinked', schema: null } },
  }),
] as const;
