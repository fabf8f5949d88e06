import type { Geofence, GeofenceDefinitionMessage, GeofenceLink } from '@corridor/contracts';
import type { GeofenceLinkRow, GeofenceRow } from '../db/schema';

export function toGeofence(r: GeofenceRow): Geofence {
  return {
    id: r.id, name: r.name, description: r.description, area: r.area, calendarId: r.calendarId,
    attributes: r.attributes, kind: r.kind, country: r.country, companyId: r.companyId,
  };
}

export function toLink(l: GeofenceLinkRow): GeofenceLink {
  return { geofenceId: l.geofenceId, deviceId: l.deviceId, groupId: l.groupId };
}

/** The geofences.v1 value of a fence: its definition and links. */
export function definitionMessage(r: GeofenceRow, links: readonly GeofenceLinkRow[]): GeofenceDefinitionMessage {
  const own = links.filter((l) => l.geofenceId === r.id);
  return {
    ...toGeofence(r),
    links: {
      deviceIds: own.flatMap((l) => (l.deviceId === null ? [] : [l.deviceId])),
      groupIds: own.flatMap((l) => (l.groupId === null ? [] : [l.groupId])),
    },
    deleted: false,
  };
}

export const tombstone = (id: number): GeofenceDefinitionMessage => ({ id, deleted: true });
