import { flagOf, lookupSetting } from '@corridor/platform';
import { resolveThresholds } from '../reports/thresholds';
import type { TripThresholds } from '../reports/settings';
import type { EventConfig, MaintenanceRule } from './position-events';

/** A positive number attribute (a speed limit in knots, a fuel threshold), or undefined when unusable. */
function positiveOf(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) && n > 0 ? n : undefined;
}
const nonNegativeOf = (v: unknown): number | undefined => (v === 0 || v === '0' ? 0 : positiveOf(v));

/** Where a device's event settings come from, most specific first (Traccar's AttributeUtil.lookup order). */
export interface EventSettingSources {
  device: Record<string, unknown>;
  /** The device's group, then that group's parent, and so on. */
  groups: Record<string, unknown>[];
  /** The server's attributes (PUT /server). */
  server: Record<string, unknown>;
  /** The maintenances that apply to the device (its company's and the shared ones). */
  maintenances: MaintenanceRule[];
}

export const noSources = (): EventSettingSources => ({ device: {}, groups: [], server: {}, maintenances: [] });

/**
 * The event settings of one device. Trip thresholds: the service's, overridden by the device's
 * `report.trip.*` attributes (Traccar's TripsConfig). Every other setting is looked up as Traccar's
 * AttributeUtil.lookup does: the device's attribute, else its group's (up the parent chain), else
 * the server's; the first usable value wins:
 * - `speedLimit` (knots; 0 or none: off);
 * - `event.overspeed.thresholdMultiplier` (Traccar's config key; 1), `event.overspeed.minimalDuration`
 *   (seconds; else EVENT_OVERSPEED_MINIMAL_DURATION_S) and `event.overspeed.preferLowest` (false);
 * - `fuelDropThreshold` and `fuelIncreaseThreshold`.
 */
export function eventConfigOf(
  trips: TripThresholds,
  overspeedMinimalDuration: number,
  src: EventSettingSources = noSources(),
): EventConfig {
  const t = resolveThresholds(trips, src.device);
  const layers = [src.device, ...src.groups, src.server];
  const lookup = <T>(key: string, read: (v: unknown) => T | undefined): T | undefined => lookupSetting(layers, key, read);
  const speedLimit = lookup('speedLimit', positiveOf);
  const fuelDropThreshold = lookup('fuelDropThreshold', positiveOf);
  const fuelIncreaseThreshold = lookup('fuelIncreaseThreshold', positiveOf);
  const minimalSeconds = lookup('event.overspeed.minimalDuration', nonNegativeOf);
  return {
    ...(speedLimit === undefined ? {} : { speedLimit }),
    ...(fuelDropThreshold === undefined ? {} : { fuelDropThreshold }),
    ...(fuelIncreaseThreshold === undefined ? {} : { fuelIncreaseThreshold }),
    thresholdMultiplier: lookup('event.overspeed.thresholdMultiplier', positiveOf) ?? 1,
    preferLowest: lookup('event.overspeed.preferLowest', flagOf) ?? false,
    overspeedMinimalDuration: minimalSeconds === undefined ? overspeedMinimalDuration : minimalSeconds * 1000,
    trips: t,
    maintenances: src.maintenances,
  };
}
