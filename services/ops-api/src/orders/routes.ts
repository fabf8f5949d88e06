import { ordersEndpoints } from '@corridor/contracts';
import type { App } from '@corridor/platform';
import { resourceRoutes } from '../resources/routes';
import type { OrdersService } from './service';

export function orderRoutes(app: App, svc: OrdersService): void {
  resourceRoutes(app, ordersEndpoints, svc);
}
