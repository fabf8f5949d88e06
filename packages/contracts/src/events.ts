import { z } from 'zod';
import { PositionIdSchema } from './positions';

/** Alarm values, as Traccar names them (position attribute `alarm`, event attribute `alarm`). */
export const AlarmType = z.enum([
  'general', 'sos', 'vibration', 'movement', 'overspeed', 'lowPower', 'lowBattery', 'powerCut',
  'powerRestored', 'powerOff', 'powerOn', 'tampering', 'removing', 'door', 'geofenceEnter',
  'geofenceExit', 'gpsAntennaCut', 'accident', 'tow', 'idle', 'hardAcceleration', 'hardBraking',
  'hardCornering', 'fatigueDriving', 'jamming', 'fault', 'fallDown', 'lowspeed',
]);
export type AlarmType = z.infer<typeof AlarmType>;

export const EventType = z.enum([
  'alarm', 'deviceOnline', 'deviceOffline', 'deviceUnknown', 'deviceMoving', 'deviceStopped',
  'deviceOverspeed', 'ignitionOn', 'ignitionOff', 'geofenceEnter', 'geofenceExit',
  'commandResult', 'queuedCommandSent', 'driverChanged', 'deviceFuelDrop', 'deviceFuelIncrease', 'maintenance', 'geofenceCrossed',
  // journey flags (opened / cleared), one type per deviation kind
  'journeyFlagOpened', 'journeyFlagCleared', 'journeyFlagAcknowledged', 'journeyFlagResolved',
  'journeyStarted', 'journeyCompleted', 'journeyCancelled',
  // ingest refused a frame claiming the device (foreign protocol, wrong or missing code, another connection's device) or saw two connections claim it at once
  'deviceIdentityConflict',
]);
export type EventType = z.infer<typeof EventType>;

/** events.v1: keyed by device id. */
export const EventMessage = z
  .object({
    id: z.string().min(1).describe('Stable id for dedupe, e.g. `${deviceId}-${type}-${eventTime ms}`'),
    type: EventType,
    eventTime: z.iso.datetime({ offset: true }),
    deviceId: z.number().int().positive(),
    positionId: PositionIdSchema.nullable().default(null),
    journeyId: z.string().nullable().default(null),
    geofenceId: z.string().nullable().default(null),
    latitude: z.number().nullable().default(null),
    longitude: z.number().nullable().default(null),
    attributes: z.record(z.string(), z.unknown()).default({}),
  })
  .meta({ id: 'Event' });
export type EventMessage = z.infer<typeof EventMessage>;
export type EventMessageInput = z.input<typeof EventMessage>;
