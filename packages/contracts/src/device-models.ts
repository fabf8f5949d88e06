import { z } from 'zod';
import { Attributes } from './common';
import { ListQuery, resourceEndpoints } from './resource-endpoints';

/** The catalogue of tracker models: who makes it, which protocol it speaks and on which port ingest listens for it. */
export const DeviceModel = z
  .object({
    id: z.number().int().positive(),
    manufacturer: z.string(),
    model: z.string(),
    protocol: z.string().describe('Ingest protocol name, e.g. gt06, teltonika, h02'),
    port: z.number().int().describe('The ingest port for that protocol'),
    attributes: Attributes,
  })
  .meta({ id: 'DeviceModel' });
export type DeviceModel = z.infer<typeof DeviceModel>;

export const DeviceModelInput = z
  .object({
    manufacturer: z.string().min(1).max(64),
    model: z.string().min(1).max(64),
    protocol: z.string().regex(/^[a-z0-9_-]{1,32}$/, 'lower-case protocol name'),
    port: z.number().int().min(1).max(65535),
    attributes: Attributes.default({}),
  })
  .meta({ id: 'DeviceModelInput' });
export type DeviceModelInput = z.infer<typeof DeviceModelInput>;

export const DeviceModelsQuery = ListQuery.omit({ companyId: true }).extend({ protocol: z.string().max(32).optional() });

export const deviceModelsEndpoints = resourceEndpoints({
  id: 'device-models',
  path: '/device-model',
  noun: 'device model',
  kind: 'deviceModel',
  tags: ['device-models'],
  entity: DeviceModel,
  input: DeviceModelInput,
  query: DeviceModelsQuery,
  write: ['admin'],
  companyScoped: false,
  description:
    'Platform-wide catalogue (admin writes, everyone reads). manufacturer + model is unique (409). Keyword searches manufacturer and model.',
});
