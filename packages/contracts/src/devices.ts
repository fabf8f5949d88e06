import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { Attributes, IdParam, IsoDateTime, repeated } from './common';

/** Device, in Traccar's shape (plus companyId). */
export const Device = z
  .object({
    id: z.number().int().positive(),
    name: z.string(),
    uniqueId: z.string(),
    status: z.enum(['online', 'offline', 'unknown', 'pending']),
    disabled: z.boolean(),
    lastUpdate: IsoDateTime.nullable(),
    positionId: z.string().nullable(),
    groupId: z.number().int().nullable(),
    calendarId: z.number().int().nullable(),
    companyId: z.number().int().nullable(),
    phone: z.string().nullable(),
    model: z.string().nullable(),
    contact: z.string().nullable(),
    category: z.string().nullable(),
    expirationTime: IsoDateTime.nullable(),
    attributes: Attributes,
  })
  .meta({ id: 'Device' });
export type Device = z.infer<typeof Device>;

export const DeviceInput = z
  .object({
    name: z.string().min(1).max(128),
    uniqueId: z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'letters, digits and _.:- only, at most 64'),
    disabled: z.boolean().default(false),
    groupId: z.number().int().positive().nullable().default(null),
    calendarId: z.number().int().positive().nullable().default(null),
    companyId: z.number().int().positive().nullable().default(null),
    phone: z.string().max(32).nullable().default(null),
    model: z.string().max(64).nullable().default(null),
    contact: z.string().max(128).nullable().default(null),
    category: z.string().max(32).nullable().default(null),
    expirationTime: IsoDateTime.nullable().default(null),
    attributes: Attributes.default({}),
  })
  .meta({ id: 'DeviceInput' });
export type DeviceInput = z.infer<typeof DeviceInput>;

export const DevicesQuery = z.object({
  id: repeated(z.coerce.number().int().positive()).optional(),
  uniqueId: repeated(z.string()).optional(),
  keyword: z.string().max(100).optional(),
  status: z.enum(['online', 'offline', 'unknown', 'pending']).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

/** devices.v1 (compacted, key = device id): the latest definition, or a tombstone (deleted=true). */
export const DeviceRegistryMessage = z
  .object({
    id: z.number().int().positive(),
    uniqueId: z.string(),
    name: z.string(),
    disabled: z.boolean(),
    companyId: z.number().int().nullable(),
    groupId: z.number().int().nullable(),
    status: z.enum(['online', 'offline', 'unknown', 'pending']),
    deleted: z.boolean().default(false),
  })
  .meta({ id: 'DeviceRegistryEntry' });
export type DeviceRegistryMessage = z.infer<typeof DeviceRegistryMessage>;

const tags = ['devices'];
export const devicesEndpoints = [
  defineEndpoint({
    id: 'devices.list', method: 'get', path: '/devices', service: 'ops-api', tags, companyScoped: true,
    summary: 'List devices', access: 'authenticated',
    request: { query: DevicesQuery },
    responses: { 200: { description: 'Devices', schema: z.array(Device) } },
  }),
  defineEndpoint({
    id: 'devices.create', method: 'post', path: '/devices', service: 'ops-api', tags,
    summary: 'Register a device', access: ['admin', 'dispatcher'],
    request: { body: DeviceInput },
    responses: { 200: { description: 'The created device', schema: Device } },
  }),
  defineEndpoint({
    id: 'devices.get', method: 'get', path: '/devices/{id}', service: 'ops-api', tags, companyScoped: true,
    summary: 'One device', access: 'authenticated',
    request: { params: IdParam },
    responses: { 200: { description: 'The device', schema: Device } },
  }),
  defineEndpoint({
    id: 'devices.update', method: 'put', path: '/devices/{id}', service: 'ops-api', tags,
    summary: 'Replace a device', access: ['admin', 'dispatcher'],
    request: { params: IdParam, body: DeviceInput },
    responses: { 200: { description: 'The updated device', schema: Device } },
  }),
  defineEndpoint({
    id: 'devices.delete', method: 'delete', path: '/devices/{id}', service: 'ops-api', tags,
    summary: 'Delete a device', access: ['admin'],
    request: { params: IdParam },
    responses: { 204: { description: 'Deleted', schema: null } },
  }),
] as const;
