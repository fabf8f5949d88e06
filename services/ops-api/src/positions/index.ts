import type { Geocoder } from '@corridor/platform';
import type { DevicesRepository } from '../devices/repository';
import type { DeviceStateService } from '../device-state/service';
import type { OpsModule } from '../module';
import type { ReportSettings } from '../reports/settings';
import { liveLatestOf } from './delete';
import { positionExporter, positionExportRoutes } from './export-routes';
import { positionQueryRoutes } from './routes';

/** Positions: queries, exports and deletes (which move the devices' live state off deleted positions). */
export const positionsModule: OpsModule<
  { devices: DevicesRepository; deviceState: DeviceStateService; reports: ReportSettings; geocoder: Geocoder },
  void
> = (app, { base, devices, deviceState, reports, geocoder }) => {
  const deps = {
    analytics: base.analytics,
    cache: base.cache,
    db: base.db,
    devices,
    reports,
    liveLatest: liveLatestOf(deviceState),
    geocoder,
  };
  const exporter = positionExporter(deps);
  positionQueryRoutes(app, { ...deps, exporter });
  positionExportRoutes(app, deps, exporter);
};
