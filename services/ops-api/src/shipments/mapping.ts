import type { ProgressUpdate, Shipment, ShipmentInput } from '@corridor/contracts';
import type { CountryCode } from '@corridor/contracts';
import type { NewShipmentRow, ShipmentProgressRow, ShipmentRow, ShipmentStatusHistoryRow } from '../db/schema';

const iso = (d: Date | null): string | null => d?.toISOString() ?? null;
const date = (s: string | null): Date | null => (s ? new Date(s) : null);

/** Contract input → table columns (status and actual dates are the state machine's business). */
export const shipmentValues = (i: ShipmentInput): Omit<NewShipmentRow, 'companyId' | 'createdByUserId' | 'createdByEmail'> => ({
  reference: i.reference,
  originPlace: i.origin.place,
  originCountry: i.origin.country,
  destinationPlace: i.destination.place,
  destinationCountry: i.destination.country,
  corridor: i.corridor,
  routeId: i.routeId,
  borderCrossings: i.borderCrossings,
  transportMode: i.transportMode,
  truckPlate: i.truckPlate,
  trailerPlate: i.trailerPlate,
  driver: i.driver,
  containerNumbers: i.containerNumbers,
  billOfLadingNumber: i.billOfLadingNumber,
  cmrNumber: i.cmrNumber,
  cargoIds: i.cargoIds,
  plannedDeparture: date(i.plannedDeparture),
  plannedArrival: date(i.plannedArrival),
  journeyId: i.journeyId,
  notes: i.notes,
});

export const toShipment = (r: ShipmentRow): Shipment => ({
  id: r.id,
  companyId: r.companyId,
  reference: r.reference,
  origin: { place: r.originPlace, country: r.originCountry as CountryCode },
  destination: { place: r.destinationPlace, country: r.destinationCountry as CountryCode },
  corridor: r.corridor,
  routeId: r.routeId,
  borderCrossings: r.borderCrossings,
  transportMode: r.transportMode,
  truckPlate: r.truckPlate,
  trailerPlate: r.trailerPlate,
  driver: r.driver,
  containerNumbers: r.containerNumbers,
  billOfLadingNumber: r.billOfLadingNumber,
  cmrNumber: r.cmrNumber,
  cargoIds: r.cargoIds,
  plannedDeparture: iso(r.plannedDeparture),
  plannedArrival: iso(r.plannedArrival),
  journeyId: r.journeyId,
  notes: r.notes,
  status: r.status,
  statusBeforeHold: r.statusBeforeHold,
  actualDeparture: iso(r.actualDeparture),
  actualArrival: iso(r.actualArrival),
  createdBy: { userId: r.createdByUserId, email: r.createdByEmail },
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

export const toStatusChange = (h: ShipmentStatusHistoryRow) => ({
  from: h.fromStatus as Shipment['status'] | null,
  to: h.toStatus as Shipment['status'],
  at: h.at.toISOString(),
  by: { userId: h.byUserId, email: h.byEmail },
  reason: h.reason,
});

export const toProgress = (p: ShipmentProgressRow): ProgressUpdate => ({
  id: p.id,
  shipmentId: p.shipmentId,
  at: p.at.toISOString(),
  kind: p.kind as ProgressUpdate['kind'],
  location: { name: p.locationName, latitude: p.latitude, longitude: p.longitude },
  note: p.note,
  recordedBy: { userId: p.recordedByUserId, email: p.recordedByEmail },
  createdAt: p.createdAt.toISOString(),
});
