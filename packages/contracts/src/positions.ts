import { z } from 'zod';

export * from './position-id';

/** A position id (position-id.ts): a JSON number below 2^53, derived from device, fix second and kind. */
export const PositionIdSchema = z.number().int().positive().max(Number.MAX_SAFE_INTEGER)
  .describe('Position id (Traccar int64, below 2^53): ((fix time s since 2000 · 2 + kind) · 2^20 + deviceId), kind 1 = state record');

/**
 * positions.v1: one normalized fix, as every protocol decoder produces it and every consumer reads it.
 * Units: speed in knots (as Traccar clients expect), course in degrees 0..360, altitude and
 * accuracy in metres, odometer in metres, power in volts. Times are ISO 8601 UTC strings.
 */
export const PositionAttributes = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]));

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
    battery: z.number().nullable().default(null).describe('battery, volts or percent as the device reports'),
    alarm: z.string().nullable().default(null),
    crcValid: z.boolean().default(true),
    rawFrameId: z.string().nullable().default(null),
    attributes: PositionAttributes.default({}),
  })
  .meta({ id: 'Position' });
export type PositionMessage = z.infer<typeof PositionMessage>;
export type PositionMessageInput = z.input<typeof PositionMessage>;
