import type { JourneyArea, Route, RouteStopArea } from '@corridor/contracts';
import type { CorridorRouteInput } from '../corridor/route-definition';
import type { RouteRow } from '../db/schema';

/** A journey's own start and end areas, replacing the route's when given. */
export interface JourneyEnds {
  origin: JourneyArea | null;
  destination: JourneyArea | null;
}

const asStop = (kind: 'origin' | 'destination', a: JourneyArea): RouteStopArea => ({
  kind,
  center: a.center,
  radiusM: a.radiusM,
  ...(a.name ? { name: a.name } : {}),
});

export type RouteGeometry = Pick<RouteRow, 'id' | 'line' | 'legs' | 'widthM' | 'speedLimitsKmh' | 'stopAreas' | 'expectedDurationMinutes'>;

/** The evaluator's view of a stored route (optionally with a journey's own origin and destination). */
export function corridorRouteOf(row: RouteGeometry, ends?: JourneyEnds): CorridorRouteInput {
  let stopAreas = row.stopAreas;
  if (ends?.origin) stopAreas = [...stopAreas.filter((a) => a.kind !== 'origin'), asStop('origin', ends.origin)];
  if (ends?.destination) stopAreas = [...stopAreas.filter((a) => a.kind !== 'destination'), asStop('destination', ends.destination)];
  const limits = row.speedLimitsKmh;
  return {
    id: String(row.id),
    ...(row.line ? { line: row.line } : { legs: row.legs ?? [] }),
    widthM: row.widthM,
    speedLimitKmh: limits.length === 1 ? limits[0]! : limits,
    stopAreas: stopAreas.map((a) => ({ kind: a.kind, center: a.center, radiusM: a.radiusM, ...(a.name ? { name: a.name } : {}) })),
    expectedDurationMinutes: row.expectedDurationMinutes,
  };
}

export function toRoute(row: RouteRow): Route {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    description: row.description,
    line: row.line,
    legs: row.legs,
    widthM: row.widthM,
    speedLimitsKmh: row.speedLimitsKmh,
    stopAreas: row.stopAreas,
    expectedDurationMinutes: row.expectedDurationMinutes,
    thresholds: row.thresholds,
    countries: row.countries,
    attributes: row.attributes,
    lengthM: row.lengthM,
    segmentCount: row.segmentCount,
    version: row.version,
    companyId: row.companyId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
