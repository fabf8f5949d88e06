import { and, eq, ilike, inArray, notInArray, or } from 'drizzle-orm';
import type { z } from 'zod';
import type { ListQuery, TruckInput, TruckOwner, TruckOwnerInput, TrucksOwnersQuery, TruckWithOwner } from '@corridor/contracts';
import { AppError, notFound, type Identity, type Orm } from '@corridor/platform';
import { audit } from '../audit/audit';
import { devices, truckOwners, trucks, type TruckOwnerRow, type TruckRow } from '../db/schema';
import { conflictOnUnique, invalidField } from '../resources/pg-errors';
import { assertWritable, canSee, likePattern, ownerCompany, scopeCondition, type Actor } from '../resources/scope';
import type { TruckOwnersRepository } from './repository';

const toTruck = (t: TruckRow) => ({
  id: t.id,
  ownerId: t.ownerId,
  plateNumber: t.plateNumber,
  trailerPlate: t.trailerPlate,
  make: t.make,
  model: t.model,
  year: t.year,
  deviceId: t.deviceId,
  attributes: t.attributes,
});
const ownerSummary = (o: TruckOwnerRow) => ({
  id: o.id,
  name: o.name,
  idNumber: o.idNumber,
  phone: o.phone,
  email: o.email,
  companyId: o.companyId,
});
const toOwner = (o: TruckOwnerRow, ts: TruckRow[]): TruckOwner => ({
  ...ownerSummary(o),
  address: o.address,
  attributes: o.attributes,
  trucks: ts.filter((t) => t.ownerId === o.id).map(toTruck),
});
const truckValues = (t: TruckInput) => ({
  plateNumber: t.plateNumber,
  trailerPlate: t.trailerPlate,
  make: t.make,
  model: t.model,
  year: t.year,
  deviceId: t.deviceId,
  attributes: t.attributes,
});

/**
 * Truck owners with their trucks (/truck-owners) and trucks with their owners (/trucks-owners).
 * PUT replaces an owner's trucks: an id keeps and updates that truck, no id adds one, a truck left
 * out is removed (409 while a tracking unit or an assigned inventory item still points at it).
 */
export function truckOwnersService(deps: { db: Orm; repo: TruckOwnersRepository }) {
  const { db, repo } = deps;

  async function load(id: number, who: Identity): Promise<TruckOwnerRow> {
    const o = await repo.owner(id);
    if (!o || !canSee(o.companyId, who, false)) throw notFound('Truck owner', id);
    return o;
  }

  async function validateTrucks(input: TruckOwnerInput, companyId: number | null, ownTruckIds: Set<number>): Promise<void> {
    const plates = new Set<string>();
    for (const [i, t] of input.trucks.entries()) {
      if (plates.has(t.plateNumber)) throw invalidField(`trucks.${i}.plateNumber`, `${t.plateNumber} appears twice`);
      plates.add(t.plateNumber);
      if (t.id !== undefined && !ownTruckIds.has(t.id))
        throw invalidField(`trucks.${i}.id`, `truck ${t.id} is not one of this owner's trucks`);
    }
    const deviceIds = input.trucks.map((t) => t.deviceId).filter((d): d is number => d !== null);
    if (!deviceIds.length) return;
    const found = new Map(
      (await db.select({ id: devices.id, companyId: devices.companyId }).from(devices).where(inArray(devices.id, deviceIds))).map((d) => [
        d.id,
        d,
      ]),
    );
    for (const [i, t] of input.trucks.entries()) {
      if (t.deviceId === null) continue;
      const d = found.get(t.deviceId);
      if (!d) throw invalidField(`trucks.${i}.deviceId`, `device ${t.deviceId} does not exist`);
      if (companyId !== null && d.companyId !== companyId)
        throw invalidField(`trucks.${i}.deviceId`, `device ${t.deviceId} does not belong to company ${companyId}`);
    }
  }

  const ownerValues = (i: TruckOwnerInput, companyId: number | null) => ({
    name: i.name,
    idNumber: i.idNumber,
    phone: i.phone,
    email: i.email,
    address: i.address,
    companyId,
    attributes: i.attributes,
  });
  const plateConflict = <T>(write: () => Promise<T>) =>
    conflictOnUnique(
      write,
      { trucks_plate_idx: 'trucks.plateNumber' },
      () => 'A truck with this plate number already exists (plates are unique platform-wide)',
    );

  return {
    async list(q: z.output<typeof ListQuery>, who: Identity): Promise<TruckOwner[]> {
      const k = q.keyword ? likePattern(q.keyword) : undefined;
      const owners = await repo.owners(
        and(
          scopeCondition(truckOwners.companyId, who, { shared: false, requested: q.companyId }),
          k ? or(ilike(truckOwners.name, k), ilike(truckOwners.idNumber, k), ilike(truckOwners.phone, k)) : undefined,
        ),
        q.limit,
        q.offset,
      );
      const ts = await repo.trucksOf(owners.map((o) => o.id));
      return owners.map((o) => toOwner(o, ts));
    },
    async get(id: number, who: Identity): Promise<TruckOwner> {
      const o = await load(id, who);
      return toOwner(o, await repo.trucksOf([o.id]));
    },
    async create(input: TruckOwnerInput, actor: Actor): Promise<TruckOwner> {
      const companyId = ownerCompany(actor.identity, input.companyId);
      await validateTrucks(input, companyId, new Set());
      const owner = await plateConflict(() =>
        db.transaction(async (tx) => {
          const [o] = await tx.insert(truckOwners).values(ownerValues(input, companyId)).returning();
          const ts = input.trucks.length
            ? await tx
                .insert(trucks)
                .values(input.trucks.map((t) => ({ ...truckValues(t), ownerId: o!.id })))
                .returning()
            : [];
          const entity = toOwner(o!, ts);
          await audit.record(tx, actor.identity, {
            action: 'truck_owner.create',
            entityType: 'truck_owner',
            entityId: o!.id,
            companyId,
            after: entity,
            requestId: actor.requestId,
          });
          return entity;
        }),
      );
      return owner;
    },
    async update(id: number, input: TruckOwnerInput, actor: Actor): Promise<TruckOwner> {
      const existing = await repo.owner(id);
      assertWritable(existing, actor.identity, 'Truck owner', id);
      const companyId = ownerCompany(actor.identity, input.companyId);
      const before = toOwner(existing, await repo.trucksOf([id]));
      await validateTrucks(input, companyId, new Set(before.trucks.map((t) => t.id)));
      const kept = input.trucks.map((t) => t.id).filter((x): x is number => x !== undefined);
      const removed = before.trucks.map((t) => t.id).filter((x) => !kept.includes(x));
      const busy = await repo.trucksInUse(removed);
      if (busy.length)
        throw new AppError('CONFLICT', `Truck(s) ${busy.join(', ')} still carry a tracking unit or an assigned inventory item`, {
          field: 'trucks',
          trucks: busy,
        });
      return plateConflict(() =>
        db.transaction(async (tx) => {
          const [o] = await tx
            .update(truckOwners)
            .set({ ...ownerValues(input, companyId), updatedAt: new Date() })
            .where(eq(truckOwners.id, id))
            .returning();
          await tx.delete(trucks).where(and(eq(trucks.ownerId, id), kept.length ? notInArray(trucks.id, kept) : undefined));
          for (const t of input.trucks) {
            if (t.id !== undefined)
              await tx
                .update(trucks)
                .set({ ...truckValues(t), updatedAt: new Date() })
                .where(eq(trucks.id, t.id));
            else await tx.insert(trucks).values({ ...truckValues(t), ownerId: id });
          }
          const after = toOwner(o!, await tx.select().from(trucks).where(eq(trucks.ownerId, id)).orderBy(trucks.plateNumber));
          await audit.record(tx, actor.identity, {
            action: 'truck_owner.update',
            entityType: 'truck_owner',
            entityId: id,
            companyId,
            before,
            after,
            requestId: actor.requestId,
          });
          return after;
        }),
      );
    },
    async remove(id: number, actor: Actor): Promise<void> {
      const existing = await repo.owner(id);
      assertWritable(existing, actor.identity, 'Truck owner', id);
      const ts = await repo.trucksOf([id]);
      const busy = await repo.trucksInUse(ts.map((t) => t.id));
      if (busy.length)
        throw new AppError('CONFLICT', `Truck(s) ${busy.join(', ')} still carry a tracking unit or an assigned inventory item`, {
          trucks: busy,
        });
      await db.transaction(async (tx) => {
        await tx.delete(truckOwners).where(eq(truckOwners.id, id));
        await audit.record(tx, actor.identity, {
          action: 'truck_owner.delete',
          entityType: 'truck_owner',
          entityId: id,
          companyId: existing.companyId,
          before: toOwner(existing, ts),
          requestId: actor.requestId,
        });
      });
    },
    async trucksWithOwners(q: z.output<typeof TrucksOwnersQuery>, who: Identity): Promise<TruckWithOwner[]> {
      const rows = await repo.trucksWithOwners({
        scope: scopeCondition(truckOwners.companyId, who, { shared: false, requested: q.companyId }),
        keyword: q.keyword,
        ownerId: q.ownerId,
        deviceId: q.deviceId,
        limit: q.limit,
        offset: q.offset,
      });
      return rows.map((r) => ({ ...toTruck(r.truck), owner: ownerSummary(r.owner) }));
    },
    /** A truck and its owner's company, for checks in other modules (tracking units, inventories). */
    async truckCompany(truckId: number): Promise<{ truckId: number; companyId: number | null } | undefined> {
      const [r] = await db
        .select({ truckId: trucks.id, companyId: truckOwners.companyId })
        .from(trucks)
        .innerJoin(truckOwners, eq(trucks.ownerId, truckOwners.id))
        .where(eq(trucks.id, truckId));
      return r;
    },
  };
}
export type TruckOwnersService = ReturnType<typeof truckOwnersService>;
