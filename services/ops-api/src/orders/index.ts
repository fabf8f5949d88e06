import type { OpsModule } from '../module';
import { orderRoutes } from './routes';
import { ordersService } from './service';

/** The orders resource: its service and routes (a module, registered once in app.ts). */
export const ordersModule: OpsModule<object, void> = (app, { base }) => {
  orderRoutes(app, ordersService(base.db));
};
