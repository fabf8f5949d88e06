import type { EventMessage } from '@corridor/contracts';

/**
 * An alarm a device reported without a fix (GT06 status/LBS alarm packets, GPS103 `L` reports):
 * events.v1 'alarm' at the time the frame arrived, without coordinates. Alarms carried by a
 * position become events in publishPositions instead.
 */
export function alarmWithoutFix(deviceId: number, alarm: string, receivedAt: Date, attributes: Record<string, unknown> = {}): EventMessage {
  return {
    id: `${deviceId}-alarm-${receivedAt.getTime()}-${alarm}`,
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
