import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { DeviceRegistryMessage } from '@corridor/contracts';
import { cacheKeys, counter, PublishedList, SettingLayers, unavailable, type Cache, type Logger, type Orm } from '@corridor/platform';
import type { TripThresholds } from '../reports/settings';
import { eventConfigOf } from './event-config';
import type { EventConfig, MaintenanceRule } from './position-events';
import type { SpeedLimitFences } from './speed-limit-fences';

const registryMisses = counter(
  'ops_event_settings_registry_misses_total',
  'Devices whose event settings were read from PostgreSQL (no registry entry in the cache)',
);

const MaintenanceList = z.array(
  z.object({
    id: z.number().int(),
    name: z.string(),
    type: z.string(),
    start: z.number(),
    period: z.number(),
    companyId: z.number().int().nullable().default(null),
    /** the devices and groups linked to it (absent in lists published before links were: then it applies to none) */
    links: z.object({ deviceIds: z.array(z.number().int()), groupIds: z.array(z.number().int()) }).default({ deviceIds: [], groupIds: [] }),
  }),
);

type Maintenance = z.output<typeof MaintenanceList>[number];
interface DeviceEntry {
  attributes: Record<string, unknown>;
  groupId: number | null;
  companyId: number | null;
}

export interface EventSettingsDeps {
  db: Orm;
  cache: Cache;
  logger: Logger;
  trips: TripThresholds;
  /** ms, EVENT_OVERSPEED_MINIMAL_DURATION_S */
  overspeedMinimalDuration: number;
  /** How often the published lists (groups, maintenances, server attributes) are re-read at most; 2 s. */
  reloadMs?: number;
  now?: () => number;
  /** The geofences with a speed limit (absent: geofence limits are not applied). */
  fences?: SpeedLimitFences;
}

/**
 * The event settings of the devices in a consumed batch, without a PostgreSQL query per batch: a
 * device's attributes, group and company come from its registry entry in the shared cache
 * (`device:id:<id>`, which ops-api rewrites before it answers a device change), the groups'
 * attributes and the maintenances from the lists ops-api publishes after each change (groups:v1,
 * maintenances:v1) and the server's attributes from the gateway's (server-attributes:v1). The
 * lists are re-read at most every reloadMs and applied only when their text changed, so a change
 * takes effect within reloadMs; a device change at the next batch. A device without a registry
 * entry (the cache lost it) is read from PostgreSQL, counted.
 */
export function eventSettingsReader(deps: EventSettingsDeps) {
  const { cache, logger } = deps;
  let maintenances: Maintenance[] = [];
  const common = { cache, logger, reloadMs: deps.reloadMs ?? 2000, ...(deps.now ? { now: deps.now } : {}) };
  const layers = new SettingLayers(common);
  const maintenanceList = new PublishedList({
    ...common,
    key: cacheKeys.maintenances(),
    what: 'maintenances',
    schema: MaintenanceList,
    whenMissing: 'keep',
    apply: (l) => void (maintenances = l),
  });

  async function fromPostgres(ids: number[]): Promise<Map<number, DeviceEntry>> {
    const out = new Map<number, DeviceEntry>();
    if (!ids.length) return out;
    let result: unknown;
    try {
      result = await deps.db.execute(sql`SELECT id, attributes, group_id, company_id FROM ops.devices
        WHERE id IN (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})`);
    } catch (err) {
      throw unavailable('PostgreSQL', err);
    }
    type Row = { id: number; attributes: Record<string, unknown> | null; group_id: number | null; company_id: number | null };
    for (const r of (result as { rows?: Row[] }).rows ?? (result as Row[])) {
      out.set(Number(r.id), {
        attributes: r.attributes ?? {},
        groupId: r.group_id === null ? null : Number(r.group_id),
        companyId: r.company_id === null ? null : Number(r.company_id),
      });
    }
    return out;
  }

  async function devices(ids: number[]): Promise<Map<number, DeviceEntry>> {
    let raw: (string | null)[];
    try {
      raw = ids.length ? await cache.mget(ids.map((id) => cacheKeys.deviceById(id))) : [];
    } catch (err) {
      throw unavailable('cache', err);
    }
    const out = new Map<number, DeviceEntry>();
    const missing: number[] = [];
    ids.forEach((id, i) => {
      let entry: DeviceRegistryMessage | undefined;
      try {
        const parsed = raw[i] ? DeviceRegistryMessage.safeParse(JSON.parse(raw[i]!)) : undefined;
        entry = parsed?.success ? parsed.data : undefined;
      } catch {
        entry = undefined;
      }
      if (!entry) missing.push(id);
      else if (!entry.deleted) out.set(id, { attributes: entry.attributes ?? {}, groupId: entry.groupId, companyId: entry.companyId });
    });
    if (missing.length) {
      registryMisses.inc(missing.length);
      for (const [id, e] of await fromPostgres(missing)) out.set(id, e);
    }
    return out;
  }

  return async (deviceIds: number[]): Promise<Map<number, EventConfig>> => {
    const out = new Map<number, EventConfig>();
    if (!deviceIds.length) return out;
    await Promise.all([layers.refresh(), maintenanceList.refresh()]);
    for (const [id, d] of await devices(deviceIds)) {
      const line = layers.groupLine(d.groupId).map((g) => g.id);
      // the device's group and its parents (a group not published yet: itself)
      const chain = line.length || d.groupId === null ? line : [d.groupId];
      // as in Traccar, a maintenance applies to the devices linked to it, directly or through a group of the chain
      const applying: MaintenanceRule[] = maintenances
        .filter((m) => m.links.deviceIds.includes(id) || chain.some((g) => m.links.groupIds.includes(g)))
        .map(({ id: mid, name, type, start, period }) => ({ id: mid, name, type, start, period }));
      const cfg = eventConfigOf(deps.trips, deps.overspeedMinimalDuration, {
        device: d.attributes,
        groups: layers.groupChain(d.groupId),
        server: layers.server,
        maintenances: applying,
      });
      const fences = deps.fences;
      const owner = { deviceId: id, groupChain: chain };
      out.set(id, fences ? { ...cfg, fencesAt: (lon, lat) => fences.containing(owner, lon, lat) } : cfg);
    }
    return out;
  };
}
export type EventConfigReader = ReturnType<typeof eventSettingsReader>;
