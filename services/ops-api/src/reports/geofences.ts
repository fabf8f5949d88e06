import type { EventMessage, ReportGeofence } from '@corridor/contracts';
import type { DeviceRun } from './device-runs';
import { field, type ReportTable } from './formats/table';
import type { ReportDevice } from './report-devices';

/**
 * Traccar's geofence report (GeofenceReportProvider) for one device, fed its geofenceEnter and
 * geofenceExit events oldest first: an enter opens a visit of its geofence (a later enter of the
 * same geofence replaces the open one), the next exit of that geofence closes it if it is not
 * earlier; a visit still open at the end is left out. `geofenceIds`: only these (none = all).
 */
export function geofenceVisits(device: ReportDevice, geofenceIds?: ReadonlySet<number>): DeviceRun<EventMessage, ReportGeofence> {
  const open = new Map<number, EventMessage>();
  return {
    push(e) {
      const geofenceId = Number(e.geofenceId);
      if (e.geofenceId === null || !Number.isInteger(geofenceId) || (geofenceIds && !geofenceIds.has(geofenceId))) return [];
      if (e.type === 'geofenceEnter') {
        open.set(geofenceId, e);
        return [];
      }
      if (e.type !== 'geofenceExit') return [];
      const enter = open.get(geofenceId);
      open.delete(geofenceId);
      const start = enter && Date.parse(enter.eventTime);
      const end = Date.parse(e.eventTime);
      if (start === undefined || end < start) return [];
      return [
        {
          deviceId: device.id,
          deviceName: device.name,
          geofenceId,
          startTime: enter!.eventTime,
          endTime: e.eventTime,
          duration: end - start,
        },
      ];
    },
    finish: () => [],
  };
}

/** All the visits of a report, by start time (devices in id order between equal times), as one batch. */
export async function* byStartTime(batches: AsyncIterable<ReportGeofence[]>): AsyncGenerator<ReportGeofence[]> {
  const all: ReportGeofence[] = [];
  for await (const b of batches) all.push(...b);
  all.sort((a, b) => Date.parse(a.startTime) - Date.parse(b.startTime));
  if (all.length) yield all;
}

export const geofencesTable: ReportTable<ReportGeofence> = {
  name: 'geofences',
  columns: [
    field('deviceName', 'text'),
    field('geofenceId', 'integer'),
    field('startTime', 'time', 'enterTime'),
    field('endTime', 'time', 'exitTime'),
    field('duration', 'duration'),
    field('deviceId', 'integer'),
  ],
};
