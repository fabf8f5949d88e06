import { eq, inArray } from 'drizzle-orm';
import type { Device, DeviceAccumulators, PositionMessage } from '@corridor/contracts';
import { cacheKeys, unavailable, type Cache, type Orm } from '@corridor/platform';
import { audit } from '../audit/audit';
import { deviceAccumulators, type DeviceAccumulatorRow } from '../db/schema';
import type { Actor } from '../resources/scope';

const num = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v)
    ? v
    : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))
      ? Number(v)
      : null;
/** The override key outlives any silence a device may keep before its next position. */
const OVERRIDE_TTL_SECONDS = 365 * 86_400;

/**
 * A server accumulator now: the value set by hand when it was set after the latest position was
 * made (ingest applies it from the device's next position on), else the latest position's attribute
 * (ingest's running totalDistance in m, hours in ms).
 */
function accumulated(key: 'totalDistance' | 'hours', p: PositionMessage | undefined, acc: DeviceAccumulatorRow | undefined): number | null {
  const set = acc?.[key];
  if (set !== null && set !== undefined && (!p || acc!.updatedAt.getTime() > Date.parse(p.serverTime))) return set;
  return p ? num(p.attributes[key]) : null;
}

/**
 * The value of a watched quantity now (Traccar's maintenance types): totalDistance (m) and hours
 * (ms) are the server accumulators; odometer is the device's own reading, or totalDistance when the
 * device sends none; any other type is the latest position's numeric field or attribute of that name.
 */
export function watchedValue(type: string, p: PositionMessage | undefined, acc: DeviceAccumulatorRow | undefined): number | null {
  if (type === 'totalDistance' || type === 'hours') return accumulated(type, p, acc);
  if (type === 'odometer') return p?.odometer ?? num(p?.attributes.odometer) ?? accumulated('totalDistance', p, acc);
  return p ? num((p as unknown as Record<string, unknown>)[type] ?? p.attributes[type]) : null;
}

/** Traccar PUT /devices/{id}/accumulators: totalDistance and hours from now on (audited). */
export function accumulatorsService(deps: { db: Orm; cache: Cache; now?: () => Date }) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  return {
    async forDevices(ids: number[]): Promise<Map<number, DeviceAccumulatorRow>> {
      if (!ids.length) return new Map();
      const rows = await db.select().from(deviceAccumulators).where(inArray(deviceAccumulators.deviceId, ids));
      return new Map(rows.map((r) => [r.deviceId, r]));
    },
    async set(device: Device, input: DeviceAccumulators, actor: Actor): Promise<void> {
      const at = now();
      const [before] = await db.select().from(deviceAccumulators).where(eq(deviceAccumulators.deviceId, device.id));
      const values = {
        totalDistance: input.totalDistance ?? before?.totalDistance ?? null,
        hours: input.hours ?? before?.hours ?? null,
        updatedAt: at,
      };
      await db.transaction(async (tx) => {
        await tx
          .insert(deviceAccumulators)
          .values({ deviceId: device.id, ...values })
          .onConflictDoUpdate({ target: deviceAccumulators.deviceId, set: values });
        await audit.record(tx, actor.identity, {
          action: 'device.accumulators.set',
          entityType: 'device',
          entityId: device.id,
          companyId: device.companyId,
          before: before ? { totalDistance: before.totalDistance, hours: before.hours } : null,
          after: { totalDistance: values.totalDistance, hours: values.hours },
          requestId: actor.requestId,
        });
      });
      // ingest takes the values given now as the base of the device's next position
      const override = {
        ...(input.totalDistance !== undefined ? { totalDistance: input.totalDistance } : {}),
        ...(input.hours !== undefined ? { hours: input.hours } : {}),
        setAt: at.getTime(),
      };
      await deps.cache.set(cacheKeys.accumulatorsSet(device.id), JSON.stringify(override), OVERRIDE_TTL_SECONDS).catch((err: unknown) => {
        throw unavailable('cache', err);
      });
    },
  };
}
export type AccumulatorsService = ReturnType<typeof accumulatorsService>;
