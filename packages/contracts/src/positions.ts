import { z } from 'zod';

export * from './position-id';

/** A position id (position-id.ts): a JSON number below 2^53, derived from device, fix second and kind. */
export const PositionIdSchema = z
  .number()
  .int()
  .positive()
  .max(Number.MAX_SAFE_INTEGER)
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
export const PositionAttributes = z
  .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]))
  .describe(
    'Traccar keys and units: batteryLevel %, battery/power V, ignition, motion, sat, hdop, rssi, odometer/distance/totalDistance m, hours ms, alarm, event, outdated',
  );

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
    address: z
      .string()
      .nullable()
      .optional()
      .describe(
        'Where the fix is, in words ("14 km NW of Voi, KE"), from the offline geocoder when the API answers (GET /api/server/geocode); absent on the topic',
      ),
  })
  .meta({ id: 'PositionMessage' });
export type PositionMessage = z.infer<typeof PositionMessage>;
export type PositionMessageInput = z.input<typeof PositionMessage>;

/**
 * A position as the API and the live feed answer it: Traccar's Position, its fields only. What the
 * topic carries beyond them is in `attributes` under Traccar's names (sat, hdop, ignition, odometer,
 * power, battery, alarm: ingest already mirrors them there), with Corridor's rawFrameId (the raw
 * frame in the archive) and crcValid (false only: a frame whose checksum failed). accuracy once,
 * at the top; altitude and accuracy 0 when the device reports none, as Traccar's doubles.
 */
export const Position = z
  .object({
    id: PositionIdSchema,
    deviceId: z.number().int().positive(),
    protocol: z.string(),
    deviceTime: z.iso.datetime({ offset: true }),
    fixTime: z.iso.datetime({ offset: true }),
    serverTime: z.iso.datetime({ offset: true }),
    valid: z.boolean(),
    latitude: z.number().min(-90).max(90),
    longitude: z.number().min(-180).max(180),
    altitude: z.number().describe('metres; 0 when the device reports none'),
    speed: z.number().min(0).describe('knots'),
    course: z.number().min(0).max(360),
    address: z.string().optional().describe('Where the fix is, in words ("14 km NW of Voi, KE"), from the geocoder; absent when unknown'),
    accuracy: z.number().min(0).describe('metres; 0 when unknown'),
    attributes: PositionAttributes,
  })
  .strict()
  .meta({ id: 'Position' });
export type Position = z.infer<typeof Position>;

/** Topic columns and the attribute keys Traccar gives them (ingest writes both; older or posted positions may lack the key). */
const MIRRORED = [
  ['satellites', 'sat'],
  ['hdop', 'hdop'],
  ['ignition', 'ignition'],
  ['odometer', 'odometer'],
  ['power', 'power'],
  ['battery', 'battery'],
  ['alarm', 'alarm'],
] as const;

/** The attributes of a position as the API answers them (the mirrored columns, rawFrameId and a failed checksum in, accuracy out). */
export function apiAttributes(
  m: Pick<PositionMessage, (typeof MIRRORED)[number][0] | 'crcValid' | 'rawFrameId' | 'attributes'>,
): PositionMessage['attributes'] {
  const attributes = { ...m.attributes };
  for (const [column, key] of MIRRORED) if (m[column] !== null && attributes[key] === undefined) attributes[key] = m[column];
  delete attributes.accuracy;
  if (!m.crcValid) attributes.crcValid = false;
  if (m.rawFrameId !== null) attributes.rawFrameId = m.rawFrameId;
  return attributes;
}

/** The API's Position of a topic message (with its address when the reader added one). */
export function apiPosition(m: PositionMessage & { address?: string | null }): Position {
  return {
    id: m.id,
    deviceId: m.deviceId,
    protocol: m.protocol,
    deviceTime: m.deviceTime ?? m.fixTime,
    fixTime: m.fixTime,
    serverTime: m.serverTime,
    valid: m.valid,
    latitude: m.latitude,
    longitude: m.longitude,
    altitude: m.altitude ?? 0,
    speed: m.speed,
    course: m.course,
    ...(m.address ? { address: m.address } : {}),
    accuracy: m.accuracy ?? 0,
    attributes: apiAttributes(m),
  };
}
