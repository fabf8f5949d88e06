import { permissionKeys, permissionPairOf, type Permission } from '@corridor/contracts';
import { AppError, notFound, type Orm } from '@corridor/platform';
import { audit, type AuditActor } from '../audit/audit';
import type { PermissionRow } from '../db/schema';
import type { UsersRepository } from '../users/repository';
import type { Link, PermissionsRepository } from './repository';

type Ids = Partial<Record<(typeof permissionKeys)[number], number>>;

/** The link an object with exactly two ids describes (the contract's schema has checked the pair). */
export function linkOf(p: Ids): Link {
  const keys = permissionKeys.filter((k) => p[k] !== undefined);
  const pair = permissionPairOf(keys);
  if (!pair) throw new AppError('VALIDATION_FAILED', `${keys.join('+')} is not a link`);
  return { ownerType: pair[0], ownerId: p[pair[0]]!, propertyType: pair[1], propertyId: p[pair[1]]! };
}

export const toPermission = (r: PermissionRow): Permission => ({ [r.ownerType]: r.ownerId, [r.propertyType]: r.propertyId });

const isUniqueViolation = (err: unknown): boolean => {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
};

/**
 * Traccar-style links. Users are the gateway's own, so a link to an unknown user is 404; devices,
 * groups and geofences belong to other services and are taken as given.
 */
export function permissionsService(deps: { db: Orm; repo: PermissionsRepository; users: UsersRepository }) {
  const { db, repo } = deps;
  return {
    async list(q: Ids & { limit: number; offset: number }): Promise<Permission[]> {
      const link = linkOf(Object.fromEntries(permissionKeys.filter((k) => q[k] !== undefined).map((k) => [k, q[k] || 1])));
      const rows = await repo.list({
        ownerType: link.ownerType, ownerId: q[link.ownerType] || undefined,
        propertyType: link.propertyType, propertyId: q[link.propertyType] || undefined,
        limit: q.limit, offset: q.offset,
      });
      return rows.map(toPermission);
    },
    async link(p: Permission, actor: AuditActor): Promise<void> {
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
    async unlink(p: Permission, actor: AuditActor): Promise<void> {
      const l = linkOf(p);
      await db.transaction(async (tx) => {
        const r = await repo.delete(l, tx);
        if (!r) throw new AppError('NOT_FOUND', 'No such link', { permission: p });
        await audit.record(tx, actor, { action: 'permission.unlink', entityType: 'permission', entityId: r.id, before: p });
      });
    },
  };
}
export type PermissionsService = ReturnType<typeof permissionsService>;
