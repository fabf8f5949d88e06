import { eq } from 'drizzle-orm';
import type { Device, DeviceConfiguration, DeviceConfigurationInput } from '@corridor/contracts';
import type { Orm } from '@corridor/platform';
import { audit } from '../audit/audit';
import { configurations, deviceConfigurations } from '../db/schema';
import { invalidField } from '../resources/pg-errors';
import type { Actor } from '../resources/scope';

/** Per-device configuration: the template it follows and its overrides; effective = template values + overrides. */
export function deviceConfigurationService(db: Orm) {
  async function read(device: Device): Promise<DeviceConfiguration> {
    const [row] = await db.select().from(deviceConfigurations).where(eq(deviceConfigurations.deviceId, device.id));
    if (!row) return { deviceId: device.id, configurationId: null, values: {}, effective: {}, updatedAt: null };
    const [template] =
      row.configurationId === null ? [] : await db.select().from(configurations).where(eq(configurations.id, row.configurationId));
    return {
      deviceId: device.id,
      configurationId: row.configurationId,
      values: row.values,
      effective: { ...(template?.values ?? {}), ...row.values },
      updatedAt: row.updatedAt.toISOString(),
    };
  }
  return {
    read,
    async write(device: Device, input: DeviceConfigurationInput, actor: Actor): Promise<DeviceConfiguration> {
      if (input.configurationId !== null) {
        const [template] = await db.select().from(configurations).where(eq(configurations.id, input.configurationId));
        if (!template || (template.companyId !== null && template.companyId !== device.companyId)) {
          throw invalidField('configurationId', `configuration ${input.configurationId} does not exist for this device's company`);
        }
      }
      const before = await read(device);
      await db.transaction(async (tx) => {
        const values = { configurationId: input.configurationId, values: input.values, updatedAt: new Date() };
        await tx
          .insert(deviceConfigurations)
          .values({ deviceId: device.id, ...values })
          .onConflictDoUpdate({ target: deviceConfigurations.deviceId, set: values });
        await audit.record(tx, actor.identity, {
          action: 'device.configuration.set',
          entityType: 'device',
          entityId: device.id,
          companyId: device.companyId,
          before: { configurationId: before.configurationId, values: before.values },
          after: input,
          requestId: actor.requestId,
        });
      });
      return read(device);
    },
  };
}
export type DeviceConfigurationService = ReturnType<typeof deviceConfigurationService>;
