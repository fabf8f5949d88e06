import { and, eq, inArray } from 'drizzle-orm';
import { AppError, type Orm } from '@corridor/platform';
import { devices, groups } from '../db/schema';
import type { DevicesRepository } from '../devices/repository';

/** What a report needs of a device. */
export interface ReportDevice {
  id: number;
  name: string;
  attributes: Record<string, unknown>;
}

const unique = (ids: number[] | undefined): number[] => [...new Set(ids ?? [])];

/**
 * The devices a report covers: the deviceId values plus every device of the groupId values and of
 * their subgroups (Traccar's getAccessibleDevices), in id order. A company user may name only their
 * company's devices and groups; anything else (or anything missing) answers 404, so a stranger
 * cannot tell a foreign device from a missing one.
 */
export function reportDevices(db: Orm, repo: DevicesRepository) {
  async function groupTree(groupIds: number[], scope: number | undefined): Promise<number[]> {
    const found = await db.select({ id: groups.id, companyId: groups.companyId }).from(groups).where(inArray(groups.id, groupIds));
    const visible = new Set(found.filter((g) => scope === undefined || g.companyId === scope).map((g) => g.id));
    const missing = groupIds.filter((id) => !visible.has(id));
    if (missing.length) throw new AppError('NOT_FOUND', `No group ${missing.join(', ')} visible to you`, { groupId: missing });
    const all = new Set(groupIds);
    for (let frontier = groupIds; frontier.length;) {
      const children = await db.select({ id: groups.id }).from(groups).where(inArray(groups.groupId, frontier));
      frontier = children.map((c) => c.id).filter((id) => !all.has(id));
      for (const id of frontier) all.add(id);
    }
    return [...all];
  }

  return async (q: { deviceId?: number[]; groupId?: number[] }, scope: number | undefined): Promise<ReportDevice[]> => {
    const deviceIds = unique(q.deviceId);
    const groupIds = unique(q.groupId);
    if (!deviceIds.length && !groupIds.length) {
      throw new AppError('VALIDATION_FAILED', 'deviceId or groupId is required (either may repeat)', { fields: ['deviceId', 'groupId'] });
    }
    const byId = new Map<number, ReportDevice>();
    if (deviceIds.length) {
      const rows = await repo.list({ ids: deviceIds, companyId: scope, limit: deviceIds.length, offset: 0 });
      for (const r of rows) byId.set(r.id, { id: r.id, name: r.name, attributes: r.attributes });
      const missing = deviceIds.filter((id) => !byId.has(id));
      if (missing.length) throw new AppError('NOT_FOUND', `No device ${missing.join(', ')} visible to you`, { deviceId: missing });
    }
    if (groupIds.length) {
      const tree = await groupTree(groupIds, scope);
      const rows = await db
        .select({ id: devices.id, name: devices.name, attributes: devices.attributes })
        .from(devices)
        .where(and(inArray(devices.groupId, tree), scope === undefined ? undefined : eq(devices.companyId, scope)));
      for (const r of rows) byId.set(r.id, r);
    }
    return [...byId.values()].sort((a, b) => a.id - b.id);
  };
}
