import type { OpsModule } from '../module';
import { truckOwnersRepository } from './repository';
import { truckOwnerRoutes } from './routes';
import { truckOwnersService, type TruckOwnersService } from './service';

/** Truck owners and their trucks: their service (the inventories use it) and routes. */
export const truckOwnersModule: OpsModule<object, TruckOwnersService> = (app, { base }) => {
  const truckOwners = truckOwnersService({ db: base.db, repo: truckOwnersRepository(base.db) });
  truckOwnerRoutes(app, truckOwners);
  return truckOwners;
};
