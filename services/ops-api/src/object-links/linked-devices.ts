import { and, eq, inArray } from 'drizzle-orm';
import type { ObjectLinkProperty } from '@corridor/contracts';
import type { Orm } from '@corridor/platform';
import { devices, groups, objectLinks } from '../db/schema';

/**
 * For each object of a kind, the devices linked to it, as Traccar counts them: linked directly, or
 * in a linked group or one of its subgroups. Objects without links are absent from the map.
 */
export async function linkedDevices(db: Orm, propertyType: ObjectLinkProperty): Promise<Map<number, number[]>> {
  const links = await db.select().from(objectLinks).where(and(eq(objectLinks.propertyType, propertyType), inArray(objectLinks.ownerType, ['deviceId', 'groupId'])));
  const out = new Map<number, Set<number>>();
  const add = (object: number, device: number) => out.set(object, (out.get(object) ?? new Set()).add(device));
  const groupLinks = links.filter((l) => l.ownerType === 'groupId');
  for (const l of links) if (l.ownerType === 'deviceId') add(l.propertyId, l.ownerId);
  if (groupLinks.length) {
    const parents = new Map((await db.select({ id: groups.id, parent: groups.groupId }).from(groups)).map((g) => [g.id, g.parent]));
    const subtree = (root: number): Set<number> => {
      const all = new Set([root]);
      for (let grew = true; grew; ) {
        grew = false;
        for (const [id, parent] of parents) if (parent !== null && all.has(parent) && !all.has(id)) grew = !!all.add(id);
      }
      return all;
    };
    const trees = new Map(groupLinks.map((l) => [l.ownerId, subtree(l.ownerId)]));
    const inGroups = [...new Set([...trees.values()].flatMap((t) => [...t]))];
    const members = await db.select({ id: devices.id, groupId: devices.groupId }).from(devices).where(inArray(devices.groupId, inGroups));
    for (const l of groupLinks) {
      const tree = trees.get(l.ownerId)!;
      for (const d of members) if (d.groupId !== null && tree.has(d.groupId)) add(l.propertyId, d.id);
      if (!out.has(l.propertyId)) out.set(l.propertyId, new Set());
    }
  }
  return new Map([...out].map(([k, v]) => [k, [...v].sort((a, b) => a - b)]));
}
