import { asc, eq, isNull, or } from 'drizzle-orm';
import type { z } from 'zod';
import type { Maintenance, MaintenanceDue, MaintenanceInput, MaintenanceQuery, MaintenanceScheduleQuery } from '@corridor/contracts';
import { cacheKeys, companyScope, type Cache, type Identity, type Logger, type Orm } from '@corridor/platform';
import { maintenances, type MaintenanceRow } from '../db/schema';
import type { AccumulatorsService } from '../devices/accumulators';
import { watchedValue } from '../devices/accumulators';
import type { LatestPositions } from '../devices/latest-positions';
import type { DevicesRepository } from '../devices/repository';
import { publishedToCache } from '../resources/cache-published';
import { resourceService } from '../resources/resource-service';
import { directLinks, linkedDevices } from '../object-links/linked-devices';
import { linkedFilter } from '../object-links/linked-filter';
import { nextDue } from './schedule';

const toMaintenance = (r: MaintenanceRow): Maintenance => ({
  id: r.id,
  name: r.name,
  type: r.type,
  start: r.start,
  period: r.period,
  companyId: r.companyId,
  attributes: r.attributes,
});

/**
 * Maintenance (Traccar) and the schedule computed from each device's latest position and accumulators,
 * for the devices each maintenance is linked to.
 * Every maintenance is published to the cache (cacheKeys.maintenances) with its links after each
 * change of it or of its links, for the `maintenance` device events: as in Traccar, a maintenance
 * applies only to the devices linked to it, directly or through their group or a parent group.
 */
export function maintenanceService(deps: {
  db: Orm;
  cache: Cache;
  logger: Logger;
  devices: DevicesRepository;
  latest: LatestPositions;
  accumulators: AccumulatorsService;
}) {
  const { db } = deps;
  const crud = resourceService<MaintenanceRow, Maintenance, MaintenanceInput, z.output<typeof MaintenanceQuery>>(db, {
    name: 'Maintenance',
    entityType: 'maintenance',
    table: maintenances,
    company: maintenances.companyId,
    shared: true,
    keywordColumns: [maintenances.name, maintenances.type],
    filters: (q) => [q.type ? eq(maintenances.type, q.type) : undefined, ...linkedFilter(db, maintenances.id, 'maintenanceId', q)],
    toEntity: toMaintenance,
    toValues: (i, companyId) => ({ name: i.name, type: i.type, start: i.start, period: i.period, companyId, attributes: i.attributes }),
  });

  async function schedule(q: z.output<typeof MaintenanceScheduleQuery>, who: Identity): Promise<MaintenanceDue[]> {
    const scope = companyScope(who);
    const devices = await deps.devices.list({
      ids: q.deviceId,
      groupIds: q.groupId !== undefined ? [q.groupId] : undefined,
      companyId: scope,
      limit: q.limit,
      offset: q.offset,
    });
    if (!devices.length) return [];
    const rules = await db
      .select()
      .from(maintenances)
      .where(
        q.maintenanceId !== undefined
          ? eq(maintenances.id, q.maintenanceId)
          : scope !== undefined
            ? or(eq(maintenances.companyId, scope), isNull(maintenances.companyId))
            : undefined,
      );
    const ids = devices.map((d) => d.id);
    // as for its events, a maintenance is due only on the devices linked to it (directly or through their groups)
    const [positions, accumulators, linked] = await Promise.all([
      deps.latest(ids),
      deps.accumulators.forDevices(ids),
      linkedDevices(db, 'maintenanceId'),
    ]);
    const out: MaintenanceDue[] = [];
    for (const d of devices) {
      const p = positions.get(d.id);
      const items: MaintenanceDue[] = [];
      for (const m of rules) {
        if (!linked.get(m.id)?.includes(d.id)) continue;
        if (m.companyId !== null && m.companyId !== d.companyId) continue;
        if (scope !== undefined && m.companyId !== null && m.companyId !== scope) continue;
        const current = watchedValue(m.type, p, accumulators.get(d.id));
        const due = current === null ? null : nextDue(m.start, m.period, current);
        items.push({
          deviceId: d.id,
          deviceName: d.name,
          maintenanceId: m.id,
          name: m.name,
          type: m.type,
          start: m.start,
          period: m.period,
          current,
          nextDue: due,
          remaining: due === null || current === null ? null : due - current,
          positionTime: p ? new Date(p.fixTime).toISOString() : null,
        });
      }
      items.sort((a, b) => (a.remaining ?? Infinity) - (b.remaining ?? Infinity) || a.maintenanceId - b.maintenanceId);
      out.push(...items);
    }
    return out;
  }
  // with the devices and groups linked to each: a maintenance applies to those only (Traccar), event-settings.ts
  const load = async () => {
    const [rows, links] = await Promise.all([
      db
        .select({
          id: maintenances.id,
          name: maintenances.name,
          type: maintenances.type,
          start: maintenances.start,
          period: maintenances.period,
          companyId: maintenances.companyId,
        })
        .from(maintenances)
        .orderBy(asc(maintenances.id)),
      directLinks(db, 'maintenanceId'),
    ]);
    return rows.map((r) => ({ ...r, links: links.get(r.id) ?? { deviceIds: [], groupIds: [] } }));
  };
  return {
    ...publishedToCache(crud, { cache: deps.cache, key: cacheKeys.maintenances(), load, logger: deps.logger, what: 'maintenances' }),
    schedule,
  };
}
export type MaintenanceService = ReturnType<typeof maintenanceService>;
