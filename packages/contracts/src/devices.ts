import { z } from 'zod';
import { idParam, notRef, ref, optionalRef } from './references';
import { defineEndpoint } from './endpoint';
import { Attributes, IsoDateTime, repeated } from './common';
import { PositionIdSchema } from './positions';

/** Device, in Traccar's shape (plus companyId). */
export const Device = z
  .object({
    id: z.number().int().positive(),
    name: z.string(),
    uniqueId: z.string(),
    status: z.enum(['online', 'offline', 'unknown', 'pending']),
    disabled: z.boolean(),
    lastUpdate: IsoDateTime.nullable(),
    positionId: PositionIdSchema.nullable(),
    groupId: z.number().int().nullable(),
    calendarId: z.number().int().nullable(),
    companyId: z.number().int().nullable(),
    phone: z.string().nullable(),
    model: z.string().nullable(),
    contact: z.string().nullable(),
    category: z.string().nullable(),
    expirationTime: IsoDateTime.nullable(),
    attributes: Attributes,
    protocol: z
      .string()
      .nullable()
      .describe(
        'The protocol the device is bound to: set by its administrator, else the one it first spoke. Frames for it on another protocol are refused (a deviceIdentityConflict event). null until it first reports',
      ),
  })
  .meta({ id: 'Device' });
export type Device = z.infer<typeof Device>;

export const DeviceInput = z
  .object({
    name: z.string().min(1).max(128),
    uniqueId: notRef(
      z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'letters, digits and _.:- only, at most 64'),
      "the device's own identifier",
    ),
    disabled: z.boolean().default(false),
    groupId: optionalRef('group'),
    calendarId: optionalRef('calendar'),
    companyId: ref('company', z.number().int().positive()).nullable().default(null),
    phone: z.string().max(32).nullable().default(null),
    model: z.string().max(64).nullable().default(null),
    contact: z.string().max(128).nullable().default(null),
    category: z.string().max(32).nullable().default(null),
    expirationTime: IsoDateTime.nullable().default(null),
    attributes: Attributes.default({}),
    protocol: z
      .string()
      .regex(/^[a-z0-9-]{1,32}$/, 'a protocol name (gt06, teltonika, jt808, osmand, ...)')
      .nullable()
      .optional()
      .describe(
        'Bind the device to this protocol (ingest refuses its frames on any other). null clears the binding and a JT/T 808 registration: the device binds again to the protocol of its next frame. Left out: unchanged (on create: bound at the first frame)',
      ),
  })
  .meta({ id: 'DeviceInput' });
export type DeviceInput = z.infer<typeof DeviceInput>;

export const DevicesQuery = z.object({
  id: repeated(ref('device', z.coerce.number().int().positive())).optional(),
  uniqueId: notRef(repeated(z.string()), 'a search key: the list holds only devices the caller may see').optional(),
  keyword: z.string().max(100).optional(),
  status: z.enum(['online', 'offline', 'unknown', 'pending']).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

/**
 * devices.v1 (compacted, key = device id): the latest definition with the device's live state
 * (status, lastUpdate, positionId), or a tombstone (deleted=true). It is the Device as GET
 * /devices/{id} gives it (the live feed sends it as `devices` frames); the fields after `status`
 * are optional for messages published before they existed.
 */
export const DeviceRegistryMessage = z
  .object({
    id: z.number().int().positive(),
    uniqueId: z.string(),
    name: z.string(),
    disabled: z.boolean(),
    companyId: z.number().int().nullable(),
    groupId: z.number().int().nullable(),
    status: z.enum(['online', 'offline', 'unknown', 'pending']),
    lastUpdate: IsoDateTime.nullable().optional(),
    positionId: PositionIdSchema.nullable().optional(),
    calendarId: z.number().int().nullable().optional(),
    phone: z.string().nullable().optional(),
    model: z.string().nullable().optional(),
    contact: z.string().nullable().optional(),
    category: z.string().nullable().optional(),
    expirationTime: IsoDateTime.nullable().optional(),
    attributes: Attributes.optional(),
    protocol: z.string().nullable().optional(),
    deleted: z.boolean().default(false),
  })
  .meta({ id: 'DeviceRegistryEntry' });
export type DeviceRegistryMessage = z.infer<typeof DeviceRegistryMessage>;

const tags = ['devices'];
export const devicesEndpoints = [
  defineEndpoint({
    id: 'devices.list',
    method: 'get',
    path: '/devices',
    service: 'ops-api',
    tags,
    companyScoped: true,
    summary: 'List devices',
    access: 'authenticated',
    request: { query: DevicesQuery },
    responses: { 200: { description: 'Devices', schema: z.array(Device) } },
  }),
  defineEndpoint({
    id: 'devices.create',
    method: 'post',
    path: '/devices',
    service: 'ops-api',
    tags,
    summary: 'Register a device',
    access: ['admin', 'dispatcher'],
    request: { body: DeviceInput },
    responses: { 200: { description: 'The created device', schema: Device } },
  }),
  defineEndpoint({
    id: 'devices.get',
    method: 'get',
    path: '/devices/{id}',
    service: 'ops-api',
    tags,
    companyScoped: true,
    summary: 'One device',
    access: 'authenticated',
    request: { params: idParam('device') },
    responses: { 200: { description: 'The device', schema: Device } },
  }),
  defineEndpoint({
    id: 'devices.update',
    method: 'put',
    path: '/devices/{id}',
    service: 'ops-api',
    tags,
    summary: 'Replace a device',
    access: ['admin', 'dispatcher'],
    request: { params: idParam('device'), body: DeviceInput },
    responses: { 200: { description: 'The updated device', schema: Device } },
  }),
  defineEndpoint({
    id: 'devices.delete',
    method: 'delete',
    path: '/devices/{id}',
    service: 'ops-api',
    tags,
    summary: 'Delete a device',
    access: ['admin'],
    request: { params: idParam('device') },
    responses: { 204: { description: 'Deleted', schema: null } },
  }),
] as const;

/** POST /devices/bulk: register many devices at once (all or none). */
export const DeviceBulkCreate = z.object({ devices: z.array(DeviceInput).min(1).max(500) }).meta({ id: 'DeviceBulkCreate' });
/** PUT /devices/bulk: replace many devices at once (all or none), each naming its id. */
export const DeviceBulkUpdate = z
  .object({
    devices: z
      .array(DeviceInput.extend({ id: ref('device', z.number().int().positive()) }))
      .min(1)
      .max(500),
  })
  .meta({ id: 'DeviceBulkUpdate' });
export const DeviceBulkDeleteQuery = z.object({
  id: repeated(ref('device', z.coerce.number().int().positive())).pipe(z.array(z.number()).min(1).max(500)),
});

/**
 * Per-device configuration: the template it follows (a /configurations entry) and its own
 * overrides; `effective` is the template's values with the overrides on top.
 */
export const DeviceConfiguration = z
  .object({
    deviceId: z.number().int(),
    configurationId: z.number().int().nullable(),
    values: Attributes.describe("This device's overrides"),
    effective: Attributes.describe('Template values with the overrides applied'),
    updatedAt: IsoDateTime.nullable(),
  })
  .meta({ id: 'DeviceConfiguration' });
export type DeviceConfiguration = z.infer<typeof DeviceConfiguration>;
export const DeviceConfigurationInput = z
  .object({
    configurationId: ref('configuration', z.number().int().positive()).nullable().default(null),
    values: Attributes.default({}),
  })
  .meta({ id: 'DeviceConfigurationInput' });
export type DeviceConfigurationInput = z.infer<typeof DeviceConfigurationInput>;

/**
 * Traccar DeviceAccumulators: set the device's odometer (totalDistance, metres) and engine hours
 * (ms) as of now. Later readings count on from these values (the offset to the device's own
 * odometer/hours is kept), which the maintenance schedule uses.
 */
export const DeviceAccumulators = z
  .object({
    deviceId: ref('device', z.number().int().positive()),
    totalDistance: z.number().min(0).max(1e12).optional().describe('metres (at most a million thousand kilometres)'),
    hours: z.number().min(0).max(1e14).optional().describe('milliseconds (at most about 3,000 years)'),
  })
  .refine((a) => a.totalDistance !== undefined || a.hours !== undefined, {
    message: 'give totalDistance or hours',
    path: ['totalDistance'],
  })
  .meta({ id: 'DeviceAccumulators' });
export type DeviceAccumulators = z.infer<typeof DeviceAccumulators>;

const deviceWriters = ['admin', 'dispatcher'] as const;
export const devicesExtraEndpoints = [
  defineEndpoint({
    id: 'devices.bulkCreate',
    method: 'post',
    path: '/devices/bulk',
    service: 'ops-api',
    tags,
    companyScoped: true,
    summary: 'Register many devices (all or none)',
    access: [...deviceWriters],
    description: 'A uniqueId already taken (or repeated in the batch) answers 409 naming it, and nothing is created.',
    request: { body: DeviceBulkCreate },
    responses: { 200: { description: 'The created devices, in order', schema: z.array(Device) } },
  }),
  defineEndpoint({
    id: 'devices.bulkUpdate',
    method: 'put',
    path: '/devices/bulk',
    service: 'ops-api',
    tags,
    companyScoped: true,
    summary: 'Replace many devices (all or none)',
    access: [...deviceWriters],
    request: { body: DeviceBulkUpdate },
    responses: { 200: { description: 'The updated devices, in order', schema: z.array(Device) } },
  }),
  defineEndpoint({
    id: 'devices.bulkDelete',
    method: 'delete',
    path: '/devices/bulk',
    service: 'ops-api',
    tags,
    summary: 'Delete many devices (all or none)',
    access: ['admin'],
    description: 'id repeats (id=1&id=2); an unknown id answers 404 and nothing is deleted.',
    request: { query: DeviceBulkDeleteQuery },
    responses: { 204: { description: 'Deleted', schema: null } },
  }),
  defineEndpoint({
    id: 'devices.configuration.get',
    method: 'get',
    path: '/devices/{id}/configuration',
    service: 'ops-api',
    tags,
    companyScoped: true,
    summary: "A device's configuration",
    access: 'authenticated',
    request: { params: idParam('device') },
    responses: { 200: { description: 'The configuration', schema: DeviceConfiguration } },
  }),
  defineEndpoint({
    id: 'devices.configuration.put',
    method: 'put',
    path: '/devices/{id}/configuration',
    service: 'ops-api',
    tags,
    companyScoped: true,
    summary: "Set a device's configuration template and overrides",
    access: [...deviceWriters],
    request: { params: idParam('device'), body: DeviceConfigurationInput },
    responses: { 200: { description: 'The configuration', schema: DeviceConfiguration } },
  }),
  defineEndpoint({
    id: 'devices.accumulators',
    method: 'put',
    path: '/devices/{id}/accumulators',
    service: 'ops-api',
    tags,
    companyScoped: true,
    summary: 'Set odometer and engine hours',
    access: [...deviceWriters],
    description: 'deviceId in the body must equal the path id (400 otherwise).',
    request: { params: idParam('device'), body: DeviceAccumulators },
    responses: { 204: { description: 'Set', schema: null } },
  }),
  defineEndpoint({
    id: 'devices.image',
    method: 'post',
    path: '/devices/{id}/image',
    service: 'ops-api',
    tags,
    companyScoped: true,
    summary: "Upload the device's picture (Traccar): the body is the image itself",
    access: [...deviceWriters],
    description:
      'A PNG, JPEG, GIF or WebP image (the bytes are sniffed, the declared image/* type is not trusted) of at most 1 MiB, kept in the ' +
      "document storage; answers its file name (device.png), which Traccar clients keep in the device's attributes.deviceImage. " +
      'Anything else answers 400 naming the body, a larger one 413.',
    request: { params: idParam('device'), bodyContentType: 'image/*' },
    responses: { 200: { description: 'The file name', schema: z.string(), contentType: 'text/plain' } },
  }),
] as const;
