import { count, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Configuration, ConfigurationInput, ConfigurationsQuery } from '@corridor/contracts';
import { AppError, type Orm } from '@corridor/platform';
import { configurations, deviceConfigurations, deviceModels, type ConfigurationRow } from '../db/schema';
import { invalidField } from '../resources/pg-errors';
import { resourceService } from '../resources/resource-service';

const toConfiguration = (r: ConfigurationRow): Configuration => ({
  id: r.id,
  name: r.name,
  description: r.description,
  deviceModelId: r.deviceModelId,
  values: r.values,
  companyId: r.companyId,
});

/** Named configuration templates; the device model must exist; a template devices follow cannot be deleted. */
export function configurationsService(db: Orm) {
  return resourceService<ConfigurationRow, Configuration, ConfigurationInput, z.output<typeof ConfigurationsQuery>>(db, {
    name: 'Configuration',
    entityType: 'configuration',
    table: configurations,
    company: configurations.companyId,
    shared: true,
    keywordColumns: [configurations.name, configurations.description],
    filters: (q) => [q.deviceModelId !== undefined ? eq(configurations.deviceModelId, q.deviceModelId) : undefined],
    toEntity: toConfiguration,
    toValues: (i, companyId) => ({ name: i.name, description: i.description, deviceModelId: i.deviceModelId, values: i.values, companyId }),
    async validate(i) {
      if (i.deviceModelId === null) return;
      const [m] = await db.select({ id: deviceModels.id }).from(deviceModels).where(eq(deviceModels.id, i.deviceModelId));
      if (!m) throw invalidField('deviceModelId', `device model ${i.deviceModelId} does not exist`);
    },
    async beforeDelete(row) {
      const [c] = await db.select({ n: count() }).from(deviceConfigurations).where(eq(deviceConfigurations.configurationId, row.id));
      if ((c?.n ?? 0) > 0) throw new AppError('CONFLICT', `Configuration ${row.id} is followed by ${c!.n} device(s)`, { devices: c!.n });
    },
  });
}
export type ConfigurationsService = ReturnType<typeof configurationsService>;
