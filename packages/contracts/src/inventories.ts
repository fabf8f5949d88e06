import { z } from 'zod';
import { idParam, ref } from './references';
import { defineEndpoint } from './endpoint';
import { Attributes, IsoDateTime } from './common';
import { ListQuery, resourceEndpoints } from './resource-endpoints';
import type { Role } from './roles';

/**
 * Inventory: the stock of tracking units. An item starts in_stock (held by the association, no
 * company); it is assigned to a company (and optionally a truck), revoked back, or its authority
 * is transferred to another company. Each decision writes a history row and the audit trail, and
 * the device's companyId follows the item (so ingest and the evaluators see the new owner).
 *   in_stock → assigned;  assigned → revoked | assigned (transfer);  revoked → assigned
 */
export const InventoryStatus = z.enum(['in_stock', 'assigned', 'revoked']);
export type InventoryStatus = z.infer<typeof InventoryStatus>;

export const InventoryItem = z
  .object({
    id: z.number().int().positive(),
    deviceId: z.number().int(),
    serialNumber: z.string().nullable(),
    status: InventoryStatus,
    companyId: z.number().int().nullable().describe('The company holding authority over the unit (null while in stock or revoked)'),
    truckId: z.number().int().nullable(),
    assignedAt: IsoDateTime.nullable(),
    notes: z.string().nullable(),
    attributes: Attributes,
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  })
  .meta({ id: 'InventoryItem' });
export type InventoryItem = z.infer<typeof InventoryItem>;

/** Create/replace: the stock record only; status, company and truck change through the decisions. */
export const InventoryInput = z
  .object({
    deviceId: ref('device', z.number().int().positive()),
    serialNumber: z.string().max(64).nullable().default(null),
    notes: z.string().max(2000).nullable().default(null),
    attributes: Attributes.default({}),
  })
  .meta({ id: 'InventoryInput' });
export type InventoryInput = z.infer<typeof InventoryInput>;

export const InventoriesQuery = ListQuery.extend({
  status: InventoryStatus.optional(),
  deviceId: ref('device', z.coerce.number().int().positive()).optional(),
  truckId: ref('truck', z.coerce.number().int().positive()).optional(),
});

export const InventoryAssign = z
  .object({
    companyId: ref('company', z.number().int().positive()),
    truckId: ref('truck', z.number().int().positive()).nullable().default(null).describe('A truck of that company'),
    reason: z.string().max(1000).nullable().default(null),
  })
  .meta({ id: 'InventoryAssign' });
export const InventoryRevoke = z.object({ reason: z.string().min(1).max(1000) }).meta({ id: 'InventoryRevoke' });
export const InventoryTransfer = z
  .object({
    toCompanyId: ref('company', z.number().int().positive()),
    truckId: ref('truck', z.number().int().positive()).nullable().default(null).describe('A truck of the receiving company'),
    reason: z.string().min(1).max(1000),
  })
  .meta({ id: 'InventoryTransfer' });

export const InventoryAction = z.enum(['created', 'assigned', 'revoked', 'transferred', 'deleted']);
export const InventoryHistoryEntry = z
  .object({
    id: z.number().int(),
    inventoryId: z.number().int(),
    action: InventoryAction,
    fromCompanyId: z.number().int().nullable(),
    toCompanyId: z.number().int().nullable(),
    fromTruckId: z.number().int().nullable(),
    toTruckId: z.number().int().nullable(),
    actorUserId: z.number().int(),
    reason: z.string().nullable(),
    at: IsoDateTime,
  })
  .meta({ id: 'InventoryHistoryEntry' });
export type InventoryHistoryEntry = z.infer<typeof InventoryHistoryEntry>;

const deciders: Role[] = ['admin', 'association_officer'];
const tags = ['inventories'];

export const inventoriesEndpoints = [
  ...resourceEndpoints({
    id: 'inventories',
    path: '/inventories',
    noun: 'inventory item',
    kind: 'inventory',
    tags,
    entity: InventoryItem,
    input: InventoryInput,
    query: InventoriesQuery,
    write: deciders,
    companyScoped: true,
    description:
      'Stock of tracking units. Company users see the items their company holds. One item per device (409). ' +
      'Keyword searches the serial number and notes.',
  }),
  defineEndpoint({
    id: 'inventories.assign',
    method: 'post',
    path: '/inventories/{id}/assign',
    service: 'ops-api',
    tags,
    access: deciders,
    summary: 'Assign a unit to a company (and a truck)',
    description: "Allowed from in_stock or revoked (409 with the allowed actions otherwise). The device's companyId becomes the company.",
    request: { params: idParam('inventory'), body: InventoryAssign },
    responses: { 200: { description: 'The item', schema: InventoryItem } },
  }),
  defineEndpoint({
    id: 'inventories.revoke',
    method: 'post',
    path: '/inventories/{id}/revoke',
    service: 'ops-api',
    tags,
    access: deciders,
    summary: 'Revoke a unit from its company',
    description: 'Allowed from assigned. The device loses its company and truck.',
    request: { params: idParam('inventory'), body: InventoryRevoke },
    responses: { 200: { description: 'The item', schema: InventoryItem } },
  }),
  defineEndpoint({
    id: 'inventories.transfer',
    method: 'post',
    path: '/inventories/{id}/transfer',
    service: 'ops-api',
    tags,
    access: deciders,
    summary: 'Transfer authority over a unit to another company',
    description: "Allowed from assigned, to a different company. The device's companyId follows.",
    request: { params: idParam('inventory'), body: InventoryTransfer },
    responses: { 200: { description: 'The item', schema: InventoryItem } },
  }),
  defineEndpoint({
    id: 'inventories.history',
    method: 'get',
    path: '/inventories/{id}/history',
    service: 'ops-api',
    tags,
    access: 'authenticated',
    companyScoped: true,
    summary: 'History of a unit (newest first)',
    request: { params: idParam('inventory') },
    responses: { 200: { description: 'History', schema: z.array(InventoryHistoryEntry) } },
  }),
] as const;
