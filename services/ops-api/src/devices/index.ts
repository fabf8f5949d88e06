import type { ObjectStorage } from '../documents/storage';
import type { OpsModule } from '../module';
import { accumulatorsService, type AccumulatorsService } from './accumulators';
import { deviceConfigurationService } from './configuration';
import { deviceExtraRoutes } from './extra-routes';
import { deviceImageRoutes } from './image-routes';
import { latestPositions, type LatestPositions } from './latest-positions';
import { devicesRepository, type DevicesRepository } from './repository';
import { deviceRoutes } from './routes';
import { devicesService, type DevicesService } from './service';

export interface DevicesModule {
  repo: DevicesRepository;
  service: DevicesService;
  /** Odometer and engine hours per device. */
  accumulators: AccumulatorsService;
  /** Each device's latest position (the live cache, else ClickHouse). */
  latest: LatestPositions;
}

/**
 * Devices: the registry (published to devices.v1 at start), their routes, images (in the document
 * storage), configuration and accumulators.
 */
export const devicesModule: OpsModule<{ imageStorage: ObjectStorage }, DevicesModule> = (app, { base, life, imageStorage }) => {
  const { db, cache } = base;
  const repo = devicesRepository(db);
  const service = devicesService({ db, repo, bus: base.bus, cache, logger: base.logger.child({ module: 'devices' }) });
  const accumulators = accumulatorsService({ db, cache });
  deviceRoutes(app, service);
  deviceExtraRoutes(app, { devices: service, configuration: deviceConfigurationService(db), accumulators });
  deviceImageRoutes(app, { db, devices: service, storage: imageStorage });
  life.onStart(async () => {
    const n = await service.syncRegistry();
    base.logger.info({ devices: n }, 'device registry published');
  });
  return { repo, service, accumulators, latest: latestPositions({ cache, analytics: base.analytics }) };
};
