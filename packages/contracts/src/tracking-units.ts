import { z } from 'zod';
import { ref } from './references';
import { Attributes, IsoDateTime } from './common';
import { queryFlag, ListQuery, OwnerCompanyInput, resourceEndpoints, trackingWriters } from './resource-endpoints';

/**
 * A tracking unit: a device, the SIM card in it and its installation on a truck. A device has at
 * most one active unit (removedAt null) at a time.
 */
export const TrackingUnit = z
  .object({
    id: z.number().int().positive(),
    deviceId: z.number().int(),
    truckId: z.number().int().nullable(),
    simIccid: z.string().nullable().describe('SIM ICCID, 18 to 22 digits'),
    simPhone: z.string().nullable().describe('SIM MSISDN, E.164'),
    simOperator: z.string().nullable(),
    installedAt: IsoDateTime.nullable(),
    installedBy: z.string().nullable().describe('Installer (technician or firm)'),
    removedAt: IsoDateTime.nullable(),
    companyId: z.number().int().nullable(),
    notes: z.string().nullable(),
    attributes: Attributes,
  })
  .meta({ id: 'TrackingUnit' });
export type TrackingUnit = z.infer<typeof TrackingUnit>;

export const TrackingUnitInput = z
  .object({
    deviceId: ref('device', z.number().int().positive()),
    truckId: ref('truck', z.number().int().positive()).nullable().default(null),
    simIccid: z
      .string()
      .regex(/^\d{18,22}$/, '18 to 22 digits')
      .nullable()
      .default(null),
    simPhone: z
      .string()
      .regex(/^\+\d{8,15}$/, 'E.164, e.g. +254712345678')
      .nullable()
      .default(null),
    simOperator: z.string().max(64).nullable().default(null),
    installedAt: IsoDateTime.nullable().default(null),
    installedBy: z.string().max(128).nullable().default(null),
    removedAt: IsoDateTime.nullable().default(null),
    companyId: OwnerCompanyInput,
    notes: z.string().max(2000).nullable().default(null),
    attributes: Attributes.default({}),
  })
  .meta({ id: 'TrackingUnitInput' });
export type TrackingUnitInput = z.infer<typeof TrackingUnitInput>;

export const TrackingUnitsQuery = ListQuery.extend({
  deviceId: ref('device', z.coerce.number().int().positive()).optional(),
  truckId: ref('truck', z.coerce.number().int().positive()).optional(),
  active: queryFlag.optional().describe('true: installed units only (removedAt null); false: removed ones'),
});

export const trackingUnitsEndpoints = resourceEndpoints({
  id: 'tracking-units',
  path: '/tracking-unit',
  noun: 'tracking unit',
  kind: 'trackingUnit',
  tags: ['tracking-units'],
  entity: TrackingUnit,
  input: TrackingUnitInput,
  query: TrackingUnitsQuery,
  write: trackingWriters,
  companyScoped: true,
  description:
    "Device + SIM + installation. The device and the truck must belong to the unit's company; a second active unit for a device " +
    'answers 409. Keyword searches ICCID, phone, operator and installer.',
});
