import type { OpsModule } from '../module';
import { driverRoutes } from './routes';
import { driversService } from './service';

/** The drivers resource: its service and routes (a module, registered once in app.ts). */
export const driversModule: OpsModule<object, void> = (app, { base }) => {
  driverRoutes(app, driversService(base.db));
};
