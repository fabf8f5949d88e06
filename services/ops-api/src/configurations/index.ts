import type { OpsModule } from '../module';
import { configurationRoutes } from './routes';
import { configurationsService } from './service';

/** The configurations resource: its service and routes (a module, registered once in app.ts). */
export const configurationsModule: OpsModule<object, void> = (app, { base }) => {
  configurationRoutes(app, configurationsService(base.db));
};
