import type { DevicesService } from '../devices/service';
import { streamReportFixes } from '../clickhouse/report-positions';
import { deviceEventWriter } from '../events/event-writer';
import type { OpsModule } from '../module';
import type { TripThresholds } from '../reports/settings';
import { eventSettingsReader } from './event-settings';
import { deviceStateService, type DeviceStateService } from './service';
import { defaultDeviceStateSettings, type DeviceStateSettings } from './settings';
import { SpeedLimitFences } from './speed-limit-fences';

export interface DeviceStateModule {
  deviceState: DeviceStateService;
  /** The geofences with a speedLimit (from geofences.v1), for the overspeed events and the fence names of notifications. */
  speedLimitFences: SpeedLimitFences;
}

/**
 * Device status, lastUpdate and positionId, and the events they raise (ignition, motion,
 * overspeed): consumers of positions.v1, device-status.v1 and geofences.v1, and the timeout sweep.
 */
export const deviceStateModule: OpsModule<
  { devices: DevicesService; settings?: DeviceStateSettings; trips: TripThresholds },
  DeviceStateModule
> = (_app, { base, life, devices, settings = defaultDeviceStateSettings(), trips }) => {
  const log = (module: string) => base.logger.child({ module });
  const speedLimitFences = new SpeedLimitFences({ bus: base.bus, logger: log('speed-limit-fences') });
  const deviceState = deviceStateService({
    db: base.db,
    bus: base.bus,
    cache: base.cache,
    clock: base.clock,
    logger: log('device-state'),
    write: deviceEventWriter({ analytics: base.analytics, bus: base.bus }),
    settings,
    registryEntries: (states) => devices.registryEntries(states),
    onSessions: (ms) => devices.bindProtocols(ms),
    storedFixes: streamReportFixes(base.analytics),
    eventConfigs: eventSettingsReader({
      db: base.db,
      cache: base.cache,
      logger: log('event-settings'),
      trips,
      overspeedMinimalDuration: settings.overspeedMinimalDurationMs,
      reloadMs: settings.settingsReloadMs,
      fences: speedLimitFences,
    }),
  });
  life.onStart(async () => {
    await speedLimitFences.start();
    await deviceState.start();
  });
  life.onClose(async () => {
    await deviceState.stop();
    await speedLimitFences.stop();
  });
  return { deviceState, speedLimitFences };
};
