import { eq, inArray } from 'drizzle-orm';
import type { Device, DeviceAccumulators, PositionMessage } from '@corridor/contracts';
import type { Orm } from '@corridor/platform';
import { audit } from '../audit/audit';
import { deviceAccumulators, type DeviceAccumulatorRow } from '../db/schema';
import type { Actor } from '../resources/scope';
import type { LatestPositions } from './latest-positions';

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : null);

/** The device's own distance reading in metres: the odometer it reports, else a totalDistance attribute. */
export const distanceReading = (p: PositionMessage | undefined): number | null =>
  p ? (p.odometer ?? num(p.attributes.totalDistance) ?? num(p.attributes.odometer)) : null;
/** The device's own engine-hours reading in milliseconds (attribute hours). */
export const hoursReading = (p: PositionMessage | undefined): number | null => (p ? num(p.attributes.hours) : null);

/**
 * The value of a watched quantity now: totalDistance/odometer (m) and hours (ms) count on from the
 * accumulator set by hand (set + (reading − reading when set)); any other type is the position's
 * numeric attribute of that name.
 */
export function watchedValue(type: string, p: PositionMessage | undefined, acc: DeviceAccumulatorRow | undefined): number | null {
  const accumulated = (set: number | null | undefined, base: number | null | undefined, reading: number | null): number | null => {
    if (set === null || set === undefined) return reading;
    if (reading === null || base === null || base === undefined) return set;
    return set + Math.max(0, reading - base);
  };
  if (type === 'totalDistance' || type === 'odometer') return accumulated(acc?.totalDistance, acc?.totalDistanceBase, distanceReading(p));
  if (type === 'hours') return accumulated(acc?.hours, acc?.hoursBase, hoursReading(p));
  return p ? num((p as unknown as Record<string, unknown>)[type] ?? p.attributes[type]) : null;
}

/** Traccar PUT /devices/{id}/accumulators: set odometer and hours as of the latest position. */
export function accumulatorsService(deps: { db: Orm; latest: LatestPositions }) {
  const { db } = deps;
  return {
    async forDevices(ids: number[]): Promise<Map<number, DeviceAccumulatorRow>> {
      if (!ids.length) return new Map();
      const rows = await db.select().from(deviceAccumulators).where(inArray(deviceAccumulators.deviceId, ids));
      return new Map(rows.map((r) => [r.deviceId, r]));
    },
    async set(device: Device, input: DeviceAccumulators, actor: Actor): Promise<void> {
      const p = (await deps.latest([device.id])).get(device.id);
      const [before] = await db.select().from(deviceAccumulators).where(eq(deviceAccumulators.deviceId, device.id));
      const values = {
        totalDistance: input.totalDistance ?? before?.totalDistance ?? null,
        totalDistanceBase: input.totalDistance !== undefined ? distanceReading(p) : (before?.totalDistanceBase ?? null),
        hours: input.hours ?? before?.hours ?? null,
        hoursBase: input.hours !== undefined ? hoursReading(p) : (before?.hoursBase ?? null),
        updatedAt: new Date(),
      };
      await db.transaction(async (tx) => {
        await tx.insert(deviceAccumulators).values({ deviceId: device.id, ...values }).onConflictDoUpdate({ target: deviceAccumulators.deviceId, set: values });
        await audit.record(tx, actor.identity, {
          action: 'device.accumulators.set', entityType: 'device', entityId: device.id, companyId: device.companyId,
          before: before ? { totalDistance: before.totalDistance, hours: before.hours } : null,
          after: { totalDistance: values.totalDistance, hours: values.hours }, requestId: actor.requestId,
        });
      });
    },
  };
}
export type AccumulatorsService = ReturnType<typeof accumulatorsService>;
