import type { Journey, JourneyFlag, JourneyFlagReview, JourneyFlagType, JourneyStatus } from '@corridor/contracts';
import type { FlagRow, JourneyRow, RouteRow } from '../db/schema';
import type { JourneyRef } from '../events/journey-events';
import { offlineGeocoder } from '@corridor/geodata/reverse-geocoder';

/** The journey lifecycle: planned → active → completed, and planned or active → cancelled. */
export const NEXT_STATES: Record<JourneyStatus, JourneyStatus[]> = {
  planned: ['active', 'cancelled'],
  active: ['completed', 'cancelled'],
  completed: [],
  cancelled: [],
};

/** A flag's review: new → acknowledged → resolved (a new flag may be resolved straight away). */
export const NEXT_REVIEWS: Record<JourneyFlagReview, JourneyFlagReview[]> = {
  new: ['acknowledged', 'resolved'],
  acknowledged: ['resolved'],
  resolved: [],
};

export const reviewOf = (f: Pick<FlagRow, 'acknowledgedAt' | 'resolvedAt'>): JourneyFlagReview =>
  f.resolvedAt ? 'resolved' : f.acknowledgedAt ? 'acknowledged' : 'new';

const iso = (d: Date | null): string | null => d?.toISOString() ?? null;

export const journeyRef = (j: Pick<JourneyRow, 'id' | 'deviceId' | 'routeId' | 'companyId'>): JourneyRef => ({
  id: j.id,
  deviceId: j.deviceId,
  routeId: j.routeId,
  companyId: j.companyId,
});

export function toJourney(row: JourneyRow, route: Pick<RouteRow, 'name' | 'countries'> | undefined, openFlags: JourneyFlagType[]): Journey {
  return {
    id: row.id,
    deviceId: row.deviceId,
    truckPlate: row.truckPlate,
    companyId: row.companyId,
    routeId: row.routeId,
    routeName: route?.name ?? '',
    shipmentRef: row.shipmentRef,
    cargoRef: row.cargoRef,
    plannedDeparture: iso(row.plannedDeparture),
    plannedArrival: iso(row.plannedArrival),
    state: row.state,
    actualDeparture: iso(row.actualDeparture),
    actualArrival: iso(row.actualArrival),
    origin: row.origin,
    destination: row.destination,
    countries: route?.countries ?? [],
    flagged: openFlags.length > 0,
    openFlags,
    cancelledAt: iso(row.cancelledAt),
    cancelReason: row.cancelReason,
    createdBy: row.createdBy,
    attributes: row.attributes,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** A flag's place in words, from the offline geocoder (microseconds; a flag list or a journey's flags are short). */
const flagAddress = (latitude: number, longitude: number): string => {
  try {
    return offlineGeocoder().reverse(latitude, longitude).address;
  } catch {
    return `${latitude}, ${longitude}`; // a stored position out of range: say what it is
  }
};

export function toFlag(row: FlagRow): JourneyFlag {
  return {
    id: row.id,
    journeyId: row.journeyId,
    deviceId: row.deviceId,
    type: row.type,
    openedAt: row.openedAt.toISOString(),
    clearedAt: iso(row.clearedAt),
    latitude: row.latitude,
    longitude: row.longitude,
    address: flagAddress(row.latitude, row.longitude),
    distanceM: row.distanceM,
    details: row.details,
    escalated: row.escalated,
    escalatedAt: iso(row.escalatedAt),
    review: reviewOf(row),
    acknowledgedBy: row.acknowledgedBy,
    acknowledgedAt: iso(row.acknowledgedAt),
    acknowledgedNote: row.acknowledgedNote,
    resolvedBy: row.resolvedBy,
    resolvedAt: iso(row.resolvedAt),
    resolvedNote: row.resolvedNote,
  };
}
