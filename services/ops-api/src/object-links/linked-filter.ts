import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { ObjectLinkProperty } from '@corridor/contracts';
import type { Orm } from '@corridor/platform';
import { objectLinks } from '../db/schema';

/**
 * The list conditions of Traccar's deviceId, groupId and userId parameters: only the objects
 * (`id` of the list's table) linked to each one given, directly (ops.object_links).
 */
export function linkedFilter(
  db: Orm,
  id: PgColumn,
  propertyType: ObjectLinkProperty,
  q: { deviceId?: number; groupId?: number; userId?: number },
): (SQL | undefined)[] {
  return (['deviceId', 'groupId', 'userId'] as const).map((ownerType) => {
    const ownerId = q[ownerType];
    if (ownerId === undefined) return undefined;
    const linked = db
      .select({ id: objectLinks.propertyId })
      .from(objectLinks)
      .where(and(eq(objectLinks.ownerType, ownerType), eq(objectLinks.ownerId, ownerId), eq(objectLinks.propertyType, propertyType)));
    return inArray(id, linked);
  });
}
