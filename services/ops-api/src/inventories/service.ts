import { and, desc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { InventoriesQuery, InventoryHistoryEntry, InventoryInput, InventoryItem } from '@corridor/contracts';
import { AppError, notFound, type Identity, type Orm } from '@corridor/platform';
import { audit } from '../audit/audit';
import { companies, inventories, inventoryHistory, trucks, type InventoryHistoryRow, type InventoryRow } from '../db/schema';
import type { DevicesRepository } from '../devices/repository';
import type { DevicesService } from '../devices/service';
import { invalidField } from '../resources/pg-errors';
import { resourceService } from '../resources/resource-service';
import type { Actor } from '../resources/scope';
import type { TruckOwnersService } from '../truck-owners/service';
import { allowedDecisions, decisionDone, statusAfter, type InventoryDecision } from './transitions';

const toInventoryItem = (r: InventoryRow): InventoryItem => ({
  id: r.id,
  deviceId: r.deviceId,
  serialNumber: r.serialNumber,
  status: r.status,
  companyId: r.companyId,
  truckId: r.truckId,
  assignedAt: r.assignedAt?.toISOString() ?? null,
  notes: r.notes,
  attributes: r.attributes,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});
const toHistory = (r: InventoryHistoryRow): InventoryHistoryEntry => ({
  id: r.id,
  inventoryId: r.inventoryId,
  action: r.action,
  fromCompanyId: r.fromCompanyId,
  toCompanyId: r.toCompanyId,
  fromTruckId: r.fromTruckId,
  toTruckId: r.toTruckId,
  actorUserId: r.actorUserId,
  reason: r.reason,
  at: r.at.toISOString(),
});

export interface DecisionInput {
  companyId?: number;
  truckId?: number | null;
  reason?: string | null;
}

/**
 * Inventory of tracking units and the decisions on them (assign, revoke, transfer). Each decision
 * changes the item, writes a history row and an audit entry in one transaction, moves the device
 * to the new company (then announces it on the registry) and fits it to the truck.
 */
export function inventoriesService(deps: {
  db: Orm;
  devicesRepo: DevicesRepository;
  devices: DevicesService;
  truckOwners: TruckOwnersService;
}) {
  const { db } = deps;
  const history = (tx: Orm, row: InventoryRow, action: InventoryHistoryEntry['action'], actor: Actor) =>
    tx
      .insert(inventoryHistory)
      .values({ inventoryId: row.id, action, toCompanyId: row.companyId, toTruckId: row.truckId, actorUserId: actor.identity.userId });

  const crud = resourceService<InventoryRow, InventoryItem, InventoryInput, z.output<typeof InventoriesQuery>>(db, {
    name: 'Inventory item',
    entityType: 'inventory',
    table: inventories,
    company: inventories.companyId,
    shared: false,
    keywordColumns: [inventories.serialNumber, inventories.notes],
    filters: (q) => [
      q.status ? eq(inventories.status, q.status) : undefined,
      q.deviceId !== undefined ? eq(inventories.deviceId, q.deviceId) : undefined,
      q.truckId !== undefined ? eq(inventories.truckId, q.truckId) : undefined,
    ],
    requestedCompany: () => null,
    toEntity: toInventoryItem,
    // status, company and truck change only through the decisions
    toValues: (i) => ({ deviceId: i.deviceId, serialNumber: i.serialNumber, notes: i.notes, attributes: i.attributes }),
    async validate(i, _c, _a, existing) {
      const d = await deps.devicesRepo.get(i.deviceId);
      if (!d) throw invalidField('deviceId', `device ${i.deviceId} does not exist`);
      if (existing && existing.deviceId !== i.deviceId && existing.status === 'assigned') {
        throw invalidField('deviceId', 'an assigned item cannot change device; revoke it first');
      }
    },
    async beforeDelete(row) {
      if (row.status === 'assigned')
        throw new AppError('INVALID_TRANSITION', 'An assigned item cannot be deleted; revoke it first', {
          current: row.status,
          allowed: allowedDecisions[row.status],
        });
    },
    async onWrite(tx, action, row, actor) {
      if (action !== 'update') await history(tx, row, action === 'create' ? 'created' : 'deleted', actor);
    },
    unique: { inventories_device_idx: 'deviceId' },
  });

  async function checkTarget(companyField: string, companyId: number, truckId: number | null | undefined): Promise<void> {
    const [c] = await db.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId));
    if (!c) throw invalidField(companyField, `company ${companyId} does not exist`);
    if (truckId === null || truckId === undefined) return;
    const t = await deps.truckOwners.truckCompany(truckId);
    if (!t) throw invalidField('truckId', `truck ${truckId} does not exist`);
    if (t.companyId !== companyId) throw invalidField('truckId', `truck ${truckId} does not belong to company ${companyId}`);
  }

  async function decide(id: number, decision: InventoryDecision, input: DecisionInput, actor: Actor): Promise<InventoryItem> {
    const [item] = await db.select().from(inventories).where(eq(inventories.id, id));
    if (!item) throw notFound('Inventory item', id);
    const allowed = allowedDecisions[item.status];
    if (!allowed.includes(decision)) {
      throw new AppError('INVALID_TRANSITION', `An item ${item.status.replace('_', ' ')} cannot be ${decisionDone[decision]}`, {
        current: item.status,
        allowed,
      });
    }
    const toCompany = decision === 'revoke' ? null : input.companyId!;
    const toTruck = decision === 'revoke' ? null : (input.truckId ?? null);
    if (toCompany !== null) await checkTarget(decision === 'transfer' ? 'toCompanyId' : 'companyId', toCompany, toTruck);
    if (decision === 'transfer' && toCompany === item.companyId)
      throw invalidField('toCompanyId', 'the item already belongs to that company');

    const updated = await db.transaction(async (tx) => {
      const [row] = await tx
        .update(inventories)
        .set({
          status: statusAfter[decision],
          companyId: toCompany,
          truckId: toTruck,
          assignedAt: toCompany === null ? null : new Date(),
          updatedAt: new Date(),
        })
        .where(and(eq(inventories.id, id), eq(inventories.status, item.status)))
        .returning();
      if (!row) throw new AppError('CONFLICT', 'The item changed meanwhile; read it again', { current: item.status });
      await tx.insert(inventoryHistory).values({
        inventoryId: id,
        action: decision === 'assign' ? 'assigned' : decision === 'revoke' ? 'revoked' : 'transferred',
        fromCompanyId: item.companyId,
        toCompanyId: toCompany,
        fromTruckId: item.truckId,
        toTruckId: toTruck,
        actorUserId: actor.identity.userId,
        reason: input.reason ?? null,
      });
      // the device follows the authority; the truck it was fitted to no longer carries it
      await deps.devicesRepo.setCompany(item.deviceId, toCompany, tx);
      await tx.update(trucks).set({ deviceId: null, updatedAt: new Date() }).where(eq(trucks.deviceId, item.deviceId));
      if (toTruck !== null) await tx.update(trucks).set({ deviceId: item.deviceId, updatedAt: new Date() }).where(eq(trucks.id, toTruck));
      await audit.record(tx, actor.identity, {
        action: `inventory.${decision}`,
        entityType: 'inventory',
        entityId: id,
        companyId: toCompany ?? item.companyId,
        before: toInventoryItem(item),
        after: toInventoryItem(row),
        reason: input.reason ?? null,
        requestId: actor.requestId,
      });
      return row;
    });
    await deps.devices.announceCurrent(item.deviceId);
    return toInventoryItem(updated);
  }

  return {
    ...crud,
    assign: (id: number, input: { companyId: number; truckId: number | null; reason: string | null }, actor: Actor) =>
      decide(id, 'assign', input, actor),
    revoke: (id: number, input: { reason: string }, actor: Actor) => decide(id, 'revoke', input, actor),
    transfer: (id: number, input: { toCompanyId: number; truckId: number | null; reason: string }, actor: Actor) =>
      decide(id, 'transfer', { companyId: input.toCompanyId, truckId: input.truckId, reason: input.reason }, actor),
    async history(id: number, who: Identity): Promise<InventoryHistoryEntry[]> {
      await crud.getRow(id, who);
      const rows = await db
        .select()
        .from(inventoryHistory)
        .where(eq(inventoryHistory.inventoryId, id))
        .orderBy(desc(inventoryHistory.at), desc(inventoryHistory.id));
      return rows.map(toHistory);
    },
  };
}
export type InventoriesService = ReturnType<typeof inventoriesService>;
