import { and, asc, eq, ilike, inArray, isNull, or, type SQL } from 'drizzle-orm';
import type { Orm } from '@corridor/platform';
import { inventories, trackingUnits, truckOwners, trucks, type TruckOwnerRow, type TruckRow } from '../db/schema';
import { likePattern } from '../resources/scope';

export interface TruckFilter {
  scope?: SQL;
  keyword?: string;
  ownerId?: number;
  deviceId?: number;
  limit: number;
  offset: number;
}

/** Truck owners and their trucks (trucks cascade with their owner). */
export function truckOwnersRepository(db: Orm) {
  return {
    async owners(where: SQL | undefined, limit: number, offset: number): Promise<TruckOwnerRow[]> {
      return db.select().from(truckOwners).where(where).orderBy(truckOwners.id).limit(limit).offset(offset);
    },
    async owner(id: number): Promise<TruckOwnerRow | undefined> {
      const [r] = await db.select().from(truckOwners).where(eq(truckOwners.id, id));
      return r;
    },
    async trucksOf(ownerIds: number[]): Promise<TruckRow[]> {
      if (!ownerIds.length) return [];
      return db.select().from(trucks).where(inArray(trucks.ownerId, ownerIds)).orderBy(asc(trucks.plateNumber));
    },
    async trucksWithOwners(f: TruckFilter): Promise<{ truck: TruckRow; owner: TruckOwnerRow }[]> {
      const k = f.keyword ? likePattern(f.keyword) : undefined;
      return db
        .select({ truck: trucks, owner: truckOwners })
        .from(trucks)
        .innerJoin(truckOwners, eq(trucks.ownerId, truckOwners.id))
        .where(
          and(
            f.scope,
            f.ownerId !== undefined ? eq(trucks.ownerId, f.ownerId) : undefined,
            f.deviceId !== undefined ? eq(trucks.deviceId, f.deviceId) : undefined,
            k ? or(ilike(trucks.plateNumber, k), ilike(trucks.trailerPlate, k), ilike(truckOwners.name, k)) : undefined,
          ),
        )
        .orderBy(asc(trucks.plateNumber))
        .limit(f.limit)
        .offset(f.offset);
    },
    /** Trucks of these ids still carrying an active tracking unit or an assigned inventory item. */
    async trucksInUse(truckIds: number[]): Promise<number[]> {
      if (!truckIds.length) return [];
      const units = await db
        .select({ id: trackingUnits.truckId })
        .from(trackingUnits)
        .where(and(inArray(trackingUnits.truckId, truckIds), isNull(trackingUnits.removedAt)));
      const items = await db
        .select({ id: inventories.truckId })
        .from(inventories)
        .where(and(inArray(inventories.truckId, truckIds), eq(inventories.status, 'assigned')));
      return [...new Set([...units, ...items].map((r) => r.id!))];
    },
  };
}
export type TruckOwnersRepository = ReturnType<typeof truckOwnersRepository>;
