import { z } from 'zod';
import { ref } from './references';
import { defineEndpoint } from './endpoint';
import { IsoDateTime, Pagination, page, repeated } from './common';
import { DocumentRecord, DocumentRef, DocumentWithLink, extractedField } from './documents';

export const CargoStatus = z.enum(['submitted', 'validated', 'rejected', 'released', 'delivered', 'cancelled']);
export type CargoStatus = z.infer<typeof CargoStatus>;

/** KRA PIN: A (individuals) or P (others), nine digits, a check letter, e.g. P051234567X. */
export const KRA_PIN = /^[AP]\d{9}[A-Z]$/;
/** TRA TIN: nine digits, often written 123-456-789. */
export const TRA_TIN = /^\d{3}-?\d{3}-?\d{3}$/;
/** Harmonized System code: 6 digits (HS), 8 (EAC CET) or 10 (national), dotted or not: 8704.21.90. */
export const HS_CODE = /^\d{4}\.?\d{2}(\.?\d{2}){0,2}$/;

export const IdfLineItem = z
  .object({
    hsCode: z.string(),
    description: z.string(),
    quantity: z.number(),
    unit: z.string(),
    value: z.number().describe('Line value in the invoice currency'),
  })
  .meta({ id: 'IdfLineItem' });
export type IdfLineItem = z.infer<typeof IdfLineItem>;

export const IdfExtraction = z
  .object({
    format: z.enum(['pdf', 'json', 'csv']),
    fields: z.object({
      idfNumber: extractedField(z.string()),
      importerName: extractedField(z.string()),
      importerPin: extractedField(z.string()).describe('valid: KRA PIN or TRA TIN shape'),
      consignor: extractedField(z.string()),
      countryOfOrigin: extractedField(z.string()),
      portOfDischarge: extractedField(z.string()),
      invoiceValue: extractedField(z.number()).describe('valid: the line values add up to it (within 1%)'),
      currency: extractedField(z.string()).describe('valid: an ISO 4217 code'),
      lineItems: extractedField(z.array(IdfLineItem)).describe(
        'valid: every HS code has the 6/8/10-digit shape and every line a quantity and value',
      ),
    }),
    valid: z.boolean().describe('Every check passed'),
    warnings: z.array(z.string()),
  })
  .meta({ id: 'IdfExtraction' });
export type IdfExtraction = z.infer<typeof IdfExtraction>;

/** A structured IDF export (JSON); the CSV export has one row per line item with the same names in snake_case. */
export const IdfStructuredExport = z
  .object({
    idfNumber: z.string().min(1),
    importer: z.object({ name: z.string().min(1), pin: z.string().min(1) }),
    consignor: z.string().min(1),
    countryOfOrigin: z.string().min(1),
    portOfDischarge: z.string().min(1),
    invoice: z.object({ value: z.coerce.number(), currency: z.string().min(3).max(3) }),
    items: z
      .array(
        z.object({ hsCode: z.string(), description: z.string(), quantity: z.coerce.number(), unit: z.string(), value: z.coerce.number() }),
      )
      .min(1),
  })
  .meta({ id: 'IdfStructuredExport' });
export type IdfStructuredExport = z.infer<typeof IdfStructuredExport>;

const Actor = z.object({ userId: z.number().int(), email: z.string() });

export const Cargo = z
  .object({
    id: z.number().int().positive(),
    companyId: z.number().int(),
    idfNumber: z.string(),
    importer: z.object({ name: z.string(), pin: z.string().nullable() }),
    consignor: z.string().nullable(),
    countryOfOrigin: z.string().nullable(),
    portOfDischarge: z.string().nullable(),
    invoice: z.object({ value: z.number().nullable(), currency: z.string().nullable() }),
    lineItems: z.array(IdfLineItem),
    status: CargoStatus,
    sourceDocumentId: z.uuid().nullable(),
    extraction: IdfExtraction,
    createdBy: Actor,
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  })
  .meta({ id: 'Cargo' });
export type Cargo = z.infer<typeof Cargo>;

export const CargoStatusChange = z
  .object({ from: CargoStatus.nullable(), to: CargoStatus, at: IsoDateTime, by: Actor, reason: z.string().nullable() })
  .meta({ id: 'CargoStatusChange' });

export const CargoDetail = Cargo.extend({ statusHistory: z.array(CargoStatusChange), documents: z.array(DocumentRecord) }).meta({
  id: 'CargoDetail',
});
export type CargoDetail = z.infer<typeof CargoDetail>;

export const CargoStatusInput = z
  .object({ status: CargoStatus, reason: z.string().trim().max(500).nullable().default(null) })
  .superRefine((v, ctx) => {
    if ((v.status === 'rejected' || v.status === 'cancelled') && !v.reason)
      ctx.addIssue({ code: 'custom', path: ['reason'], message: `required when the cargo is ${v.status}` });
  })
  .meta({ id: 'CargoStatusInput' });

/**
 * A person's corrections of fields read from the IDF (only the fields given change). The server runs
 * the same checks as on reading and answers the cargo with its updated extraction report.
 */
export const CargoCorrection = z
  .object({
    idfNumber: z.string().trim().min(1).max(40),
    importerName: z.string().trim().min(1).max(200),
    importerPin: z.string().trim().min(1).max(20),
    consignor: z.string().trim().min(1).max(200),
    countryOfOrigin: z.string().trim().min(1).max(100),
    portOfDischarge: z.string().trim().min(1).max(100),
    currency: z.string().trim().min(1).max(10),
    invoiceValue: z.number().min(0).max(1e13),
    lineItems: z
      .array(
        z.object({
          hsCode: z.string().trim().min(1).max(20),
          description: z.string().trim().max(300),
          quantity: z.number().min(0).max(1e13),
          unit: z.string().trim().min(1).max(10),
          value: z.number().min(0).max(1e13),
        }),
      )
      .min(1)
      .max(500),
  })
  .partial()
  .refine((v) => Object.values(v).some((x) => x !== undefined), 'give at least one field to correct')
  .meta({ id: 'CargoCorrection' });
export type CargoCorrection = z.infer<typeof CargoCorrection>;

export const CargoIdParam = z.object({ cargoId: ref('cargo', z.coerce.number().int().positive()) });

const CargoFilters = Pagination.extend({
  status: repeated(CargoStatus).optional(),
  idfNumber: z.string().max(40).optional(),
  importerPin: z.string().max(20).optional(),
  from: IsoDateTime.optional().describe('Created at or after'),
  to: IsoDateTime.optional().describe('Created before'),
});
export const CompanyCargoQuery = CargoFilters;
export const AdminCargoQuery = CargoFilters.extend({ companyId: ref('company', z.coerce.number().int().positive()).optional() });

const Page = page(Cargo, 'CargoPage');
const companyRoles = ['company_user', 'dispatcher', 'clearing_agent'] as const;
const tags = ['cargo'];

export const cargoEndpoints = [
  defineEndpoint({
    id: 'cargo.listCompany',
    method: 'get',
    path: '/cargos/company',
    service: 'ops-api',
    tags,
    companyScoped: true,
    summary: "The caller's company's cargo (IDF) records",
    access: companyRoles,
    request: { query: CompanyCargoQuery },
    responses: { 200: { description: 'A page of cargo, newest first', schema: Page } },
  }),
  defineEndpoint({
    id: 'cargo.processIdf',
    method: 'post',
    path: '/cargos/process-idf',
    service: 'ops-api',
    tags,
    companyScoped: true,
    summary: 'Create a cargo from an uploaded Import Declaration Form',
    access: ['company_user', 'clearing_agent'],
    description:
      'The document (POST /documents/upload) is an IDF PDF with a text layer, or a structured export (JSON as IdfStructuredExport, ' +
      'or CSV with one row per line item). Each field comes back with a confidence and its checks (HS code shape, totals, PIN format). ' +
      '422 UNPROCESSABLE with { reason, check } when it cannot be read (e.g. an image-only scan has no text layer); 503 when the PDF reader is not ready; ' +
      '409 when the company already has a cargo with that IDF number.',
    request: { body: DocumentRef },
    responses: { 201: { description: 'The created cargo with the extraction report', schema: Cargo } },
  }),
  defineEndpoint({
    id: 'cargo.get',
    method: 'get',
    path: '/cargos/{cargoId}',
    service: 'ops-api',
    tags,
    companyScoped: true,
    summary: 'One cargo with its status history and documents',
    access: 'authenticated',
    description: "Company users see their own company's cargo only (404 for others); the association sees all.",
    request: { params: CargoIdParam },
    responses: { 200: { description: 'The cargo', schema: CargoDetail } },
  }),
  defineEndpoint({
    id: 'cargo.attachDocument',
    method: 'post',
    path: '/cargos/{cargoId}/documents',
    service: 'ops-api',
    tags,
    companyScoped: true,
    summary: 'Attach an uploaded document, or upload and attach in one step',
    access: companyRoles,
    description:
      'JSON { documentId } attaches a document of the same company; multipart/form-data (file, kind) as in POST /documents/upload uploads and attaches.',
    request: { params: CargoIdParam, body: DocumentRef, bodyContentType: 'application/json' },
    responses: { 201: { description: 'The attached document', schema: DocumentWithLink } },
  }),
  defineEndpoint({
    id: 'cargo.changeStatus',
    method: 'put',
    path: '/cargos/{cargoId}/status',
    service: 'ops-api',
    tags,
    companyScoped: true,
    summary: 'Move a cargo to another state',
    access: [...companyRoles, 'association_officer'],
    description:
      'Allowed moves come from the cargo transitions table per role; a denied move answers 409 INVALID_TRANSITION with { current, allowed }. Validating a cargo whose extraction failed a check answers 409 CONFLICT with the failed checks.',
    request: { params: CargoIdParam, body: CargoStatusInput },
    responses: { 200: { description: 'The cargo in its new state', schema: Cargo } },
  }),
  defineEndpoint({
    id: 'cargo.listAdmin',
    method: 'get',
    path: '/cargos',
    service: 'ops-api',
    tags,
    summary: "All companies' cargo (association oversight)",
    access: ['association_officer', 'association_analyst'],
    request: { query: AdminCargoQuery },
    responses: { 200: { description: 'A page of cargo, newest first', schema: Page } },
  }),
  defineEndpoint({
    id: 'cargo.correct',
    method: 'patch',
    path: '/cargos/{cargoId}/fields',
    service: 'ops-api',
    tags,
    companyScoped: true,
    summary: 'Correct fields read from the IDF',
    access: ['company_user', 'clearing_agent'],
    description:
      'While the cargo is submitted, a person corrects what the reader got wrong; every check runs again (a corrected field has confidence 1) and ' +
      'the audit trail keeps the old and new values. 409 CONFLICT once the cargo has left submitted, or for an IDF number the company already has.',
    request: { params: CargoIdParam, body: CargoCorrection },
    responses: { 200: { description: 'The cargo with its rechecked extraction report', schema: Cargo } },
  }),
] as const;
