import type { DevicesModule } from '../devices';
import type { OpsModule } from '../module';
import type { TruckOwnersService } from '../truck-owners/service';
import { inventoryRoutes } from './routes';
import { inventoriesService } from './service';

/** Inventories of tracking units and seals: their service and routes. */
export const inventoriesModule: OpsModule<{ devices: DevicesModule; truckOwners: TruckOwnersService }, void> = (
  app,
  { base, devices, truckOwners },
) => {
  inventoryRoutes(app, inventoriesService({ db: base.db, devicesRepo: devices.repo, devices: devices.service, truckOwners }));
};
