import { companyScope } from '@corridor/platform';
import type { DevicesModule } from '../devices';
import type { OpsModule } from '../module';
import { computedAttributeRoutes } from './routes';
import { computedAttributesService, type ComputedAttributesService } from './service';

/** Computed attributes: their service and routes; their definitions are published at start and when their links change. */
export const computedAttributesModule: OpsModule<{ devices: DevicesModule }, ComputedAttributesService> = (
  app,
  { base, life, devices },
) => {
  const computed = computedAttributesService({
    db: base.db,
    cache: base.cache,
    logger: base.logger.child({ module: 'computed-attributes' }),
    latest: devices.latest,
    visibleDevice: (id, who) => devices.service.get(id, companyScope(who)),
  });
  computedAttributeRoutes(app, computed);
  life.onStart(() => computed.publish());
  return computed;
};
