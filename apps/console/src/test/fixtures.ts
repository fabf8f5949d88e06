import { CargoDetail } from '@corridor/contracts/cargo';
import { Certificate } from '@corridor/contracts/certificates';
import { Company } from '@corridor/contracts/companies';
import { ComplaintDetail } from '@corridor/contracts/complaints';
import { JourneyDetail, type Journey, type JourneyFlag } from '@corridor/contracts/journeys';
import type { Position } from '@corridor/contracts/positions';
import { Route } from '@corridor/contracts/routes';
import { ShipmentDetail } from '@corridor/contracts/shipments';
import type { Role } from '@corridor/contracts/roles';
import type { z } from 'zod';
import { userFixture } from './api-stub';

/**
 * Records as the API answers them, for the screen tests: each builder parses its result with the
 * record's schema in packages/contracts, so a fixture that drifts from the contract fails where it
 * is built. `extra` overrides any field.
 */
export const T0 = '2026-11-20T08:00:00.000Z';
export const T1 = '2026-11-22T15:30:00.000Z';

const checked = <S extends z.ZodType>(schema: S, value: unknown): z.output<S> => {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Error(`fixture drifts from packages/contracts: ${parsed.error.message}`);
  return value as z.output<S>;
};

export const userAs = (id: number, name: string, roles: Role[], companyId: number | null = null) =>
  userFixture(id, name, { roles, companyId });
export const ADMIN = userFixture(1, 'Admin', { email: 'admin@corridor.test', roles: ['admin'] });
export const OFFICER = userAs(5, 'Officer Halima', ['association_officer']);
export const ANALYST = userAs(6, 'Analyst Baraka', ['association_analyst']);
export const COMPANY_USER = userAs(40, 'Amani', ['company_user'], 101);

const company = (id: number, name: string, extra: Partial<Company> = {}): Company =>
  checked(Company, {
    id,
    name,
    country: 'KE',
    kind: 'transporter',
    registrationNumber: null,
    taxPin: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    ...extra,
  });
export const PWANI = company(101, 'Pwani Freight Movers Ltd');
export const page = <T>(items: T[], limit = 25, total = items.length) => ({ items, total, limit, offset: 0 });

const actor = { userId: 40, email: 'amani@pwani.test' };

export const certificate = (id: number, extra: Partial<Certificate> = {}): Certificate =>
  checked(Certificate, {
    id,
    number: `SUC-${String(id).padStart(6, '0')}`,
    cargoId: 30 + id,
    companyId: 101,
    status: 'submitted',
    verificationCode: `V${id}CODE`,
    cargo: { idfNumber: `E2600${id}`, importerName: 'Pwani Imports', invoiceValue: 125000, currency: 'USD' },
    applicant: actor,
    fee: { amount: 5000, currency: 'KES' },
    invoiceNumber: `INV-${id}`,
    receiptNumber: `RCT-${id}`,
    payment: { reference: `MPESA${id}`, method: 'mpesa', paidAt: T0 },
    documents: { certificate: null, invoice: null, receipt: null },
    generatedAt: T0,
    validUntil: null,
    decision: null,
    allowedActions: ['approve', 'reject'],
    createdAt: T0,
    updatedAt: T0,
    ...extra,
  });

export const complaint = (id: number, extra: Partial<ComplaintDetail> = {}): ComplaintDetail =>
  checked(ComplaintDetail, {
    id,
    subjectType: 'company',
    subjectRef: '101',
    companyId: 101,
    category: 'delay',
    title: `Truck late at Malaba (${id})`,
    description: 'The truck arrived two days after the agreed date.',
    journeyId: null,
    occurredAt: T0,
    status: 'open',
    resolution: null,
    filedBy: { userId: 77, email: 'shipper@mteja.test', companyId: 202 },
    statusChangedAt: T0,
    decidedAt: null,
    reopenUntil: null,
    allowedNextStatuses: ['under_review', 'dismissed'],
    createdAt: T0,
    updatedAt: T0,
    history: [{ at: T0, actorUserId: 77, actorEmail: 'shipper@mteja.test', from: null, to: 'open', note: null }],
    ...extra,
  });

export const documentRecord = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  companyId: 101,
  kind: 'bill_of_lading' as const,
  filename: 'bl-2231.pdf',
  contentType: 'application/pdf',
  sizeBytes: 2048,
  sha256: 'a'.repeat(64),
  scanStatus: 'clean' as const,
  ownerType: 'shipment' as const,
  ownerId: '9',
  uploadedBy: actor,
  createdAt: T0,
  ...extra,
});

export const shipment = (id: number, extra: Partial<ShipmentDetail> = {}): ShipmentDetail =>
  checked(ShipmentDetail, {
    id,
    companyId: 101,
    reference: `PWN-${id}`,
    origin: { place: 'Mombasa', country: 'KE' },
    destination: { place: 'Kampala', country: 'UG' },
    corridor: 'northern',
    routeId: null,
    borderCrossings: ['Malaba'],
    transportMode: 'road',
    truckPlate: 'KCA 123A',
    trailerPlate: null,
    driver: { name: 'Juma Omari', phone: '+254700000001', licenceNumber: null },
    containerNumbers: [],
    billOfLadingNumber: null,
    cmrNumber: null,
    cargoIds: [],
    plannedDeparture: T0,
    plannedArrival: T1,
    journeyId: null,
    notes: null,
    status: 'booked',
    statusBeforeHold: null,
    actualDeparture: null,
    actualArrival: null,
    createdBy: actor,
    createdAt: T0,
    updatedAt: T0,
    statusHistory: [{ from: null, to: 'booked', at: T0, by: actor, reason: null }],
    progress: [],
    documents: [],
    ...extra,
  });

const field = <V>(value: V, valid: boolean | null = true, issues: string[] = []) => ({ value, confidence: 0.98, valid, issues });

export const cargo = (id: number, extra: Partial<CargoDetail> = {}): CargoDetail =>
  checked(CargoDetail, {
    id,
    companyId: 101,
    idfNumber: `E2600${id}`,
    importer: { name: 'Pwani Imports', pin: 'P051234567X' },
    consignor: 'Dubai Traders LLC',
    countryOfOrigin: 'AE',
    portOfDischarge: 'Mombasa',
    invoice: { value: 125000, currency: 'USD' },
    lineItems: [{ hsCode: '8704.21.90', description: 'Trucks', quantity: 5, unit: 'pcs', value: 125000 }],
    status: 'submitted',
    sourceDocumentId: null,
    extraction: {
      format: 'json',
      fields: {
        idfNumber: field(`E2600${id}`),
        importerName: field('Pwani Imports'),
        importerPin: field('P051234567X'),
        consignor: field('Dubai Traders LLC', null),
        countryOfOrigin: field('AE', null),
        portOfDischarge: field('Mombasa', null),
        invoiceValue: field(125000),
        currency: field('USD'),
        lineItems: field([{ hsCode: '8704.21.90', description: 'Trucks', quantity: 5, unit: 'pcs', value: 125000 }]),
      },
      valid: true,
      warnings: [],
    },
    createdBy: actor,
    createdAt: T0,
    updatedAt: T0,
    statusHistory: [{ from: null, to: 'submitted', at: T0, by: actor, reason: null }],
    documents: [],
    ...extra,
  });

export const route = (id: number, name: string, extra: Partial<Route> = {}): Route =>
  checked(Route, {
    id,
    code: null,
    name,
    description: null,
    line: [
      [39.66, -4.05],
      [34.1, 0.6],
    ],
    legs: null,
    widthM: 2000,
    speedLimitsKmh: [80],
    stopAreas: [],
    expectedDurationMinutes: 1800,
    thresholds: {},
    countries: ['KE', 'UG'],
    attributes: {},
    lengthM: 900_000,
    segmentCount: 1,
    version: 1,
    companyId: null,
    createdAt: T0,
    updatedAt: T0,
    ...extra,
  });

export const journey = (id: number, extra: Partial<Journey> = {}): Journey => ({
  id,
  deviceId: 7,
  truckPlate: 'KCA 123A',
  companyId: 101,
  routeId: 1,
  routeName: 'Northern Corridor',
  shipmentRef: null,
  cargoRef: null,
  plannedDeparture: T0,
  plannedArrival: T1,
  state: 'active',
  actualDeparture: T0,
  actualArrival: null,
  origin: null,
  destination: null,
  countries: ['KE', 'UG'],
  flagged: false,
  openFlags: [],
  cancelledAt: null,
  cancelReason: null,
  createdBy: 12,
  attributes: {},
  createdAt: T0,
  updatedAt: T0,
  ...extra,
});

export const journeyDetail = (j: Journey, extra: Partial<JourneyDetail> = {}): JourneyDetail =>
  checked(JourneyDetail, {
    journey: j,
    route: route(j.routeId, j.routeName),
    track: [],
    trackTruncated: false,
    flags: [],
    ...extra,
  });

/** A shipment as a list gives it (no history, progress or documents). */
export const shipmentItem = (id: number, extra: Partial<ShipmentDetail> = {}) => {
  const { statusHistory: _h, progress: _p, documents: _d, ...s } = shipment(id, extra);
  return s;
};
/** A cargo as a list gives it (no history or documents). */
export const cargoItem = (id: number, extra: Partial<CargoDetail> = {}) => {
  const { statusHistory: _h, documents: _d, ...c } = cargo(id, extra);
  return c;
};

/** A fix as positions.v1 and GET /positions give it (speed in knots). */
export const position = (deviceId: number, fixTime: string, speed: number, extra: Partial<Position> = {}): Position => ({
  id: 1000 + (Math.floor(Date.parse(fixTime) / 1000) % 1_000_000),
  deviceId,
  protocol: 'gt06',
  deviceTime: fixTime,
  fixTime,
  serverTime: fixTime,
  valid: true,
  latitude: -3.4,
  longitude: 38.5,
  altitude: 0,
  speed,
  course: 90,
  accuracy: 0,
  attributes: {},
  ...extra,
});

/** A flag of journey 4 on device 7, new and still open unless `extra` says otherwise. */
export const journeyFlag = (id: number, extra: Partial<JourneyFlag> = {}): JourneyFlag => ({
  id,
  journeyId: 4,
  deviceId: 7,
  type: 'overspeed',
  openedAt: T0,
  clearedAt: null,
  latitude: -3.4,
  longitude: 38.5,
  address: '14 km NW of Voi, KE',
  distanceM: null,
  details: {},
  escalated: false,
  escalatedAt: null,
  review: 'new',
  acknowledgedBy: null,
  acknowledgedAt: null,
  acknowledgedNote: null,
  resolvedBy: null,
  resolvedAt: null,
  resolvedNote: null,
  ...extra,
});
