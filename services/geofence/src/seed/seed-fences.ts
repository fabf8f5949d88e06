import { PLACES, type Place, type PlaceKind } from '@corridor/geodata';
import type { GeofenceAttributes, GeofenceKind } from '@corridor/contracts';
import { formatAreaWkt } from '../fences/area-wkt';
import type { FenceShape } from '../fences/fence';
import type { NewGeofenceRow } from '../db/schema';

/**
 * The seed set: border posts, ports, inland container depots and weighbridges of both corridors
 * from @corridor/geodata (truck parking is not a compliance place and is left out). Large sites
 * use their outline polygon, the others a circle. Hysteresis per kind: trucks queue at borders and
 * ports for hours, so a short stop does not count and GPS drift at the fence edge does not flap.
 */
const settings: Partial<Record<PlaceKind, { kind: GeofenceKind; attributes: GeofenceAttributes }>> = {
  border_post: { kind: 'border_post', attributes: { color: '#c62828', minDwellSeconds: 120, exitMarginMeters: 100 } },
  port: { kind: 'port', attributes: { color: '#1565c0', minDwellSeconds: 300, exitMarginMeters: 150 } },
  inland_depot: { kind: 'inland_depot', attributes: { color: '#6a1b9a', minDwellSeconds: 300, exitMarginMeters: 100 } },
  weighbridge: { kind: 'weighbridge', attributes: { color: '#ef6c00', minDwellSeconds: 30, exitMarginMeters: 50 } },
};

function shapeOf(p: Place): FenceShape {
  return p.polygon
    ? { kind: 'polygon', rings: [p.polygon.map(([lon, lat]) => [lon, lat] as const)] }
    : { kind: 'circle', center: p.center, radius: p.radiusMetres };
}

function describe(p: Place): string {
  const across = p.crossesTo ? ` (${p.country} → ${p.crossesTo})` : '';
  return `${p.kind.replace('_', ' ')}${across}; seeded from @corridor/geodata place ${p.id}`;
}

/** Rows to insert; `seedKey` is the place id, so seeding twice inserts nothing. */
export function seedFenceValues(places: readonly Place[] = PLACES): NewGeofenceRow[] {
  return places.flatMap((p) => {
    const s = settings[p.kind];
    if (!s) return [];
    return [
      {
        name: p.name,
        description: describe(p),
        area: formatAreaWkt(shapeOf(p)),
        calendarId: null,
        attributes: { ...s.attributes },
        kind: s.kind,
        country: p.country,
        seedKey: p.id,
      },
    ];
  });
}
