import type { EventMessage } from '@corridor/contracts';

/**
 * An alarm a device reported without a fix (GT06 status/LBS alarm packets, GPS103 `L` reports):
 * events.v1 'alarm' at the time the frame arrived, without coordinates. Alarms carried by a
 * position become events in publishPositions instead. The ingest path passes an id from AlarmIdentity,
 * so that a resent frame is the same event.
 */
export function alarmWithoutFix(
  deviceId: number,
  alarm: string,
  receivedAt: Date,
  attributes: Record<string, unknown> = {},
  id = `${deviceId}-alarm-${receivedAt.getTime()}-${alarm}`,
): EventMessage {
  return eventWithoutFix('alarm', id, deviceId, receivedAt, { ...attributes, alarm });
}

/**
 * A command reply that came without a fix (GT06 0x15/0x21, Teltonika codec 12/13/14, Meitrack
 * replies): events.v1 'commandResult' with the reply text in `attributes.result`, as Traccar's
 * CommandResultEventHandler reports it. `id` comes from AlarmIdentity, so a resent reply is one event.
 */
export function commandResultWithoutFix(deviceId: number, result: string, receivedAt: Date, id: string): EventMessage {
  return eventWithoutFix('commandResult', id, deviceId, receivedAt, { result });
}

function eventWithoutFix(type: EventMessage['type'], id: string, deviceId: number, receivedAt: Date, attributes: Record<string, unknown>): EventMessage {
  return {
    id,
    type,
    eventTime: receivedAt.toISOString(),
    deviceId,
    positionId: null,
    journeyId: null,
    geofenceId: null,
    latitude: null,
    longitude: null,
    attributes,
  };
}
