import type { EventMessage } from '@corridor/contracts';

export interface NotificationMessage {
  subject: string;
  body: string;
}

/** The text of a notification for an event on a device (subject line and plain-text body). */
export function eventMessage(event: EventMessage, device: { id: number; name: string; uniqueId: string }): NotificationMessage {
  const alarm = typeof event.attributes.alarm === 'string' ? ` (${event.attributes.alarm})` : '';
  const lines = [
    `Event: ${event.type}${alarm}`,
    `Device: ${device.name} (${device.uniqueId})`,
    `Time: ${event.eventTime}`,
    ...(event.latitude !== null && event.longitude !== null
      ? [`Position: ${event.latitude.toFixed(6)}, ${event.longitude.toFixed(6)}`]
      : []),
    ...(event.geofenceId ? [`Geofence: ${event.geofenceId}`] : []),
    ...(event.journeyId ? [`Journey: ${event.journeyId}`] : []),
    `Event id: ${event.id}`,
  ];
  return { subject: `${event.type}${alarm}: ${device.name}`, body: lines.join('\n') };
}
