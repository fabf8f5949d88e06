import type { OpsModule } from '../module';
import { trackingUnitRoutes } from './routes';
import { trackingUnitsService } from './service';

/** The tracking units resource: its service and routes (a module, registered once in app.ts). */
export const trackingUnitsModule: OpsModule<object, void> = (app, { base }) => {
  trackingUnitRoutes(app, trackingUnitsService(base.db));
};
