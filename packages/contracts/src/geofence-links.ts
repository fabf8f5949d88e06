import { z } from 'zod';
import type { GeofenceKind } from './geofences';
import { ref } from './references';
import { MAX_ID } from './common';
import { defineEndpoint } from './endpoint';

/**
 * Which devices a geofence applies to, the one rule of the geofence evaluator and of ops-api's
 * overspeed limits. An association fence (no owning company, and a place kind: the border posts,
 * ports, inland depots, weighbridges and checkpoints of packages/geodata, or one staff drew as
 * such) applies to every truck. Any other fence, as in Traccar, only to the devices linked to it
 * directly or through their group or one of its parent groups: a fence with no links applies to
 * none (traccar-web draws a fence, then links it through /permissions).
 */
export function geofenceAppliesTo(
  fence: { kind: GeofenceKind; companyId: number | null; deviceIds: ReadonlySet<number>; groupIds: ReadonlySet<number> },
  deviceId: number,
  groupChain: readonly number[],
): boolean {
  if (isAssociationFence(fence)) return true;
  if (fence.deviceIds.has(deviceId)) return true;
  for (const g of groupChain) if (fence.groupIds.has(g)) return true;
  return false;
}

/** Shared (no company) and of a place kind: applies to every truck, linked or not. */
export const isAssociationFence = (f: { kind: GeofenceKind; companyId: number | null }): boolean =>
  f.companyId === null && f.kind !== 'other';

/** An id as a number or a numeric string, as /permissions takes them (the gateway forwards what it parsed). */
const linkId = z.preprocess(
  (v) => (typeof v === 'string' && /^\d{1,10}$/.test(v) ? Number(v) : v),
  z.number().int().positive().max(MAX_ID),
);

/** Traccar's permission linking a geofence to a device or to a group. */
export const GeofencePermission = z
  .union(
    [
      z.strictObject({ deviceId: ref('device', linkId), geofenceId: ref('geofence', linkId) }),
      z.strictObject({ groupId: ref('group', linkId), geofenceId: ref('geofence', linkId) }),
    ],
    { error: 'a geofenceId and one deviceId or groupId' },
  )
  .meta({ id: 'GeofencePermission' });
export type GeofencePermission = { deviceId?: number; groupId?: number; geofenceId?: number };
/** A link as answered: its two ids. */
export const GeofencePermissionAnswer = z
  .union([
    z.strictObject({ deviceId: z.number().int(), geofenceId: z.number().int() }),
    z.strictObject({ groupId: z.number().int(), geofenceId: z.number().int() }),
  ])
  .meta({ id: 'GeofencePermissionAnswer' });
export type GeofencePermissionAnswer = z.infer<typeof GeofencePermissionAnswer>;

const queryId = z.coerce.number().int().min(0).max(MAX_ID).optional().describe('0 = any');
export const GeofencePermissionsQuery = z
  .object({
    deviceId: ref('device', queryId),
    groupId: ref('group', queryId),
    geofenceId: ref('geofence', queryId),
    limit: z.coerce.number().int().min(1).max(10000).default(1000),
    offset: z.coerce.number().int().min(0).default(0),
  })
  .refine((q) => (q.deviceId === undefined) !== (q.groupId === undefined) && q.geofenceId !== undefined, {
    message: 'geofenceId and exactly one of deviceId or groupId (0 = any)',
    path: [],
  });

const tags = ['permissions'];
const writers = ['admin', 'dispatcher', 'association_officer'] as const;
const body = z.array(GeofencePermission).min(1).max(1000);
/**
 * The geofence service keeps a fence's links to devices and groups (geofence.geofence_links, the
 * table its evaluator reads and geofences.v1 carries); the gateway's /permissions forwards
 * Traccar's {deviceId|groupId, geofenceId} links here.
 */
export const geofenceLinksEndpoints = [
  defineEndpoint({
    service: 'geofence',
    id: 'geofenceLinks.list',
    method: 'get',
    path: '/links/geofences',
    tags,
    companyScoped: true,
    access: 'authenticated',
    summary: 'Links of geofences to devices and groups (Traccar permissions with geofenceId and deviceId or groupId)',
    description: "A company user sees the links of their company's fences and of their company's devices and groups.",
    request: { query: GeofencePermissionsQuery },
    responses: { 200: { description: 'Links', schema: z.array(GeofencePermissionAnswer) } },
  }),
  defineEndpoint({
    service: 'geofence',
    id: 'geofenceLinks.create',
    method: 'post',
    path: '/links/geofences',
    tags,
    companyScoped: true,
    access: writers,
    summary: 'Link geofences to devices or groups (all or nothing; an existing link 409, a repeated item 400)',
    description:
      'A fence, device or group the caller may not see answers 404 naming the item; a shared fence is linked by staff only (403).',
    request: { body },
    responses: { 204: { description: 'Linked', schema: null } },
  }),
  defineEndpoint({
    service: 'geofence',
    id: 'geofenceLinks.delete',
    method: 'delete',
    path: '/links/geofences',
    tags,
    companyScoped: true,
    access: writers,
    summary: 'Unlink geofences from devices or groups (all or nothing; an absent link 404)',
    request: { body },
    responses: { 204: { description: 'Unlinked', schema: null } },
  }),
] as const;
