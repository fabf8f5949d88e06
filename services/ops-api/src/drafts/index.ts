import type { OpsModule } from '../module';
import { draftRoutes } from './routes';
import { draftsService } from './service';

/** The drafts resource: its service and routes (a module, registered once in app.ts). */
export const draftsModule: OpsModule<object, void> = (app, { base }) => {
  draftRoutes(app, draftsService(base.db));
};
