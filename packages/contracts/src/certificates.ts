import { z } from 'zod';
import { idParam, notRef, ref } from './references';
import { defineEndpoint } from './endpoint';
import { IsoDateTime, Pagination, repeated } from './common';
import { CoveredPeriod, PeriodQuery } from './dashboards';

/**
 * Single-use certificates (the clearing agent's one-time permit for one cargo).
 * applied --generate--> submitted --approve--> approved
 * applied | submitted --reject--> rejected. Anything else answers 409 INVALID_TRANSITION.
 */
export const CertificateStatus = z.enum(['applied', 'submitted', 'approved', 'rejected']);
export type CertificateStatus = z.infer<typeof CertificateStatus>;

export const CertificateAction = z.enum(['generate', 'approve', 'reject']);
export type CertificateAction = z.infer<typeof CertificateAction>;

export const PaymentMethod = z.enum(['mpesa', 'bank_transfer', 'card', 'cash']);

const Actor = z.object({ userId: z.number().int(), email: z.string() });

export const Certificate = z
  .object({
    id: z.number().int().positive(),
    number: z.string().describe('e.g. SUC-000042'),
    cargoId: z.number().int(),
    companyId: z.number().int(),
    status: CertificateStatus,
    verificationCode: z.string().describe('printed on the certificate with a QR code; GET /single-use-certificates/verify/{code}'),
    cargo: z.object({
      idfNumber: z.string(),
      importerName: z.string(),
      invoiceValue: z.number().nullable(),
      currency: z.string().nullable(),
    }),
    applicant: Actor,
    fee: z.object({ amount: z.number(), currency: z.string() }),
    invoiceNumber: z.string().nullable(),
    receiptNumber: z.string().nullable(),
    payment: z.object({ reference: z.string(), method: PaymentMethod, paidAt: IsoDateTime }).nullable(),
    documents: z.object({ certificate: z.uuid().nullable(), invoice: z.uuid().nullable(), receipt: z.uuid().nullable() }),
    generatedAt: IsoDateTime.nullable(),
    validUntil: IsoDateTime.nullable(),
    decision: z.object({ at: IsoDateTime, by: Actor, reason: z.string().nullable() }).nullable(),
    allowedActions: z.array(CertificateAction).describe('what the workflow allows next (whoever the caller is)'),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  })
  .meta({ id: 'Certificate' });
export type Certificate = z.infer<typeof Certificate>;

export const CertificateApplyInput = z.object({ cargoId: ref('cargo', z.number().int().positive()) }).meta({ id: 'CertificateApplyInput' });

export const CertificateGenerateInput = z
  .object({
    paymentReference: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9-]{4,64}$/, 'letters, digits and dashes, 4 to 64')
      .describe('e.g. the M-Pesa transaction code'),
    paymentMethod: PaymentMethod,
  })
  .meta({ id: 'CertificateGenerateInput' });
export type CertificateGenerateInput = z.infer<typeof CertificateGenerateInput>;

export const CertificateApproveInput = z
  .object({ note: z.string().trim().min(1).max(2000).optional() })
  .nullish()
  .transform((v) => v ?? {})
  .meta({ id: 'CertificateApproveInput', description: 'Optional: the body may be left out' });
export const CertificateRejectInput = z.object({ reason: z.string().trim().min(5).max(2000) }).meta({ id: 'CertificateRejectInput' });

export const CertificateLink = z.object({
  documentId: z.uuid(),
  filename: z.string(),
  url: z.string().describe('relative signed download URL'),
  expiresAt: IsoDateTime,
});
export const CertificateViewLinks = z
  .object({ certificateId: z.number().int(), certificate: CertificateLink, invoice: CertificateLink, receipt: CertificateLink })
  .meta({ id: 'CertificateViewLinks' });
export type CertificateViewLinks = z.infer<typeof CertificateViewLinks>;

export const CertificatesQuery = Pagination.extend({
  status: repeated(CertificateStatus).optional(),
  companyId: ref('company', z.coerce.number().int().positive()).optional().describe('association staff only; company users see their own'),
  cargoId: ref('cargo', z.coerce.number().int().positive()).optional(),
  from: IsoDateTime.optional().describe('applied at or after'),
  to: IsoDateTime.optional().describe('applied at or before'),
  q: z.string().max(64).optional().describe('certificate number or verification code'),
});

export const CertificatePage = z
  .object({ items: z.array(Certificate), total: z.number().int(), limit: z.number().int(), offset: z.number().int() })
  .meta({ id: 'CertificatePage' });
export type CertificatePage = z.infer<typeof CertificatePage>;

const StatusCounts = z.object({
  applied: z.number().int(),
  submitted: z.number().int(),
  approved: z.number().int(),
  rejected: z.number().int(),
  total: z.number().int(),
});
export const CertificateStats = z
  .object({
    period: CoveredPeriod.describe('applications made in the period'),
    granularity: z.enum(['day', 'week', 'month']),
    byStatus: StatusCounts,
    byCompany: z.array(StatusCounts.extend({ companyId: z.number().int(), companyName: z.string().nullable() })),
    byPeriod: z.array(StatusCounts.extend({ periodStart: z.iso.date() })),
  })
  .meta({ id: 'CertificateStats' });
export type CertificateStats = z.infer<typeof CertificateStats>;

export const CertificateStatsQuery = PeriodQuery.extend({
  companyId: ref('company', z.coerce.number().int().positive()).optional(),
  granularity: z.enum(['day', 'week', 'month']).default('week'),
});

export const CertificateVerification = z
  .object({
    number: z.string(),
    status: CertificateStatus,
    valid: z.boolean().describe('approved and not past validUntil'),
    companyName: z.string().nullable(),
    idfNumber: z.string(),
    validUntil: IsoDateTime.nullable(),
    decidedAt: IsoDateTime.nullable(),
  })
  .meta({ id: 'CertificateVerification' });
export type CertificateVerification = z.infer<typeof CertificateVerification>;

const tags = ['single-use-certificates'];
const base = '/single-use-certificates';
export const certificatesEndpoints = [
  defineEndpoint({
    id: 'certificates.list',
    method: 'get',
    path: base,
    service: 'ops-api',
    tags,
    companyScoped: true,
    summary: 'Single-use certificates, newest first, with filters',
    access: 'authenticated',
    request: { query: CertificatesQuery },
    responses: { 200: { description: 'A page of certificates', schema: CertificatePage } },
  }),
  defineEndpoint({
    id: 'certificates.stats',
    method: 'get',
    path: `${base}/stats`,
    service: 'ops-api',
    tags,
    companyScoped: true,
    summary: 'Certificate counts by status, company and period',
    access: 'authenticated',
    request: { query: CertificateStatsQuery },
    responses: { 200: { description: 'Statistics', schema: CertificateStats } },
  }),
  defineEndpoint({
    id: 'certificates.get',
    method: 'get',
    path: `${base}/{id}`,
    service: 'ops-api',
    tags,
    companyScoped: true,
    summary: 'One certificate, read from the database (never cached: the portal re-reads the status here)',
    access: 'authenticated',
    request: { params: idParam('certificate') },
    responses: { 200: { description: 'The certificate', schema: Certificate } },
  }),
  defineEndpoint({
    id: 'certificates.apply',
    method: 'post',
    path: `${base}/apply`,
    service: 'ops-api',
    tags,
    summary: "Apply for a certificate for a validated cargo of the clearing agent's company",
    description:
      "404 when the cargo is not the company's, 422 when it is not validated, 409 when it already has a live (not rejected) certificate.",
    access: ['clearing_agent'],
    request: { body: CertificateApplyInput },
    responses: { 201: { description: 'The application', schema: Certificate } },
  }),
  defineEndpoint({
    id: 'certificates.generate',
    method: 'post',
    path: `${base}/{id}/generate-and-upload`,
    service: 'ops-api',
    tags,
    summary: 'Render the certificate, invoice and receipt (PDF) and store them; the certificate goes to the association',
    access: ['clearing_agent'],
    request: { params: idParam('certificate'), body: CertificateGenerateInput },
    responses: { 200: { description: 'The submitted certificate', schema: Certificate } },
  }),
  defineEndpoint({
    id: 'certificates.viewLinks',
    method: 'get',
    path: `${base}/{id}/view-links`,
    service: 'ops-api',
    tags,
    companyScoped: true,
    summary: 'Expiring download links for the certificate, invoice and receipt, issued to the caller',
    description: '409 while the documents are not generated yet.',
    access: 'authenticated',
    request: {
      params: idParam('certificate'),
      query: z.object({
        ttlSeconds: z.coerce.number().int().min(30).max(14400).default(900).describe('Lifetime of the links (at most 4 hours)'),
      }),
    },
    responses: { 200: { description: 'Links', schema: CertificateViewLinks } },
  }),
  defineEndpoint({
    id: 'certificates.approve',
    method: 'post',
    path: `${base}/{id}/approve`,
    service: 'ops-api',
    tags,
    summary: 'Approve a submitted certificate (audited; the company is notified)',
    access: ['association_officer'],
    request: { params: idParam('certificate'), body: CertificateApproveInput },
    responses: { 200: { description: 'The approved certificate', schema: Certificate } },
  }),
  defineEndpoint({
    id: 'certificates.reject',
    method: 'post',
    path: `${base}/{id}/reject`,
    service: 'ops-api',
    tags,
    summary: 'Reject an application or a submitted certificate with a reason (audited; the company is notified)',
    access: ['association_officer'],
    request: { params: idParam('certificate'), body: CertificateRejectInput },
    responses: { 200: { description: 'The rejected certificate', schema: Certificate } },
  }),
  defineEndpoint({
    id: 'certificates.verify',
    method: 'get',
    path: `${base}/verify/{code}`,
    service: 'ops-api',
    tags,
    summary: 'Check a certificate from its verification code (what the QR code on the PDF opens)',
    access: 'public',
    request: {
      params: z.object({
        code: notRef(
          z.string().regex(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/, 'XXXX-XXXX-XXXX'),
          'the verification code printed on a certificate; public',
        ),
      }),
    },
    responses: { 200: { description: 'The certificate as it stands now', schema: CertificateVerification } },
  }),
] as const;
