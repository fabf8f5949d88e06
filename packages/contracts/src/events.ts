import { z } from 'zod';
import { PositionIdSchema } from './positions';

/** Alarm values, as Traccar names them (position attribute `alarm`, event attribute `alarm`). */
export const AlarmType = z.enum([
  'general',
  'sos',
  'vibration',
  'movement',
  'overspeed',
  'lowPower',
  'lowBattery',
  'powerCut',
  'powerRestored',
  'powerOff',
  'powerOn',
  'tampering',
  'removing',
  'door',
  'geofenceEnter',
  'geofenceExit',
  'gpsAntennaCut',
  'accident',
  'tow',
  'idle',
  'hardAcceleration',
  'hardBraking',
  'hardCornering',
  'fatigueDriving',
  'jamming',
  'fault',
  'fallDown',
  'lowspeed',
]);
export type AlarmType = z.infer<typeof AlarmType>;

export const EventType = z.enum([
  'alarm',
  'deviceOnline',
  'deviceOffline',
  'deviceUnknown',
  'deviceMoving',
  'deviceStopped',
  'deviceOverspeed',
  'ignitionOn',
  'ignitionOff',
  'geofenceEnter',
  'geofenceExit',
  'commandResult',
  'queuedCommandSent',
  'driverChanged',
  'deviceFuelDrop',
  'deviceFuelIncrease',
  'maintenance',
  'geofenceCrossed',
  // journey flags (opened / cleared), one type per deviation kind
  'journeyFlagOpened',
  'journeyFlagCleared',
  'journeyFlagAcknowledged',
  'journeyFlagResolved',
  'journeyStarted',
  'journeyCompleted',
  'journeyCancelled',
  // ingest refused a frame claiming the device (foreign protocol, wrong or missing code, another connection's device) or saw two connections claim it at once
  'deviceIdentityConflict',
]);
export type EventType = z.infer<typeof EventType>;

/**
 * events.v1: keyed by device id. `id` is the event's stable key (for dedupe); the API and the live
 * feed answer an event in Traccar's shape (`Event`, below), with a numeric id derived from this key.
 */
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
  .meta({ id: 'EventMessage' });
export type EventMessage = z.infer<typeof EventMessage>;
export type EventMessageInput = z.input<typeof EventMessage>;

/** Corridor's own event types (journeys and their flags), which Traccar's catalogue lacks. */
export const corridorEventTypes = EventType.options.filter((t) => t.startsWith('journey'));

/**
 * An event as the API and the live feed answer it, in Traccar's shape: a numeric `id` (derived from
 * the event's key: the same event always has the same id), 0 for an absent positionId, geofenceId or
 * maintenanceId (as Traccar writes its long fields), and Corridor's journeyId, latitude and
 * longitude besides. An event a notification rule sends to a user's live feed (the web channel)
 * carries `attributes.message`, a sentence in the user's language.
 */
export const Event = z
  .object({
    id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).describe('derived from the event key (53 bits of its MD5)'),
    type: EventType,
    eventTime: z.iso.datetime({ offset: true }),
    deviceId: z.number().int().positive(),
    positionId: z.number().int().min(0).describe('0: not tied to a position'),
    geofenceId: z.number().int().min(0).describe('0: no geofence'),
    maintenanceId: z.number().int().min(0).describe('0: no maintenance'),
    journeyId: z.string().nullable().describe("Corridor's: the journey of a journey event"),
    latitude: z.number().nullable(),
    longitude: z.number().nullable(),
    attributes: z.record(z.string(), z.unknown()),
    address: z
      .string()
      .nullable()
      .optional()
      .describe('Corridor\'s: where the event happened, in words ("14 km NW of Voi, KE"; the offline geocoder), null without a position'),
  })
  .meta({ id: 'Event' });
export type Event = z.infer<typeof Event>;
