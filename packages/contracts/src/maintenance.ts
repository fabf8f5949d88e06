import { z } from 'zod';
import { ref } from './references';
import { defineEndpoint } from './endpoint';
import { Attributes, IsoDateTime, repeated } from './common';
import { OwnerCompanyInput, resourceEndpoints, trackingWriters } from './resource-endpoints';
import { LinkedListQuery } from './object-links';

/**
 * Maintenance, in Traccar's shape: `type` names the position value watched (totalDistance or
 * odometer in metres, hours in milliseconds, or any numeric position attribute); due at `start`,
 * then every `period` after it. A company's maintenance applies to that company's devices; a
 * shared one (companyId null) to every device.
 */
export const Maintenance = z
  .object({
    id: z.number().int().positive(),
    name: z.string(),
    type: z.string().describe('Watched value: totalDistance (m), odometer (m), hours (ms) or a numeric position attribute'),
    start: z.number(),
    period: z.number(),
    companyId: z.number().int().nullable(),
    attributes: Attributes,
  })
  .meta({ id: 'Maintenance' });
export type Maintenance = z.infer<typeof Maintenance>;

export const MaintenanceInput = z
  .object({
    name: z.string().min(1).max(128),
    type: z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, 'a position attribute name (letters, digits, _)'),
    start: z.number().min(0).max(1e15).describe("the first due value, in the unit of type (metres, milliseconds, the attribute's own)"),
    period: z
      .number()
      .min(0.001)
      .max(1e15)
      .describe('due again every period after start (at least 0.001 of the unit: a smaller one made the schedule overflow)'),
    companyId: OwnerCompanyInput,
    attributes: Attributes.default({}),
  })
  .meta({ id: 'MaintenanceInput' });
export type MaintenanceInput = z.infer<typeof MaintenanceInput>;

export const MaintenanceQuery = LinkedListQuery.extend({ type: z.string().max(64).optional() });

/** One maintenance due for one device, computed from the device's latest position. */
export const MaintenanceDue = z
  .object({
    deviceId: z.number().int(),
    deviceName: z.string(),
    maintenanceId: z.number().int(),
    name: z.string(),
    type: z.string(),
    start: z.number(),
    period: z.number(),
    current: z.number().nullable().describe('The watched value now (accumulator offsets applied); null without a position carrying it'),
    nextDue: z.number().nullable().describe('start while current < start, else the next start + k·period above current'),
    remaining: z.number().nullable().describe('nextDue − current'),
    positionTime: IsoDateTime.nullable().describe('Fix time of the position the value comes from'),
  })
  .meta({ id: 'MaintenanceDue' });
export type MaintenanceDue = z.infer<typeof MaintenanceDue>;

export const MaintenanceScheduleQuery = z.object({
  deviceId: repeated(ref('device', z.coerce.number().int().positive())).optional(),
  groupId: ref('group', z.coerce.number().int().positive()).optional(),
  maintenanceId: ref('maintenance', z.coerce.number().int().positive()).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100).describe('Devices per page'),
  offset: z.coerce.number().int().min(0).default(0),
});

export const maintenanceEndpoints = [
  ...resourceEndpoints({
    id: 'maintenance',
    path: '/maintenance',
    noun: 'maintenance',
    kind: 'maintenance',
    tags: ['maintenance'],
    entity: Maintenance,
    input: MaintenanceInput,
    query: MaintenanceQuery,
    write: trackingWriters,
    companyScoped: true,
    description: 'Traccar Maintenance. Keyword searches name and type.',
  }),
  defineEndpoint({
    id: 'maintenance.schedule',
    method: 'get',
    path: '/maintenance-schedule',
    service: 'ops-api',
    tags: ['maintenance'],
    companyScoped: true,
    summary: 'Next maintenance due per device',
    access: 'authenticated',
    description:
      'For each visible device (optionally by deviceId or groupId) and each maintenance that applies to it: the current value of ' +
      'the watched type from the latest position, the next due value and what remains, soonest first per device.',
    request: { query: MaintenanceScheduleQuery },
    responses: { 200: { description: 'Maintenance due', schema: z.array(MaintenanceDue) } },
  }),
] as const;
