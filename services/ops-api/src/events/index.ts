import type { Geocoder } from '@corridor/platform';
import type { DevicesRepository } from '../devices/repository';
import type { OpsModule } from '../module';
import { eventRoutes } from './routes';

/** Device events as Traccar answers them (from the analytics store, with addresses): their routes. */
export const eventsModule: OpsModule<{ devices: DevicesRepository; geocoder: Geocoder }, void> = (app, { base, devices, geocoder }) => {
  eventRoutes(app, { analytics: base.analytics, devices, geocoder });
};
