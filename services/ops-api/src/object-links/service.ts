import { and, eq, inArray, or, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import {
  objectLinkOwners,
  objectLinkProperties,
  type ObjectLink,
  type ObjectLinkOwner,
  type ObjectLinkProperty,
  type ObjectLinksQuery,
} from '@corridor/contracts';
import { AppError, companyScope, isAdmin, type Identity, type Orm } from '@corridor/platform';
import { audit } from '../audit/audit';
import {
  calendars,
  computedAttributes,
  devices,
  drivers,
  groups,
  maintenances,
  objectLinks,
  savedCommands,
  type ObjectLinkRow,
} from '../db/schema';
import type { Actor } from '../resources/scope';

/** The table of each kind a link names, with its company column (null: shared by every company). */
const tables: Record<
  Exclude<ObjectLinkOwner, 'userId'> | ObjectLinkProperty,
  { table: PgTable; id: PgColumn; companyId: PgColumn; what: string }
> = {
  deviceId: { table: devices, id: devices.id, companyId: devices.companyId, what: 'device' },
  groupId: { table: groups, id: groups.id, companyId: groups.companyId, what: 'group' },
  driverId: { table: drivers, id: drivers.id, companyId: drivers.companyId, what: 'driver' },
  attributeId: {
    table: computedAttributes,
    id: computedAttributes.id,
    companyId: computedAttributes.companyId,
    what: 'computed attribute',
  },
  commandId: { table: savedCommands, id: savedCommands.id, companyId: savedCommands.companyId, what: 'saved command' },
  maintenanceId: { table: maintenances, id: maintenances.id, companyId: maintenances.companyId, what: 'maintenance' },
  calendarId: { table: calendars, id: calendars.id, companyId: calendars.companyId, what: 'calendar' },
};

interface Link {
  ownerType: ObjectLinkOwner;
  ownerId: number;
  propertyType: ObjectLinkProperty;
  propertyId: number;
}

const linkOf = (l: ObjectLink): Link => {
  const ownerType = objectLinkOwners.find((k) => l[k] !== undefined)!;
  const propertyType = objectLinkProperties.find((k) => l[k] !== undefined)!;
  return { ownerType, ownerId: l[ownerType]!, propertyType, propertyId: l[propertyType]! };
};
const toLink = (r: ObjectLinkRow): ObjectLink => ({ [r.ownerType]: r.ownerId, [r.propertyType]: r.propertyId });
const keyOf = (l: Link): string => `${l.ownerType}:${l.ownerId}:${l.propertyType}:${l.propertyId}`;
const exact = (l: Link): SQL =>
  and(
    eq(objectLinks.ownerType, l.ownerType),
    eq(objectLinks.ownerId, l.ownerId),
    eq(objectLinks.propertyType, l.propertyType),
    eq(objectLinks.propertyId, l.propertyId),
  )!;
const itemError = (
  code: 'NOT_FOUND' | 'CONFLICT' | 'VALIDATION_FAILED' | 'FORBIDDEN',
  index: number,
  l: ObjectLink,
  what: string,
): AppError => new AppError(code, `Item ${index} ${JSON.stringify(l)}: ${what}; nothing was changed`, { index, permission: l });

/**
 * Traccar's links of drivers, computed attributes, saved commands, maintenance and calendars
 * (ops.object_links), behind the gateway's /permissions. A company user links only their company's
 * devices and groups to their company's objects or shared ones; links to users are administrators'.
 * Writes are all or nothing, each link audited.
 */
export function objectLinksService(deps: { db: Orm; changed?: (kinds: ReadonlySet<ObjectLinkProperty>) => Promise<void> }) {
  const { db } = deps;

  /** For each kind, the ids among `ids` the caller may see (their company's, or shared objects for company users). */
  async function visible(kind: keyof typeof tables, ids: number[], who: Identity): Promise<Set<number>> {
    if (!ids.length) return new Set();
    const t = tables[kind];
    const scope = companyScope(who);
    const rows = (await db.select({ id: t.id, companyId: t.companyId }).from(t.table).where(inArray(t.id, ids))) as {
      id: number;
      companyId: number | null;
    }[];
    const shareable = kind !== 'deviceId' && kind !== 'groupId';
    return new Set(
      rows.filter((r) => scope === undefined || r.companyId === scope || (shareable && r.companyId === null)).map((r) => r.id),
    );
  }

  /** 404 for the first item naming something the caller may not see; 403 for a link to a user by a non-administrator. */
  async function check(items: readonly ObjectLink[], links: Link[], who: Identity): Promise<void> {
    const byKind = new Map<keyof typeof tables, Set<number>>();
    for (const l of links) {
      for (const [kind, id] of [
        [l.ownerType, l.ownerId],
        [l.propertyType, l.propertyId],
      ] as const) {
        if (kind === 'userId') continue;
        byKind.set(kind, (byKind.get(kind) ?? new Set()).add(id));
      }
    }
    const seen = new Map<string, Set<number>>();
    for (const [kind, ids] of byKind) seen.set(kind, await visible(kind, [...ids], who));
    for (const [i, l] of links.entries()) {
      if (l.ownerType === 'userId' && !isAdmin(who))
        throw itemError('FORBIDDEN', i, items[i]!, 'only administrators link objects to users');
      for (const [kind, id] of [
        [l.ownerType, l.ownerId],
        [l.propertyType, l.propertyId],
      ] as const) {
        if (kind !== 'userId' && !seen.get(kind)!.has(id))
          throw itemError('NOT_FOUND', i, items[i]!, `${tables[kind].what} ${id} not found`);
      }
    }
  }

  function distinct(items: readonly ObjectLink[]): Link[] {
    const seen = new Map<string, number>();
    return items.map((item, i) => {
      const l = linkOf(item);
      const earlier = seen.get(keyOf(l));
      if (earlier !== undefined) throw itemError('VALIDATION_FAILED', i, item, `repeats the link at index ${earlier}`);
      seen.set(keyOf(l), i);
      return l;
    });
  }

  async function announce(links: Link[]): Promise<void> {
    await deps.changed?.(new Set(links.map((l) => l.propertyType)));
  }

  return {
    async list(q: z.output<typeof ObjectLinksQuery>, who: Identity): Promise<ObjectLink[]> {
      const ownerType = objectLinkOwners.find((k) => q[k] !== undefined)!;
      const propertyType = objectLinkProperties.find((k) => q[k] !== undefined)!;
      const rows = await db
        .select()
        .from(objectLinks)
        .where(
          and(
            eq(objectLinks.ownerType, ownerType),
            eq(objectLinks.propertyType, propertyType),
            q[ownerType] ? eq(objectLinks.ownerId, q[ownerType]) : undefined,
            q[propertyType] ? eq(objectLinks.propertyId, q[propertyType]) : undefined,
          ),
        )
        .orderBy(objectLinks.id);
      let shown = rows;
      if (companyScope(who) !== undefined) {
        const properties = await visible(propertyType, [...new Set(rows.map((r) => r.propertyId))], who);
        const owners = ownerType === 'userId' ? undefined : await visible(ownerType, [...new Set(rows.map((r) => r.ownerId))], who);
        shown = rows.filter((r) => properties.has(r.propertyId) && (owners ? owners.has(r.ownerId) : r.ownerId === who.userId));
      }
      return shown.slice(q.offset, q.offset + q.limit).map(toLink);
    },
    async link(items: readonly ObjectLink[], actor: Actor): Promise<void> {
      const links = distinct(items);
      await check(items, links, actor.identity);
      await db.transaction(async (tx) => {
        const inserted = await tx.insert(objectLinks).values(links).onConflictDoNothing().returning();
        if (inserted.length !== links.length) {
          const made = new Set(inserted.map(keyOf));
          const i = links.findIndex((l) => !made.has(keyOf(l)));
          throw itemError('CONFLICT', i, items[i]!, 'this link exists already');
        }
        for (const r of inserted) {
          await audit.record(tx, actor.identity, {
            action: 'object_link.link',
            entityType: 'object_link',
            entityId: r.id,
            after: toLink(r),
            requestId: actor.requestId,
          });
        }
      });
      await announce(links);
    },
    async unlink(items: readonly ObjectLink[], actor: Actor): Promise<void> {
      const links = distinct(items);
      await check(items, links, actor.identity);
      await db.transaction(async (tx) => {
        const removed = await tx
          .delete(objectLinks)
          .where(or(...links.map(exact)))
          .returning();
        if (removed.length !== links.length) {
          const gone = new Set(removed.map(keyOf));
          const i = links.findIndex((l) => !gone.has(keyOf(l)));
          throw itemError('NOT_FOUND', i, items[i]!, 'no such link');
        }
        for (const r of removed) {
          await audit.record(tx, actor.identity, {
            action: 'object_link.unlink',
            entityType: 'object_link',
            entityId: r.id,
            before: toLink(r),
            requestId: actor.requestId,
          });
        }
      });
      await announce(links);
    },
  };
}
export type ObjectLinksService = ReturnType<typeof objectLinksService>;
