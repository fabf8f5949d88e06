import { z } from 'zod';

export * from './position-id';

/** A position id (position-id.ts): a JSON number below 2^53, derived from device, fix second and kind. */
export const PositionIdSchema = z.number().int().positive().max(Number.MAX_SAFE_INTEGER)
  .describe('Position id (Traccar int64, below 2^53): ((fix time s since 2000 · 2 + kind) · 2^20 + deviceId), kind 1 = state record');

/**
 * positions.v1: one normalized fix (or state record), as ingest publishes it and every consumer reads it.
 * Units: speed in knots (as Traccar clients expect), course in degrees 0..360, altitude and
 * accuracy in metres, odometer in metres, power and battery in volts. Times are ISO 8601 UTC strings
 * (fix times to the second).
 *
 * Attributes use Traccar's keys and units (Position.KEY_*): batteryLevel (%), battery and power (V),
 * ignition, charge, motion, sat, hdop, rssi, odometer (m), alarm (comma-joined Traccar alarm names),
 * event, result (a command reply), driverUniqueId, fuel (l), fuelLevel (%), and, set by ingest for
 * every position: distance (m since the previous fix), totalDistance (m, server odometer), hours
 * (engine hours, ms) and motion. sat, hdop, ignition, odometer, power, battery and alarm mirror the
 * columns of the same meaning. A state record (a status, heartbeat or cell-only message kept at the
 * last known location) has attributes.outdated = true and valid = false.
 */
export const PositionAttributes = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]))
  .describe('Traccar keys and units: batteryLevel %, battery/power V, ignition, motion, sat, hdop, rssi, odometer/distance/totalDistance m, hours ms, alarm, event, outdated');

export const PositionMessage = z
  .object({
    id: PositionIdSchema,
    deviceId: z.number().int().positive().describe('Registry id of the device (Traccar Device.id)'),
    uniqueId: z.string().min(1).describe('Device unique id (IMEI or the id the tracker reports)'),
    protocol: z.string().min(1),
    fixTime: z.iso.datetime({ offset: true }),
    deviceTime: z.iso.datetime({ offset: true }).optional(),
    serverTime: z.iso.datetime({ offset: true }),
    valid: z.boolean(),
    latitude: z.number().min(-90).max(90),
    longitude: z.number().min(-180).max(180),
    speed: z.number().min(0).max(869).describe('knots'),
    course: z.number().min(0).max(360),
    altitude: z.number().nullable().default(null),
    accuracy: z.number().min(0).nullable().default(null),
    satellites: z.number().int().min(0).nullable().default(null),
    hdop: z.number().min(0).nullable().default(null),
    ignition: z.boolean().nullable().default(null),
    odometer: z.number().min(0).nullable().default(null).describe('metres'),
    power: z.number().nullable().default(null).describe('external power, volts'),
    battery: z.number().nullable().default(null).describe('battery, volts (a percentage is attributes.batteryLevel)'),
    alarm: z.string().nullable().default(null),
    crcValid: z.boolean().default(true),
    rawFrameId: z.string().nullable().default(null),
    attributes: PositionAttributes.default({}),
    address: z.string().nullable().optional()
      .describe('Where the fix is, in words ("14 km NW of Voi, KE"), from the offline geocoder when the API answers (GET /api/server/geocode); absent on the topic'),
  })
  .meta({ id: 'Position' });
export type PositionMessage = z.infer<typeof PositionMessage>;
export type PositionMessageInput = z.input<typeof PositionMessage>;
