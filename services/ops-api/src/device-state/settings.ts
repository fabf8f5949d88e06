import { z } from 'zod';

/** Device status settings from the environment (Traccar's status.timeout and the write throttles). */
export const DeviceStateEnv = z.object({
  /** An online device without data this long becomes unknown (Traccar status.timeout, default 600 s). */
  DEVICE_STATUS_TIMEOUT_S: z.coerce
    .number()
    .min(0.5)
    .max(7 * 86_400)
    .default(600),
  /**
   * lastUpdate and positionId go to PostgreSQL and devices.v1 (the live feed's `devices` frames) at
   * most this often per device; a status change goes at once. Reads (GET /devices) see every update.
   */
  DEVICE_STATE_PERSIST_S: z.coerce.number().min(0).max(3600).default(60),
  /** A deviceOverspeed event once the speed stayed above the limit this long (Traccar event.overspeed.minimalDuration, 0). */
  EVENT_OVERSPEED_MINIMAL_DURATION_S: z.coerce.number().min(0).max(86_400).default(0),
  /** The published groups, maintenances and server attributes (event settings) are re-read at most this often. */
  EVENT_SETTINGS_RELOAD_S: z.coerce.number().min(0).max(3600).default(2),
});
export type DeviceStateEnv = z.output<typeof DeviceStateEnv>;

export interface DeviceStateSettings {
  timeoutMs: number;
  persistMs: number;
  /** How often the sweep for timed-out devices runs: a quarter of the timeout, between 250 ms and 30 s. */
  sweepMs: number;
  overspeedMinimalDurationMs: number;
  settingsReloadMs: number;
}

export function deviceStateSettingsFrom(input: z.input<typeof DeviceStateEnv>): DeviceStateSettings {
  const env = DeviceStateEnv.parse(input);
  const timeoutMs = env.DEVICE_STATUS_TIMEOUT_S * 1000;
  return {
    timeoutMs,
    persistMs: env.DEVICE_STATE_PERSIST_S * 1000,
    sweepMs: Math.min(30_000, Math.max(250, timeoutMs / 4)),
    overspeedMinimalDurationMs: env.EVENT_OVERSPEED_MINIMAL_DURATION_S * 1000,
    settingsReloadMs: env.EVENT_SETTINGS_RELOAD_S * 1000,
  };
}

export const defaultDeviceStateSettings = (): DeviceStateSettings => deviceStateSettingsFrom(DeviceStateEnv.parse({}));
