import type { Geofence, GeofenceDefinitionMessage, GeofenceLink, GeofenceShape } from '@corridor/contracts';
import type { GeofenceLinkRow, GeofenceRow } from '../db/schema';
import { parseAreaWkt } from '../fences/area-wkt';

export function toGeofence(r: GeofenceRow): Geofence {
  return {
    id: r.id,
    name: r.name,
    ...(r.description === null ? {} : { description: r.description }),
    area: r.area,
    calendarId: r.calendarId ?? 0,
    attributes: r.attributes,
    kind: r.kind,
    country: r.country,
    companyId: r.companyId,
  };
}

export function toLink(l: GeofenceLinkRow): GeofenceLink {
  return { geofenceId: l.geofenceId, deviceId: l.deviceId, groupId: l.groupId };
}

/** The parsed area, for consumers that test containment (ops-api's overspeed with geofence speed limits). */
function shapeOf(r: GeofenceRow): { shape?: GeofenceShape } {
  const parsed = parseAreaWkt(r.area, r.attributes);
  if (!parsed.ok) return {};
  const s = parsed.shape;
  const copy = (ps: readonly (readonly [number, number])[]): [number, number][] => ps.map(([lon, lat]) => [lon, lat]);
  if (s.kind === 'circle') return { shape: { kind: 'circle', center: [s.center[0], s.center[1]], radius: s.radius } };
  if (s.kind === 'polygon') return { shape: { kind: 'polygon', rings: s.rings.map(copy) } };
  return { shape: { kind: 'line', points: copy(s.points), width: s.width } };
}

/** The geofences.v1 value of a fence: its definition, its links and its parsed shape. */
export function definitionMessage(r: GeofenceRow, links: readonly GeofenceLinkRow[]): GeofenceDefinitionMessage {
  const own = links.filter((l) => l.geofenceId === r.id);
  return {
    ...toGeofence(r),
    links: {
      deviceIds: own.flatMap((l) => (l.deviceId === null ? [] : [l.deviceId])),
      groupIds: own.flatMap((l) => (l.groupId === null ? [] : [l.groupId])),
    },
    ...shapeOf(r),
    deleted: false,
  };
}

export const tombstone = (id: number): GeofenceDefinitionMessage => ({ id, deleted: true });
