import { linkStore, permissionKeys, permissionPairOf, type Permission } from '@corridor/contracts';
import { AppError, isAdmin, notFound, type Identity, type Orm } from '@corridor/platform';
import { audit, type AuditActor } from '../audit/audit';
import type { PermissionRow } from '../db/schema';
import { invalidField } from '../http/invalid-field';
import type { UsersRepository } from '../users/repository';
import type { ForwardedLinksClient, LinkStore } from './forwarded-links';
import type { Link, PermissionsRepository } from './repository';

type Ids = Partial<Record<(typeof permissionKeys)[number], number>>;

/** The link an object with exactly two ids describes (the contract's schema has checked the pair). */
function linkOf(p: Ids): Link {
  const keys = permissionKeys.filter((k) => p[k] !== undefined);
  const pair = permissionPairOf(keys);
  if (!pair) throw new AppError('VALIDATION_FAILED', `${keys.join('+')} is not a link`);
  return { ownerType: pair[0], ownerId: p[pair[0]]!, propertyType: pair[1], propertyId: p[pair[1]]! };
}

const toPermission = (r: PermissionRow): Permission => ({ [r.ownerType]: r.ownerId, [r.propertyType]: r.propertyId });

const linkKey = (l: Link): string => `${l.ownerType}:${l.ownerId}:${l.propertyType}:${l.propertyId}`;

/** The links of a bulk body, in order; 400 naming the index of an item that repeats an earlier one. */
function bulkLinks(ps: readonly Permission[]): Link[] {
  const seen = new Map<string, number>();
  return ps.map((p, i) => {
    const l = linkOf(p);
    const earlier = seen.get(linkKey(l));
    if (earlier !== undefined) throw invalidField('body', String(i), `repeats the link at index ${earlier}`);
    seen.set(linkKey(l), i);
    return l;
  });
}

/** An error about one item of a bulk body, naming its index and the link. */
const itemError = (code: 'NOT_FOUND' | 'CONFLICT', index: number, p: Permission, what: string): AppError =>
  new AppError(code, `Item ${index} ${JSON.stringify(p)}: ${what}; nothing was changed`, { index, permission: p });

const isUniqueViolation = (err: unknown): boolean => {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
};

const keysOf = (p: Ids): string[] => permissionKeys.filter((k) => p[k] !== undefined);

/** Only administrators link users to devices, groups and geofences; the links other services keep are checked there (a rule's, a report's, an object's, a fence's). */
function checkMayLink(keys: readonly string[], who: Identity): void {
  if (!linkStore(keys) && !isAdmin(who)) throw new AppError('FORBIDDEN', 'Only administrators link users to devices, groups and geofences');
}

/**
 * Whether the caller may make (or, `read`, list) the links named: after the ids were checked (an id
 * of another company is 404 as an unknown one), a dispatcher is told 403 for links only
 * administrators make; officers read every link.
 */
function authorizeLinks(who: Identity, links: readonly Ids[], read = false): void {
  if (isAdmin(who) || (read && who.roles.includes('association_officer'))) return;
  for (const p of links) checkMayLink(keysOf(p), who);
}

/**
 * A bulk body's links by where they are kept (the gateway's table: undefined; a place of ops-api),
 * in the order of their first item; each part keeps the indexes its items had in the body.
 */
function byStore(ps: readonly Permission[]): { store: LinkStore | undefined; items: Permission[]; indexes: number[] }[] {
  const parts = new Map<string | undefined, { store: LinkStore | undefined; items: Permission[]; indexes: number[] }>();
  ps.forEach((p, i) => {
    const store = linkStore(keysOf(p));
    const part = parts.get(store?.path) ?? { store, items: [], indexes: [] };
    part.items.push(p);
    part.indexes.push(i);
    parts.set(store?.path, part);
  });
  return [...parts.values()];
}

/** An error about a part's item, renamed to the item's index in the whole body. */
function reindexed(err: unknown, indexes: number[]): unknown {
  if (!(err instanceof AppError)) return err;
  const d = err.details as { index?: unknown } | undefined;
  if (typeof d?.index !== 'number' || indexes[d.index] === undefined) return err;
  const index = indexes[d.index]!;
  return new AppError(err.code, err.message.replace(/^Item \d+/, `Item ${index}`), { ...d, index });
}

/**
 * Traccar-style links. Users are the gateway's own, so a link to an unknown user is 404; devices,
 * groups and geofences belong to other services and are taken as given. A notification rule's links
 * are the rule's (ops-api): forwarded there.
 */
type Part = ReturnType<typeof byStore>[number];

/** Applies each store's part in turn; when one fails, undoes the parts done (newest first) and throws its error, renamed to the body's index. */
async function acrossStores(
  ps: readonly Permission[],
  apply: (part: Part) => Promise<void>,
  undo: (part: Part) => Promise<void>,
): Promise<void> {
  const parts = byStore(ps);
  const seen = new Map<string, number>();
  ps.forEach((p, i) => {
    const key = JSON.stringify(Object.entries(p).sort());
    const earlier = seen.get(key);
    if (earlier !== undefined) throw invalidField('body', String(i), `repeats the link at index ${earlier}`);
    seen.set(key, i);
  });
  const done: Part[] = [];
  for (const part of parts) {
    try {
      await apply(part);
      done.push(part);
    } catch (err) {
      for (const d of done.reverse()) await undo(d);
      throw reindexed(err, part.indexes);
    }
  }
}

export function permissionsService(deps: {
  db: Orm;
  repo: PermissionsRepository;
  users: UsersRepository;
  forwarded: ForwardedLinksClient;
}) {
  const { db, repo } = deps;
  /** One store's part of a bulk body: the gateway's table in one transaction, or one place of ops-api. */
  const stores = {
    async linkInOneStore(ps: readonly Permission[], ops: LinkStore | undefined, actor: AuditActor, who: Identity): Promise<void> {
      if (ops) {
        // users are the gateway's: a link of an object to an unknown user is 404 here, before ops-api keeps it
        const users = ps.flatMap((p, i) => (p.userId !== undefined ? [[i, p.userId] as const] : []));
        const present = await deps.users.existingIds([...new Set(users.map(([, id]) => id))]);
        const unknown = users.find(([, id]) => !present.has(id));
        if (unknown) throw itemError('NOT_FOUND', unknown[0], ps[unknown[0]]!, `user ${unknown[1]} not found`);
        return deps.forwarded.link(ps, who, ops);
      }
      const links = bulkLinks(ps);
      await db.transaction(async (tx) => {
        const owners = [...new Set(links.filter((l) => l.ownerType === 'userId').map((l) => l.ownerId))];
        const present = await deps.users.existingIds(owners, tx);
        const unknown = links.findIndex((l) => l.ownerType === 'userId' && !present.has(l.ownerId));
        if (unknown >= 0) throw itemError('NOT_FOUND', unknown, ps[unknown]!, `user ${links[unknown]!.ownerId} not found`);
        const inserted = await repo.insertNew(links, tx);
        if (inserted.length !== links.length) {
          const made = new Set(inserted.map(linkKey));
          const existing = links.findIndex((l) => !made.has(linkKey(l)));
          throw itemError('CONFLICT', existing, ps[existing]!, 'this link exists already');
        }
        for (const r of inserted)
          await audit.record(tx, actor, { action: 'permission.link', entityType: 'permission', entityId: r.id, after: toPermission(r) });
      });
    },
    async unlinkInOneStore(ps: readonly Permission[], ops: LinkStore | undefined, actor: AuditActor, who: Identity): Promise<void> {
      if (ops) return deps.forwarded.unlink(ps, who, ops);
      const links = bulkLinks(ps);
      await db.transaction(async (tx) => {
        const removed = await repo.deleteExisting(links, tx);
        if (removed.length !== links.length) {
          const gone = new Set(removed.map(linkKey));
          const absent = links.findIndex((l) => !gone.has(linkKey(l)));
          throw itemError('NOT_FOUND', absent, ps[absent]!, 'no such link');
        }
        for (const r of removed)
          await audit.record(tx, actor, { action: 'permission.unlink', entityType: 'permission', entityId: r.id, before: toPermission(r) });
      });
    },
  };
  return {
    async list(q: Ids & { limit: number; offset: number }, who: Identity): Promise<Permission[]> {
      const keys = keysOf(q);
      authorizeLinks(who, [q], true);
      const ops = linkStore(keys);
      if (ops) return deps.forwarded.list(q, who, ops);
      const link = linkOf(Object.fromEntries(permissionKeys.filter((k) => q[k] !== undefined).map((k) => [k, q[k] || 1])));
      const rows = await repo.list({
        ownerType: link.ownerType,
        ownerId: q[link.ownerType] || undefined,
        propertyType: link.propertyType,
        propertyId: q[link.propertyType] || undefined,
        limit: q.limit,
        offset: q.offset,
      });
      return rows.map(toPermission);
    },
    async link(p: Permission, actor: AuditActor, who: Identity): Promise<void> {
      authorizeLinks(who, [p]);
      const ops = linkStore(keysOf(p));
      if (ops) return stores.linkInOneStore([p], ops, actor, who);
      const l = linkOf(p);
      if (l.ownerType === 'userId' && !(await deps.users.get(l.ownerId))) throw notFound('User', l.ownerId);
      try {
        await db.transaction(async (tx) => {
          const r = await repo.insert(l, tx);
          await audit.record(tx, actor, { action: 'permission.link', entityType: 'permission', entityId: r.id, after: p });
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError('CONFLICT', 'This link exists already', { permission: p });
        throw err;
      }
    },
    async unlink(p: Permission, actor: AuditActor, who: Identity): Promise<void> {
      authorizeLinks(who, [p]);
      const ops = linkStore(keysOf(p));
      if (ops) return deps.forwarded.unlink([p], who, ops);
      const l = linkOf(p);
      await db.transaction(async (tx) => {
        const r = await repo.delete(l, tx);
        if (!r) throw new AppError('NOT_FOUND', 'No such link', { permission: p });
        await audit.record(tx, actor, { action: 'permission.unlink', entityType: 'permission', entityId: r.id, before: p });
      });
    },
    /**
     * POST /permissions/bulk: every link or none. Each store's links in one transaction (each link
     * audited); a body spanning stores (the gateway's links, a notification rule's, an object's in
     * ops-api) applies them store after store, and when one store refuses, the links already made in
     * the others are removed again before the error is answered.
     */
    async linkMany(ps: readonly Permission[], actor: AuditActor, who: Identity): Promise<void> {
      authorizeLinks(who, ps);
      await acrossStores(
        ps,
        (part) => stores.linkInOneStore(part.items, part.store, actor, who),
        (part) => stores.unlinkInOneStore(part.items, part.store, actor, who),
      );
    },
    /** DELETE /permissions/bulk: every link or none, as linkMany (an absent one is 404 naming it; removed ones are made again). */
    async unlinkMany(ps: readonly Permission[], actor: AuditActor, who: Identity): Promise<void> {
      authorizeLinks(who, ps);
      await acrossStores(
        ps,
        (part) => stores.unlinkInOneStore(part.items, part.store, actor, who),
        (part) => stores.linkInOneStore(part.items, part.store, actor, who),
      );
    },
  };
}
export type PermissionsService = ReturnType<typeof permissionsService>;
