import type { Cache } from '@corridor/platform';

/**
 * Hot state of the geofence service in the cache (Redis), so evaluators scale out and restart
 * cleanly: one JSON fence-state per device, and per fence the set of devices inside it now
 * (a hash: device id → {enteredAt, companyId}).
 */
export const geofenceKeys = {
  deviceState: (deviceId: number): string => `geofence:state:${deviceId}`,
  inside: (fenceId: string | number): string => `geofence:inside:${fenceId}`,
};

export interface InsideEntry {
  /** epoch ms of the first inside fix of the visit */
  enteredAt: number;
  companyId: number | null;
}

export interface InsideChange {
  fenceId: string;
  deviceId: number;
  /** null = the device left (or the fence no longer applies to it) */
  entry: InsideEntry | null;
}

/** Applies membership changes, one hset / hdel per fence. */
export async function applyInsideChanges(cache: Cache, changes: readonly InsideChange[]): Promise<void> {
  const byFence = new Map<string, { set: Record<string, string>; del: string[] }>();
  for (const c of changes) {
    let f = byFence.get(c.fenceId);
    if (!f) byFence.set(c.fenceId, (f = { set: {}, del: [] }));
    if (c.entry) f.set[String(c.deviceId)] = JSON.stringify(c.entry);
    else {
      delete f.set[String(c.deviceId)];
      f.del.push(String(c.deviceId));
    }
  }
  await Promise.all(
    [...byFence].map(async ([fenceId, { set, del }]) => {
      const key = geofenceKeys.inside(fenceId);
      if (Object.keys(set).length) await cache.hset(key, set);
      const gone = del.filter((d) => !(d in set));
      if (gone.length) await cache.hdel(key, ...gone);
    }),
  );
}

/** Devices inside the fence now (unparseable entries are skipped). */
export async function readInside(cache: Cache, fenceId: string | number): Promise<{ deviceId: number; entry: InsideEntry }[]> {
  const all = await cache.hgetall(geofenceKeys.inside(fenceId));
  const out: { deviceId: number; entry: InsideEntry }[] = [];
  for (const [device, raw] of Object.entries(all)) {
    try {
      const entry = JSON.parse(raw) as InsideEntry;
      if (typeof entry.enteredAt === 'number')
        out.push({ deviceId: Number(device), entry: { enteredAt: entry.enteredAt, companyId: entry.companyId ?? null } });
    } catch {
      // a foreign or corrupt value: not a member
    }
  }
  return out;
}
