import { eq, isNotNull, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import type { TrackingUnit, TrackingUnitInput, TrackingUnitsQuery } from '@corridor/contracts';
import type { Orm } from '@corridor/platform';
import { devices, trackingUnits, truckOwners, trucks, type TrackingUnitRow } from '../db/schema';
import { invalidField } from '../resources/pg-errors';
import { resourceService } from '../resources/resource-service';

const iso = (d: Date | null): string | null => d?.toISOString() ?? null;
const date = (s: string | null): Date | null => (s ? new Date(s) : null);

const toTrackingUnit = (r: TrackingUnitRow): TrackingUnit => ({
  id: r.id,
  deviceId: r.deviceId,
  truckId: r.truckId,
  simIccid: r.simIccid,
  simPhone: r.simPhone,
  simOperator: r.simOperator,
  installedAt: iso(r.installedAt),
  installedBy: r.installedBy,
  removedAt: iso(r.removedAt),
  companyId: r.companyId,
  notes: r.notes,
  attributes: r.attributes,
});

/**
 * Tracking units (device + SIM + installation). The device and the truck must belong to the unit's
 * company; a device has one active unit at a time (409 naming deviceId).
 */
export function trackingUnitsService(db: Orm) {
  return resourceService<TrackingUnitRow, TrackingUnit, TrackingUnitInput, z.output<typeof TrackingUnitsQuery>>(db, {
    name: 'Tracking unit',
    entityType: 'tracking_unit',
    table: trackingUnits,
    company: trackingUnits.companyId,
    shared: false,
    keywordColumns: [trackingUnits.simIccid, trackingUnits.simPhone, trackingUnits.simOperator, trackingUnits.installedBy],
    filters: (q) => [
      q.deviceId !== undefined ? eq(trackingUnits.deviceId, q.deviceId) : undefined,
      q.truckId !== undefined ? eq(trackingUnits.truckId, q.truckId) : undefined,
      q.active === undefined ? undefined : q.active ? isNull(trackingUnits.removedAt) : isNotNull(trackingUnits.removedAt),
    ],
    toEntity: toTrackingUnit,
    toValues: (i, companyId) => ({
      deviceId: i.deviceId,
      truckId: i.truckId,
      simIccid: i.simIccid,
      simPhone: i.simPhone,
      simOperator: i.simOperator,
      installedAt: date(i.installedAt),
      installedBy: i.installedBy,
      removedAt: date(i.removedAt),
      companyId,
      notes: i.notes,
      attributes: i.attributes,
    }),
    async validate(i, companyId) {
      const [d] = await db.select({ companyId: devices.companyId }).from(devices).where(eq(devices.id, i.deviceId));
      if (!d) throw invalidField('deviceId', `device ${i.deviceId} does not exist`);
      if (companyId !== null && d.companyId !== companyId)
        throw invalidField('deviceId', `device ${i.deviceId} does not belong to company ${companyId}`);
      if (i.truckId !== null) {
        const [t] = await db
          .select({ companyId: truckOwners.companyId })
          .from(trucks)
          .innerJoin(truckOwners, eq(trucks.ownerId, truckOwners.id))
          .where(eq(trucks.id, i.truckId));
        if (!t) throw invalidField('truckId', `truck ${i.truckId} does not exist`);
        if (companyId !== null && t.companyId !== companyId)
          throw invalidField('truckId', `truck ${i.truckId} does not belong to company ${companyId}`);
      }
      if (i.installedAt && i.removedAt && Date.parse(i.removedAt) < Date.parse(i.installedAt))
        throw invalidField('removedAt', 'must not be before installedAt');
    },
    unique: { tracking_units_active_device_idx: 'deviceId' },
  });
}
export type TrackingUnitsService = ReturnType<typeof trackingUnitsService>;
