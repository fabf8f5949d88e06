import { CORRIDORS, measureLine, placesOnCorridor, projectOnLine, type Corridor, type PlaceKind } from '@corridor/geodata';
import { between, type Random } from './random';
import type { Direction, PlannedStop, TruckPlan } from './truck';

export const DEFAULT_TRUCKS = 20;
export const MIN_CRUISE_KPH = 50;
export const MAX_CRUISE_KPH = 80;

/**
 * Stable, unique 15-digit IMEI-like device ids: '356' followed by the 1-based index padded to 12
 * digits ('356000000000001', '356000000000002', ...). The stack registers these as devices.
 */
export function simDeviceIds(n: number): string[] {
  if (!Number.isInteger(n) || n < 0 || n >= 1e12) throw new RangeError(`bad device count ${n}`);
  return Array.from({ length: n }, (_, i) => `356${String(i + 1).padStart(12, '0')}`);
}

/** Dwell ranges in seconds per kind of place; parking is taken by only some trucks. */
const DWELL: Partial<Record<PlaceKind, { min: number; max: number; chance: number }>> = {
  weighbridge: { min: 120, max: 360, chance: 1 },
  border_post: { min: 600, max: 1200, chance: 1 },
  parking: { min: 600, max: 1200, chance: 0.25 },
};

/** Stops a truck makes on a corridor: every weighbridge and border post, some parking places. */
function planStops(corridor: Corridor, random: Random): PlannedStop[] {
  const measured = measureLine(corridor.line);
  const stops: PlannedStop[] = [];
  for (const place of placesOnCorridor(corridor.id)) {
    const dwell = DWELL[place.kind];
    if (!dwell || random() >= dwell.chance) continue;
    const projection = projectOnLine(measured, place.center);
    stops.push({ placeId: place.id, along: projection.along, dwellSeconds: Math.round(between(random, dwell.min, dwell.max)) });
  }
  return stops.sort((a, b) => a.along - b.along);
}

export interface FleetOptions {
  readonly trucks: number;
  readonly random: Random;
  readonly deviceIds?: readonly string[];
  readonly corridors?: readonly Corridor[];
}

/**
 * Plans for N trucks spread over the corridors: alternating corridor, both directions, start
 * points spread along the line with jitter, cruise speeds between 50 and 80 km/h.
 */
export function planFleet(options: FleetOptions): TruckPlan[] {
  const { trucks, random } = options;
  const corridors = options.corridors ?? CORRIDORS;
  const ids = options.deviceIds ?? simDeviceIds(trucks);
  if (ids.length < trucks) throw new RangeError(`${trucks} trucks need ${trucks} device ids, got ${ids.length}`);
  if (new Set(ids).size !== ids.length) throw new RangeError('device ids must be unique');
  if (corridors.length === 0) throw new RangeError('no corridors');

  return Array.from({ length: trucks }, (_, i) => {
    const corridor = corridors[i % corridors.length];
    const deviceId = ids[i];
    if (!corridor || !deviceId) throw new Error('unreachable');
    const slot = Math.floor(i / corridors.length); // index among the trucks on this corridor
    const perCorridor = Math.ceil(trucks / corridors.length);
    const direction: Direction = slot % 2 === 0 ? 'forward' : 'reverse';
    const lengthMetres = corridor.lengthKm * 1000;
    const fraction = (slot + between(random, 0.1, 0.9)) / perCorridor;
    return {
      deviceId,
      corridor,
      direction,
      startAlong: fraction * lengthMetres,
      cruiseKph: Math.round(between(random, MIN_CRUISE_KPH, MAX_CRUISE_KPH)),
      stops: planStops(corridor, random),
      terminalDwellSeconds: Math.round(between(random, 1800, 3600)),
    };
  });
}
