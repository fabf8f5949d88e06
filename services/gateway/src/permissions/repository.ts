import { and, eq, inArray, or, type SQL } from 'drizzle-orm';
import type { PermissionKey } from '@corridor/contracts';
import type { Orm } from '@corridor/platform';
import { permissions, type PermissionRow } from '../db/schema';

export interface Link {
  ownerType: PermissionKey;
  ownerId: number;
  propertyType: PermissionKey;
  propertyId: number;
}

export interface LinkFilter {
  ownerType: PermissionKey;
  ownerId?: number;
  propertyType: PermissionKey;
  propertyId?: number;
  limit: number;
  offset: number;
}

export function permissionsRepository(db: Orm) {
  const exact = (l: Link): SQL =>
    and(
      eq(permissions.ownerType, l.ownerType),
      eq(permissions.ownerId, l.ownerId),
      eq(permissions.propertyType, l.propertyType),
      eq(permissions.propertyId, l.propertyId),
    )!;
  return {
    async insert(l: Link, tx: Orm = db): Promise<PermissionRow> {
      const [r] = await tx.insert(permissions).values(l).returning();
      return r!;
    },
    async delete(l: Link, tx: Orm = db): Promise<PermissionRow | undefined> {
      const [r] = await tx.delete(permissions).where(exact(l)).returning();
      return r;
    },
    /** Inserts the links that do not exist yet in one statement; returns the rows it inserted. */
    async insertNew(links: readonly Link[], tx: Orm = db): Promise<PermissionRow[]> {
      return tx
        .insert(permissions)
        .values([...links])
        .onConflictDoNothing()
        .returning();
    },
    /** Deletes the links that exist in one statement; returns the rows it deleted. */
    async deleteExisting(links: readonly Link[], tx: Orm = db): Promise<PermissionRow[]> {
      return tx
        .delete(permissions)
        .where(or(...links.map(exact)))
        .returning();
    },
    async list(f: LinkFilter): Promise<PermissionRow[]> {
      return db
        .select()
        .from(permissions)
        .where(
          and(
            eq(permissions.ownerType, f.ownerType),
            eq(permissions.propertyType, f.propertyType),
            f.ownerId ? eq(permissions.ownerId, f.ownerId) : undefined,
            f.propertyId ? eq(permissions.propertyId, f.propertyId) : undefined,
          ),
        )
        .orderBy(permissions.id)
        .limit(f.limit)
        .offset(f.offset);
    },
    /** Ids of the given kinds linked to an owner (e.g. the devices and groups of a user). */
    async propertiesOf(ownerType: PermissionKey, ownerId: number, kinds: PermissionKey[]): Promise<PermissionRow[]> {
      return db
        .select()
        .from(permissions)
        .where(and(eq(permissions.ownerType, ownerType), eq(permissions.ownerId, ownerId), inArray(permissions.propertyType, kinds)));
    },
    async removeOwner(ownerType: PermissionKey, ownerId: number, tx: Orm = db): Promise<number> {
      const gone = await tx
        .delete(permissions)
        .where(and(eq(permissions.ownerType, ownerType), eq(permissions.ownerId, ownerId)))
        .returning({ id: permissions.id });
      return gone.length;
    },
  };
}
export type PermissionsRepository = ReturnType<typeof permissionsRepository>;
