import { z } from 'zod';
import { ref } from './references';
import { Attributes } from './common';
import { ListQuery, OwnerCompanyInput, resourceEndpoints, trackingWriters } from './resource-endpoints';

/** A named device configuration template (reporting intervals, APN, thresholds ...) devices may follow. */
export const Configuration = z
  .object({
    id: z.number().int().positive(),
    name: z.string(),
    description: z.string().nullable(),
    deviceModelId: z.number().int().nullable().describe('The device model it is written for, if any'),
    values: Attributes.describe('Configuration keys and values'),
    companyId: z.number().int().nullable(),
  })
  .meta({ id: 'Configuration' });
export type Configuration = z.infer<typeof Configuration>;

export const ConfigurationInput = z
  .object({
    name: z.string().min(1).max(128),
    description: z.string().max(1000).nullable().default(null),
    deviceModelId: ref('deviceModel', z.number().int().positive()).nullable().default(null),
    values: Attributes.default({}),
    companyId: OwnerCompanyInput,
  })
  .meta({ id: 'ConfigurationInput' });
export type ConfigurationInput = z.infer<typeof ConfigurationInput>;

export const ConfigurationsQuery = ListQuery.extend({ deviceModelId: ref('deviceModel', z.coerce.number().int().positive()).optional() });

export const configurationsEndpoints = resourceEndpoints({
  id: 'configurations',
  path: '/configurations',
  noun: 'configuration',
  kind: 'configuration',
  tags: ['configurations'],
  entity: Configuration,
  input: ConfigurationInput,
  query: ConfigurationsQuery,
  write: trackingWriters,
  companyScoped: true,
  description:
    'Named configuration templates; a device follows one through PUT /devices/{id}/configuration. ' +
    'A template some device follows cannot be deleted (409). Keyword searches name and description.',
});
