import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { DeviceModel, DeviceModelInput, DeviceModelsQuery } from '@corridor/contracts';
import type { Orm } from '@corridor/platform';
import { deviceModels, type DeviceModelRow } from '../db/schema';
import { resourceService } from '../resources/resource-service';

const toDeviceModel = (r: DeviceModelRow): DeviceModel => ({
  id: r.id,
  manufacturer: r.manufacturer,
  model: r.model,
  protocol: r.protocol,
  port: r.port,
  attributes: r.attributes,
});

/** The platform-wide catalogue of tracker models: everyone reads it, the contract lets admins write it. */
export function deviceModelsService(db: Orm) {
  return resourceService<DeviceModelRow, DeviceModel, DeviceModelInput, z.output<typeof DeviceModelsQuery>>(db, {
    name: 'Device model',
    entityType: 'device_model',
    table: deviceModels,
    company: null,
    shared: true,
    keywordColumns: [deviceModels.manufacturer, deviceModels.model],
    filters: (q) => [q.protocol ? eq(deviceModels.protocol, q.protocol) : undefined],
    toEntity: toDeviceModel,
    toValues: (i) => ({ manufacturer: i.manufacturer, model: i.model, protocol: i.protocol, port: i.port, attributes: i.attributes }),
    unique: { device_models_make_model_idx: 'model' },
  });
}
export type DeviceModelsService = ReturnType<typeof deviceModelsService>;
