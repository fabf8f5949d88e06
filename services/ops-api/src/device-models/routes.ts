import { deviceModelsEndpoints } from '@corridor/contracts';
import type { App } from '@corridor/platform';
import { resourceRoutes } from '../resources/routes';
import type { DeviceModelsService } from './service';

export function deviceModelRoutes(app: App, svc: DeviceModelsService): void {
  resourceRoutes(app, deviceModelsEndpoints, svc);
}
