import { z } from 'zod';
import { notRef, ref } from './references';
import { defineEndpoint } from './endpoint';
import { IsoDateTime, Pagination, page } from './common';

export const DocumentKind = z.enum([
  'idf',
  'bill_of_lading',
  'cmr',
  'commercial_invoice',
  'packing_list',
  'customs_entry',
  'permit',
  'certificate',
  'invoice',
  'receipt',
  'delivery_note',
  'photo',
  'other',
]);
export type DocumentKind = z.infer<typeof DocumentKind>;

/** Content types a document may have; the bytes must agree with the declared type (sniffed). */
export const DocumentContentType = z.enum([
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/tiff',
  'application/json',
  'text/csv',
  'text/plain',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
]);
export type DocumentContentType = z.infer<typeof DocumentContentType>;

export const ScanStatus = z
  .enum(['clean', 'not_scanned'])
  .describe("'not_scanned' when no virus scanner is configured; infected files are refused");

/** What a document belongs to (its first owner); further links are listed with the owner. */
export const DocumentOwnerType = z.enum(['shipment', 'cargo', 'certificate', 'complaint', 'disciplinary', 'company']);
export type DocumentOwnerType = z.infer<typeof DocumentOwnerType>;

export const DocumentRecord = z
  .object({
    id: z.uuid(),
    companyId: z.number().int(),
    kind: DocumentKind,
    filename: z.string(),
    contentType: z.string(),
    sizeBytes: z.number().int().nonnegative(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    scanStatus: ScanStatus,
    ownerType: DocumentOwnerType.nullable(),
    ownerId: z.string().nullable(),
    uploadedBy: z.object({ userId: z.number().int(), email: z.string() }),
    createdAt: IsoDateTime,
  })
  .meta({ id: 'DocumentRecord' });
export type DocumentRecord = z.infer<typeof DocumentRecord>;

export const SignedLink = z
  .object({
    url: z
      .string()
      .describe('Relative URL: /api/documents/{documentId}/download?user=…&expires=…&signature=…, for the user it was issued to'),
    expiresAt: IsoDateTime,
  })
  .meta({ id: 'SignedLink' });
export type SignedLink = z.infer<typeof SignedLink>;

export const DocumentWithLink = DocumentRecord.extend({ download: SignedLink }).meta({ id: 'DocumentWithLink' });
export type DocumentWithLink = z.infer<typeof DocumentWithLink>;

/** The multipart form of POST /documents/upload (documentation; the route validates it itself). */
export const DocumentUploadForm = z
  .object({
    file: z.string().describe('The file (binary part, with its filename and content type)'),
    kind: DocumentKind,
    companyId: ref('company', z.coerce.number().int().positive())
      .optional()
      .describe('Required for association staff; company users upload for their own company'),
    ownerType: DocumentOwnerType.optional(),
    ownerId: notRef(
      z.string().max(64),
      'the id of the ownerType entry, as text; the upload form is checked by the documents module',
    ).optional(),
  })
  .meta({ id: 'DocumentUploadForm' });

export const DocumentIdParam = z.object({ documentId: ref('document', z.uuid()) });

export const DocumentsQuery = Pagination.extend({
  companyId: ref('company', z.coerce.number().int().positive()).optional(),
  kind: DocumentKind.optional(),
  ownerType: DocumentOwnerType.optional(),
  ownerId: notRef(z.string().max(64), 'a filter on the owner id as stored (text); staff only').optional(),
  from: IsoDateTime.optional().describe('Uploaded at or after'),
  to: IsoDateTime.optional().describe('Uploaded before'),
});

export const DownloadQuery = z.object({
  user: z.coerce.number().int().positive().max(2147483647).describe('The user the link was issued to: nobody else may use it'),
  expires: z.coerce.number().int().positive().max(2147483647).describe('Unix seconds after which the link is refused'),
  signature: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/)
    .describe('base64url HMAC-SHA256 over "documentId.user.expires"'),
});

const uploaders = ['company_user', 'dispatcher', 'clearing_agent', 'association_officer'] as const;
const tags = ['documents'];
export const documentsEndpoints = [
  defineEndpoint({
    id: 'documents.upload',
    method: 'post',
    path: '/documents/upload',
    service: 'ops-api',
    tags,
    companyScoped: true,
    summary: 'Upload a document (multipart)',
    access: uploaders,
    description:
      'One file per request, at most DOCUMENTS_MAX_BYTES (413 beyond). The bytes are sniffed and must match the declared ' +
      'content type (415 otherwise); a SHA-256 checksum is kept; the virus-scan hook runs before storage (422 when refused).',
    request: { body: DocumentUploadForm, bodyContentType: 'multipart/form-data' },
    responses: { 201: { description: 'The stored document with a download link', schema: DocumentWithLink } },
  }),
  defineEndpoint({
    id: 'documents.list',
    method: 'get',
    path: '/documents',
    service: 'ops-api',
    tags,
    summary: 'All documents (association oversight)',
    access: ['association_officer', 'association_analyst'],
    request: { query: DocumentsQuery },
    responses: { 200: { description: 'A page of documents, newest first', schema: page(DocumentRecord, 'DocumentPage') } },
  }),
  defineEndpoint({
    id: 'documents.get',
    method: 'get',
    path: '/documents/{documentId}',
    service: 'ops-api',
    tags,
    companyScoped: true,
    summary: 'One document with a fresh download link',
    access: 'authenticated',
    request: { params: DocumentIdParam },
    responses: { 200: { description: 'The document', schema: DocumentWithLink } },
  }),
  defineEndpoint({
    id: 'documents.download',
    method: 'get',
    path: '/documents/{documentId}/download',
    service: 'ops-api',
    tags,
    summary: 'Download through an expiring signed link',
    access: 'authenticated',
    description: 'The link names the user it was issued to; it answers 403 to anyone else, and when expired or altered.',
    request: { params: DocumentIdParam, query: DownloadQuery },
    responses: { 200: { description: 'The file', schema: z.string().describe('binary'), contentType: 'application/octet-stream' } },
  }),
] as const;

/** One field read from a document: its value, how sure the reader is (0..1) and whether it passed its checks. */
export const extractedField = <T extends z.ZodTypeAny>(value: T) =>
  z.object({
    value: value.nullable(),
    confidence: z.number().min(0).max(1),
    valid: z.boolean().nullable().describe('null when there is no check for this field or no value'),
    issues: z.array(z.string()),
  });
export type ExtractedField<T> = { value: T | null; confidence: number; valid: boolean | null; issues: string[] };

export const DocumentRef = z.object({ documentId: ref('document', z.uuid()) }).meta({ id: 'DocumentRef' });
export type DocumentRef = z.infer<typeof DocumentRef>;
