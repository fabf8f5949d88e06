import { and, eq, inArray, or } from 'drizzle-orm';
import type { ObjectLinkProperty } from '@corridor/contracts';
import type { Orm } from '@corridor/platform';
import { devices, groups, objectLinks } from '../db/schema';

/**
 * For each object of a kind, the devices linked to it, as Traccar counts them: linked directly, or
 * in a linked group or one of its subgroups. Objects without links are absent from the map.
 */
export async function linkedDevices(db: Orm, propertyType: ObjectLinkProperty): Promise<Map<number, number[]>> {
  const links = await db
    .select()
    .from(objectLinks)
    .where(and(eq(objectLinks.propertyType, propertyType), inArray(objectLinks.ownerType, ['deviceId', 'groupId'])));
  const out = new Map<number, Set<number>>();
  const add = (object: number, device: number) => out.set(object, (out.get(object) ?? new Set()).add(device));
  const groupLinks = links.filter((l) => l.ownerType === 'groupId');
  for (const l of links) if (l.ownerType === 'deviceId') add(l.propertyId, l.ownerId);
  if (groupLinks.length) {
    const parents = new Map((await db.select({ id: groups.id, parent: groups.groupId }).from(groups)).map((g) => [g.id, g.parent]));
    const subtree = (root: number): Set<number> => {
      const all = new Set([root]);
      for (let grew = true; grew;) {
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

/** For each object of a kind, the devices and groups linked to it directly (objects without links are absent). */
export async function directLinks(
  db: Orm,
  propertyType: ObjectLinkProperty,
): Promise<Map<number, { deviceIds: number[]; groupIds: number[] }>> {
  const links = await db
    .select()
    .from(objectLinks)
    .where(and(eq(objectLinks.propertyType, propertyType), inArray(objectLinks.ownerType, ['deviceId', 'groupId'])));
  const out = new Map<number, { deviceIds: number[]; groupIds: number[] }>();
  for (const l of links) {
    const o = out.get(l.propertyId) ?? { deviceIds: [], groupIds: [] };
    (l.ownerType === 'deviceId' ? o.deviceIds : o.groupIds).push(l.ownerId);
    out.set(l.propertyId, o);
  }
  return out;
}

/**
 * The ids of the objects of a kind that apply to one device, as Traccar links them: linked to the
 * device, or to its group or one of that group's parents.
 */
export async function linkedToDevice(
  db: Orm,
  propertyType: ObjectLinkProperty,
  device: { id: number; groupId: number | null },
): Promise<number[]> {
  const chain: number[] = [];
  for (let g = device.groupId; g !== null && g > 0 && !chain.includes(g);) {
    chain.push(g);
    const [row] = await db.select({ parent: groups.groupId }).from(groups).where(eq(groups.id, g));
    g = row?.parent ?? null;
  }
  const owner = chain.length
    ? or(
        and(eq(objectLinks.ownerType, 'deviceId'), eq(objectLinks.ownerId, device.id)),
        and(eq(objectLinks.ownerType, 'groupId'), inArray(objectLinks.ownerId, chain)),
      )
    : and(eq(objectLinks.ownerType, 'deviceId'), eq(objectLinks.ownerId, device.id));
  const rows = await db
    .selectDistinct({ id: objectLinks.propertyId })
    .from(objectLinks)
    .where(and(eq(objectLinks.propertyType, propertyType), owner));
  return rows.map((r) => r.id);
}
