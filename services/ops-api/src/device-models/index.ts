import type { OpsModule } from '../module';
import { deviceModelRoutes } from './routes';
import { deviceModelsService } from './service';

/** The device models resource: its service and routes (a module, registered once in app.ts). */
export const deviceModelsModule: OpsModule<object, void> = (app, { base }) => {
  deviceModelRoutes(app, deviceModelsService(base.db));
};
