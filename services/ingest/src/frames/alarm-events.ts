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
  return {
    id,
    type: 'alarm',
    eventTime: receivedAt.toISOString(),
    deviceId,
    positionId: null,
    journeyId: null,
    geofenceId: null,
    latitude: null,
    longitude: null,
    attributes: { ...attributes, alarm },
  };
}
