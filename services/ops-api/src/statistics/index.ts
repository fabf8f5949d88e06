import type { OpsModule } from '../module';
import { statisticsRoutes } from './routes';

/** Server statistics from the analytics store: its routes (a module, registered once in app.ts). */
export const statisticsModule: OpsModule<object, void> = (app, { base }) => {
  statisticsRoutes(app, base.analytics);
};
