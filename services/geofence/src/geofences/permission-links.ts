import type { GeofencePermission, GeofencePermissionAnswer } from '@corridor/contracts';
import { AppError, companyScope, type Identity, type Orm } from '@corridor/platform';
import { audit } from '../audit/audit';
import type { GeofenceLinkRow } from '../db/schema';
import { toLink } from './definition';
import type { GeofencesRepository, LinkTarget } from './repository';
import type { Actor } from './service';

const targetOf = (p: GeofencePermission): LinkTarget => (p.deviceId !== undefined ? { deviceId: p.deviceId } : { groupId: p.groupId! });
const keyOf = (p: GeofencePermission): string => `${p.geofenceId}:${p.deviceId ?? ''}:${p.groupId ?? ''}`;
const toPermission = (l: GeofenceLinkRow): GeofencePermissionAnswer =>
  l.deviceId !== null ? { deviceId: l.deviceId, geofenceId: l.geofenceId } : { groupId: l.groupId!, geofenceId: l.geofenceId };

/** An error about one item of a body, naming its index and the link (the gateway renames the index to the whole body's). */
const itemError = (
  code: 'NOT_FOUND' | 'CONFLICT' | 'FORBIDDEN' | 'VALIDATION_FAILED',
  index: number,
  p: GeofencePermission,
  what: string,
): AppError => new AppError(code, `Item ${index} ${JSON.stringify(p)}: ${what}; nothing was changed`, { index, permission: p });

export interface GeofencePermissionsDeps {
  orm: Orm;
  repo: GeofencesRepository;
  /** the company of a device or a group, where known (who may see a link to a shared fence) */
  ownerCompany: (p: GeofencePermission) => Promise<number | null | undefined>;
  /** after a committed change: republish the fences' definitions and reload them here */
  announce: (ids: number[]) => Promise<void>;
}

/**
 * Traccar's /permissions links of a geofence to devices and groups, as the gateway forwards them:
 * the rows of geofence_links that the evaluator applies (geofences.v1 carries them). Devices and
 * groups were checked against the caller's company by the references of the body; the fence must
 * be one the caller may change (another company's: 404, a shared one: 403 unless staff). All or
 * nothing, each link audited.
 */
export function geofencePermissions(deps: GeofencePermissionsDeps) {
  const { orm, repo } = deps;

  function distinct(ps: readonly GeofencePermission[]): void {
    const seen = new Map<string, number>();
    ps.forEach((p, i) => {
      const earlier = seen.get(keyOf(p));
      if (earlier !== undefined) throw itemError('VALIDATION_FAILED', i, p, `repeats the link at index ${earlier}`);
      seen.set(keyOf(p), i);
    });
  }

  async function checkFences(ps: readonly GeofencePermission[], who: Identity, tx: Orm): Promise<void> {
    const scope = companyScope(who);
    for (const [i, p] of ps.entries()) {
      const fence = await repo.get(p.geofenceId!, tx);
      if (!fence || (scope !== undefined && fence.companyId !== null && fence.companyId !== scope))
        throw itemError('NOT_FOUND', i, p, `geofence ${p.geofenceId} not found`);
      if (scope !== undefined && fence.companyId === null)
        throw itemError('FORBIDDEN', i, p, `geofence ${p.geofenceId} is shared by the platform; only staff link it`);
    }
  }

  return {
    async list(
      q: { deviceId?: number; groupId?: number; geofenceId?: number; limit: number; offset: number },
      who: Identity,
    ): Promise<GeofencePermissionAnswer[]> {
      const rows = await repo.linkRows({
        owner: q.deviceId !== undefined ? 'device' : 'group',
        ownerId: (q.deviceId ?? q.groupId) || undefined,
        geofenceId: q.geofenceId || undefined,
      });
      const scope = companyScope(who);
      const fences =
        scope === undefined
          ? undefined
          : new Map((await repo.byIds([...new Set(rows.map((r) => r.geofenceId))])).map((f) => [f.id, f.companyId]));
      const visible: GeofenceLinkRow[] = [];
      for (const r of rows) {
        const owner = fences?.get(r.geofenceId);
        if (fences === undefined || owner === scope || (owner === null && (await deps.ownerCompany(toPermission(r))) === scope))
          visible.push(r);
      }
      return visible.slice(q.offset, q.offset + q.limit).map(toPermission);
    },

    async link(ps: readonly GeofencePermission[], actor: Actor): Promise<void> {
      distinct(ps);
      await orm.transaction(async (tx) => {
        await checkFences(ps, actor.identity, tx);
        for (const [i, p] of ps.entries()) {
          const l = await repo.link(p.geofenceId!, targetOf(p), tx);
          if (!l) throw itemError('CONFLICT', i, p, 'this link exists already');
          await audit.record(tx, actor.identity, {
            action: 'geofence.link',
            entityType: 'geofence_link',
            entityId: l.geofenceId,
            after: toLink(l),
            requestId: actor.requestId,
          });
        }
      });
      await deps.announce([...new Set(ps.map((p) => p.geofenceId!))]);
    },

    async unlink(ps: readonly GeofencePermission[], actor: Actor): Promise<void> {
      distinct(ps);
      await orm.transaction(async (tx) => {
        await checkFences(ps, actor.identity, tx);
        for (const [i, p] of ps.entries()) {
          const l = await repo.unlink(p.geofenceId!, targetOf(p), tx);
          if (!l) throw itemError('NOT_FOUND', i, p, 'no such link');
          await audit.record(tx, actor.identity, {
            action: 'geofence.unlink',
            entityType: 'geofence_link',
            entityId: l.geofenceId,
            before: toLink(l),
            requestId: actor.requestId,
          });
        }
      });
      await deps.announce([...new Set(ps.map((p) => p.geofenceId!))]);
    },
  };
}
export type GeofencePermissions = ReturnType<typeof geofencePermissions>;
