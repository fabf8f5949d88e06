import { z } from 'zod';
import { ref } from './references';
import { defineEndpoint } from './endpoint';
import { IsoDateTime, Pagination, page, repeated } from './common';
import { CountryCode } from './companies';
import { DocumentRecord, DocumentRef, DocumentWithLink, extractedField } from './documents';

export const ShipmentStatus = z.enum(['draft', 'booked', 'in_transit', 'at_border', 'cleared', 'delivered', 'cancelled', 'on_hold']);
export type ShipmentStatus = z.infer<typeof ShipmentStatus>;

export const TransportMode = z.enum(['road', 'rail', 'multimodal']);
export const Corridor = z.enum(['northern', 'central', 'other']).describe('Northern (Mombasa–Malaba) or Central (Dar es Salaam–Rusumo)');

/** ISO 6346 container number: owner code, category U/J/Z, serial, check digit. */
export const CONTAINER_NUMBER = /^[A-Z]{3}[UJZ]\d{7}$/;
export function iso6346CheckDigitOk(n: string): boolean {
  if (!CONTAINER_NUMBER.test(n)) return false;
  const value = (c: string): number => {
    if (/\d/.test(c)) return Number(c);
    let v = c.charCodeAt(0) - 55; // A=10 … Z=35, skipping multiples of 11
    v += Math.floor((v - 1) / 10);
    return v;
  };
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += value(n[i]!) * 2 ** i;
  return (sum % 11) % 10 === Number(n[10]);
}
export const ContainerNumber = z
  .string()
  .transform((s) => s.replace(/[\s-]/g, '').toUpperCase())
  .refine((s) => CONTAINER_NUMBER.test(s), 'expected an ISO 6346 container number such as MSKU1234565')
  .refine((s) => !CONTAINER_NUMBER.test(s) || iso6346CheckDigitOk(s), 'the check digit does not match (ISO 6346)');

export const Plate = z
  .string()
  .transform((s) => s.trim().toUpperCase().replace(/\s+/g, ' '))
  .refine((s) => /^[A-Z0-9][A-Z0-9 -]{1,13}$/.test(s), 'a registration plate such as KDA 123A or T 123 ABC');

export const Place = z.object({ place: z.string().trim().min(1).max(120), country: CountryCode });

export const Driver = z.object({
  name: z.string().trim().min(1).max(120),
  phone: z
    .string()
    .regex(/^\+?\d{9,15}$/, 'digits with an optional leading +')
    .nullable()
    .default(null),
  licenceNumber: z.string().max(40).nullable().default(null),
});

const ShipmentFields = z.object({
  reference: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9/_.-]{0,63}$/, 'letters, digits and / _ . - (at most 64)'),
  origin: Place,
  destination: Place,
  corridor: Corridor.nullable().default(null),
  routeId: ref('route', z.number().int().positive()).nullable().default(null).describe('The planned route in the journey service'),
  borderCrossings: z.array(z.string().trim().min(1).max(60)).max(10).default([]).describe('Border posts on the way, e.g. Malaba, Rusumo'),
  transportMode: TransportMode.default('road'),
  truckPlate: Plate.nullable().default(null),
  trailerPlate: Plate.nullable().default(null),
  driver: Driver.nullable().default(null),
  containerNumbers: z.array(ContainerNumber).max(50).default([]),
  billOfLadingNumber: z.string().trim().min(3).max(40).nullable().default(null),
  cmrNumber: z.string().trim().min(3).max(40).nullable().default(null),
  cargoIds: z
    .array(ref('cargo', z.number().int().positive()))
    .max(50)
    .default([])
    .describe('Cargo (IDF) records of the same company carried'),
  plannedDeparture: IsoDateTime.nullable().default(null),
  plannedArrival: IsoDateTime.nullable().default(null),
  journeyId: ref('journey', z.number().int().positive()).nullable().default(null).describe('The tracked journey in the journey service'),
  notes: z.string().max(2000).nullable().default(null),
});

export const ShipmentInput = ShipmentFields.superRefine((v, ctx) => {
  if (v.plannedDeparture && v.plannedArrival && Date.parse(v.plannedArrival) < Date.parse(v.plannedDeparture)) {
    ctx.addIssue({ code: 'custom', path: ['plannedArrival'], message: 'must not be before plannedDeparture' });
  }
  if (new Set(v.containerNumbers).size !== v.containerNumbers.length)
    ctx.addIssue({ code: 'custom', path: ['containerNumbers'], message: 'listed twice' });
}).meta({ id: 'ShipmentInput' });
export type ShipmentInput = z.infer<typeof ShipmentInput>;

const Actor = z.object({ userId: z.number().int(), email: z.string() });

export const Shipment = ShipmentFields.extend({
  id: z.number().int().positive(),
  companyId: z.number().int(),
  reference: z.string(),
  truckPlate: z.string().nullable(),
  trailerPlate: z.string().nullable(),
  containerNumbers: z.array(z.string()),
  status: ShipmentStatus,
  statusBeforeHold: ShipmentStatus.nullable().describe('While on_hold: the state a resume returns to'),
  actualDeparture: IsoDateTime.nullable(),
  actualArrival: IsoDateTime.nullable(),
  createdBy: Actor,
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime,
}).meta({ id: 'Shipment' });
export type Shipment = z.infer<typeof Shipment>;

export const StatusChange = z
  .object({ from: ShipmentStatus.nullable(), to: ShipmentStatus, at: IsoDateTime, by: Actor, reason: z.string().nullable() })
  .meta({ id: 'ShipmentStatusChange' });

export const ProgressKind = z.enum(['position', 'checkpoint', 'border_arrival', 'border_departure', 'delay', 'incident', 'note']);

export const ProgressUpdateInput = z
  .object({
    at: IsoDateTime.describe('When it happened (not more than 5 minutes in the future)'),
    kind: ProgressKind.default('checkpoint'),
    location: z
      .object({
        name: z.string().trim().min(1).max(120).nullable().default(null),
        latitude: z.number().min(-90).max(90).nullable().default(null),
        longitude: z.number().min(-180).max(180).nullable().default(null),
      })
      .refine((l) => (l.latitude === null) === (l.longitude === null), {
        message: 'latitude and longitude go together',
        path: ['latitude'],
      })
      .refine((l) => l.name !== null || l.latitude !== null, { message: 'a name or coordinates', path: ['name'] }),
    note: z.string().max(1000).nullable().default(null),
  })
  .meta({ id: 'ProgressUpdateInput' });
export type ProgressUpdateInput = z.infer<typeof ProgressUpdateInput>;

export const ProgressUpdate = z
  .object({
    id: z.number().int(),
    shipmentId: z.number().int(),
    at: IsoDateTime,
    kind: ProgressKind,
    location: z.object({ name: z.string().nullable(), latitude: z.number().nullable(), longitude: z.number().nullable() }),
    note: z.string().nullable(),
    recordedBy: Actor,
    createdAt: IsoDateTime,
  })
  .meta({ id: 'ProgressUpdate' });
export type ProgressUpdate = z.infer<typeof ProgressUpdate>;

export const ShipmentDetail = Shipment.extend({
  statusHistory: z.array(StatusChange),
  progress: z.array(ProgressUpdate).describe('Track details, oldest first'),
  documents: z.array(DocumentRecord),
}).meta({ id: 'ShipmentDetail' });
export type ShipmentDetail = z.infer<typeof ShipmentDetail>;

export const ShipmentStatusInput = z
  .object({ status: ShipmentStatus, reason: z.string().trim().max(500).nullable().default(null) })
  .superRefine((v, ctx) => {
    if ((v.status === 'cancelled' || v.status === 'on_hold') && !v.reason)
      ctx.addIssue({ code: 'custom', path: ['reason'], message: `required to put a shipment ${v.status}` });
  })
  .meta({ id: 'ShipmentStatusInput' });

export const AllowedTransitions = z
  .object({
    current: ShipmentStatus,
    statusBeforeHold: ShipmentStatus.nullable(),
    allowed: z.array(ShipmentStatus).describe("Next states the caller's roles may choose"),
  })
  .meta({ id: 'ShipmentAllowedTransitions' });

export const ShipmentIdParam = z.object({ shipmentId: ref('shipment', z.coerce.number().int().positive()) });

const ShipmentFilters = Pagination.extend({
  status: repeated(ShipmentStatus).optional(),
  reference: z.string().max(64).optional(),
  truckPlate: z.string().max(20).optional(),
  containerNumber: z.string().max(20).optional(),
  corridor: Corridor.optional(),
  from: IsoDateTime.optional().describe('Created at or after'),
  to: IsoDateTime.optional().describe('Created before'),
});
export const CompanyShipmentsQuery = ShipmentFilters;
export const AdminShipmentsQuery = ShipmentFilters.extend({ companyId: ref('company', z.coerce.number().int().positive()).optional() });

export const TransportDocumentExtraction = z
  .object({
    documentId: z.uuid(),
    documentType: z.enum(['bill_of_lading', 'cmr']),
    fields: z.object({
      billOfLadingNumber: extractedField(z.string()),
      cmrNumber: extractedField(z.string()),
      shipper: extractedField(z.string()),
      consignee: extractedField(z.string()),
      portOfLoading: extractedField(z.string()),
      portOfDischarge: extractedField(z.string()),
      placeOfDelivery: extractedField(z.string()),
      vessel: extractedField(z.string()),
      voyage: extractedField(z.string()),
      containerNumbers: extractedField(z.array(z.string())),
    }),
    warnings: z.array(z.string()),
  })
  .meta({ id: 'TransportDocumentExtraction' });
export type TransportDocumentExtraction = z.infer<typeof TransportDocumentExtraction>;

const Page = page(Shipment, 'ShipmentPage');
const companyRoles = ['company_user', 'dispatcher', 'clearing_agent'] as const;
const editors = ['company_user', 'dispatcher'] as const;
const tags = ['shipments'];
const idParams = { params: ShipmentIdParam };

export const shipmentsEndpoints = [
  defineEndpoint({
    id: 'shipments.listCompany',
    method: 'get',
    path: '/shipments/company',
    service: 'ops-api',
    tags,
    companyScoped: true,
    summary: "The caller's company's shipments",
    access: companyRoles,
    request: { query: CompanyShipmentsQuery },
    responses: { 200: { description: 'A page of shipments, newest first', schema: Page } },
  }),
  defineEndpoint({
    id: 'shipments.create',
    method: 'post',
    path: '/shipments/company',
    service: 'ops-api',
    tags,
    companyScoped: true,
    summary: "Create a shipment (draft) for the caller's company",
    access: editors,
    request: { body: ShipmentInput },
    responses: { 201: { description: 'The created shipment', schema: Shipment } },
  }),
  defineEndpoint({
    id: 'shipments.update',
    method: 'put',
    path: '/shipments/{shipmentId}',
    service: 'ops-api',
    tags,
    companyScoped: true,
    summary: 'Replace the details of a shipment (not its status)',
    access: editors,
    description: 'Delivered and cancelled shipments are closed: 409.',
    request: { ...idParams, body: ShipmentInput },
    responses: { 200: { description: 'The updated shipment', schema: Shipment } },
  }),
  defineEndpoint({
    id: 'shipments.changeStatus',
    method: 'patch',
    path: '/shipments/{shipmentId}/status',
    service: 'ops-api',
    tags,
    companyScoped: true,
    summary: 'Move a shipment to another state',
    access: [...companyRoles, 'association_officer'],
    description:
      'Allowed moves come from one table per role (see allowed-status-transitions). A denied move answers 409 INVALID_TRANSITION with details { current, allowed }. From on_hold the only resume is to the state before the hold.',
    request: { ...idParams, body: ShipmentStatusInput },
    responses: { 200: { description: 'The shipment in its new state', schema: Shipment } },
  }),
  defineEndpoint({
    id: 'shipments.allowedTransitions',
    method: 'get',
    path: '/shipments/{shipmentId}/allowed-status-transitions',
    service: 'ops-api',
    tags,
    companyScoped: true,
    summary: "The next states the caller's roles may move the shipment to",
    access: 'authenticated',
    request: idParams,
    responses: { 200: { description: 'Current and allowed next states', schema: AllowedTransitions } },
  }),
  defineEndpoint({
    id: 'shipments.addProgress',
    method: 'post',
    path: '/shipments/{shipmentId}/progress-updates',
    service: 'ops-api',
    tags,
    companyScoped: true,
    summary: 'Record a progress update (location, note, time)',
    access: editors,
    description: 'Only while the shipment is booked, in transit, at a border, cleared or on hold (409 otherwise).',
    request: { ...idParams, body: ProgressUpdateInput },
    responses: { 201: { description: 'The recorded update', schema: ProgressUpdate } },
  }),
  defineEndpoint({
    id: 'shipments.attachDocument',
    method: 'post',
    path: '/shipments/{shipmentId}/documents',
    service: 'ops-api',
    tags,
    companyScoped: true,
    summary: 'Attach an uploaded document, or upload and attach in one step',
    access: companyRoles,
    description:
      'JSON { documentId } attaches a document of the same company; multipart/form-data (file, kind) as in POST /documents/upload uploads and attaches.',
    request: { ...idParams, body: DocumentRef, bodyContentType: 'application/json' },
    responses: { 201: { description: 'The attached document', schema: DocumentWithLink } },
  }),
  defineEndpoint({
    id: 'shipments.processTransportDocument',
    method: 'post',
    path: '/shipments/process-transport-document',
    service: 'ops-api',
    tags,
    companyScoped: true,
    summary: 'Read a bill of lading or CMR (uploaded PDF with text)',
    access: companyRoles,
    description:
      'Extracts B/L or CMR number, shipper, consignee, ports, vessel, voyage and container numbers, each with a confidence and its checks. 422 when the document cannot be read (no text layer, corrupt).',
    request: { body: DocumentRef },
    responses: { 200: { description: 'The fields found', schema: TransportDocumentExtraction } },
  }),
  defineEndpoint({
    id: 'shipments.listAdmin',
    method: 'get',
    path: '/shipments/admin',
    service: 'ops-api',
    tags,
    summary: "All companies' shipments (association oversight)",
    access: ['association_officer', 'association_analyst'],
    request: { query: AdminShipmentsQuery },
    responses: { 200: { description: 'A page of shipments, newest first', schema: Page } },
  }),
  defineEndpoint({
    id: 'shipments.get',
    method: 'get',
    path: '/shipments/{shipmentId}',
    service: 'ops-api',
    tags,
    companyScoped: true,
    summary: 'One shipment with its status history, track details and documents',
    access: 'authenticated',
    description: "Company users see their own company's shipments only (404 for others); the association sees all.",
    request: idParams,
    responses: { 200: { description: 'The shipment', schema: ShipmentDetail } },
  }),
] as const;
