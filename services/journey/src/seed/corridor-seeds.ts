import { RouteInput, type RouteStopArea } from '@corridor/contracts';
import { corridorById, placeById, placesOnCorridor, type CorridorId, type Place, type PlaceKind } from '@corridor/geodata';
import { type Cache, type Logger, type Orm } from '@corridor/platform';
import { recordAudit, systemActor } from '../audit/audit';
import { journeyKeys } from '../evaluator/journey-keys';
import type { RoutesRepository } from '../routes/repository';
import { routeValues } from '../routes/service';

/**
 * Seed width: the geodata lines follow the carriageway to within a couple of kilometres (hand-placed
 * vertices between gazetteer towns), so the corridor is 2 km either side of the line.
 */
export const SEED_WIDTH_M = 2000;

const ends: Record<CorridorId, { origin: string; destination: string }> = {
  northern: { origin: 'ke-mombasa-port', destination: 'ke-malaba' },
  central: { origin: 'tz-dar-port', destination: 'tz-rusumo' },
};

const kindOf: Record<PlaceKind, RouteStopArea['kind']> = {
  border_post: 'border',
  weighbridge: 'weighbridge',
  parking: 'yard',
  inland_depot: 'yard',
  port: 'yard',
};

const area = (p: Place, kind: RouteStopArea['kind']): RouteStopArea => ({
  kind,
  name: p.name,
  center: [p.center[0], p.center[1]],
  radiusM: p.radiusMetres,
});

/** A corridor from @corridor/geodata as a route: its line and limits, its port and final border post as ends, its places as approved stops. */
export function corridorSeed(id: CorridorId): RouteInput {
  const c = corridorById(id);
  const { origin, destination } = ends[id];
  const stops = placesOnCorridor(id).filter((p) => p.id !== origin && p.id !== destination);
  return RouteInput.parse({
    code: `${id}-corridor`,
    name: c.name,
    description: `${c.roads.join(' / ')}; seeded from @corridor/geodata (${Math.round(c.lengthKm)} km line, stated ${c.statedLengthKm} km)`,
    line: c.line.map(([lon, lat]) => [lon, lat]),
    widthM: SEED_WIDTH_M,
    speedLimitsKmh: [...c.speedLimitsKph],
    stopAreas: [
      area(placeById(origin)!, 'origin'),
      ...stops.map((p) => area(p, kindOf[p.kind])),
      area(placeById(destination)!, 'destination'),
    ],
    expectedDurationMinutes: c.expectedDurationHours * 60,
    countries: [...c.countries],
    attributes: { roads: [...c.roads], statedLengthKm: c.statedLengthKm, source: '@corridor/geodata' },
  });
}

export const CORRIDOR_SEEDS: readonly CorridorId[] = ['northern', 'central'];

/**
 * Loads the corridor routes. Idempotent: a route whose code exists is left as it is, so the
 * command may run again and concurrent starts cannot double a route. Returns the codes inserted.
 */
export async function seedRoutes(
  deps: { db: Orm; repo: RoutesRepository; cache: Cache; logger: Logger },
  opts: { onlyIfEmpty: boolean },
): Promise<string[]> {
  if (opts.onlyIfEmpty && (await deps.repo.count()) > 0) return [];
  const inserted: string[] = [];
  for (const id of CORRIDOR_SEEDS) {
    const input = corridorSeed(id);
    const row = await deps.db.transaction(async (tx) => {
      const r = await deps.repo.insertIfCodeFree(routeValues(input), tx);
      if (r)
        await recordAudit(tx, systemActor, {
          action: 'route.seed',
          entityType: 'route',
          entityId: r.id,
          after: { code: r.code, name: r.name },
        });
      return r;
    });
    if (row) inserted.push(row.code!);
  }
  if (inserted.length) await deps.cache.incr(journeyKeys.routesVersion);
  deps.logger.info({ inserted }, inserted.length ? 'corridor routes seeded' : 'corridor routes already present');
  return inserted;
}
