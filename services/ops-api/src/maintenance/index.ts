import type { DevicesModule } from '../devices';
import type { OpsModule } from '../module';
import { maintenanceRoutes } from './routes';
import { maintenanceService, type MaintenanceService } from './service';

/** Maintenance schedules (by odometer, hours or date): their service and routes; published at start and when their links change. */
export const maintenanceModule: OpsModule<{ devices: DevicesModule }, MaintenanceService> = (app, { base, life, devices }) => {
  const maintenance = maintenanceService({
    db: base.db,
    cache: base.cache,
    logger: base.logger.child({ module: 'maintenance' }),
    devices: devices.repo,
    latest: devices.latest,
    accumulators: devices.accumulators,
  });
  maintenanceRoutes(app, maintenance);
  life.onStart(() => maintenance.publish());
  return maintenance;
};
