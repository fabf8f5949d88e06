import { randomInt } from 'node:crypto';
import type {
  Certificate,
  CertificateAction,
  CertificateGenerateInput,
  CertificatePage,
  CertificateStats,
  CertificateStatus,
  CertificateVerification,
  CertificateViewLinks,
} from '@corridor/contracts';
import { AppError, companyScope, notFound, type Clock, type Identity, type Logger, type Orm } from '@corridor/platform';
import { audit } from '../audit/audit';
import type { CompaniesRepository } from '../companies/repository';
import { periodJson, resolvePeriod } from '../dashboards/period';
import type { DocumentsService } from '../documents/service';
import type { NotificationsService } from '../notifications/service';
import { renderCertificate, renderInvoice, renderReceipt, type CertificatePdfData } from './pdf-documents';
import type { CertificateFilter, CertificatesRepository, CertificateView } from './repository';
import { feeFor, type CertificateSettings } from './settings';
import { actionDone, allowedActions, transitionFor } from './workflow';

export interface CertificatesDeps {
  db: Orm;
  repo: CertificatesRepository;
  companies: CompaniesRepository;
  documents: DocumentsService;
  notifications: NotificationsService;
  settings: CertificateSettings;
  clock: Clock;
  logger: Logger;
}

const ENTITY = 'single_use_certificate';
const DAY_MS = 86_400_000;
/** Crockford base32 without I, L, O, U: no look-alikes on paper. */
const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const newVerificationCode = (): string =>
  [0, 1, 2].map(() => Array.from({ length: 4 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('')).join('-');

const isUniqueViolation = (err: unknown): boolean => {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
};

type StatusCounts = Record<CertificateStatus, number> & { total: number };
const zero = (): StatusCounts => ({ applied: 0, submitted: 0, approved: 0, rejected: 0, total: 0 });

function toCertificate(r: CertificateView): Certificate {
  return {
    id: r.id,
    number: r.number ?? `SUC-${String(r.id).padStart(6, '0')}`,
    cargoId: r.cargoId,
    companyId: r.companyId,
    status: r.status,
    verificationCode: r.verificationCode,
    cargo: r.cargo,
    applicant: { userId: r.applicantUserId, email: r.applicantEmail },
    fee: { amount: r.feeAmount, currency: r.feeCurrency },
    invoiceNumber: r.invoiceNumber,
    receiptNumber: r.receiptNumber,
    payment:
      r.paymentReference && r.paidAt
        ? { reference: r.paymentReference, method: r.paymentMethod ?? 'cash', paidAt: r.paidAt.toISOString() }
        : null,
    documents: { certificate: r.certificateDocumentId, invoice: r.invoiceDocumentId, receipt: r.receiptDocumentId },
    generatedAt: r.generatedAt?.toISOString() ?? null,
    validUntil: r.validUntil?.toISOString() ?? null,
    decision: r.decidedAt
      ? { at: r.decidedAt.toISOString(), by: { userId: r.decidedByUserId ?? 0, email: r.decidedByEmail ?? '' }, reason: r.decisionReason }
      : null,
    allowedActions: allowedActions(r.status),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/**
 * Single-use certificates: apply (clearing agent) → generate-and-upload (PDFs into the document
 * store) → approve or reject (association officer). Every change is decided on the locked row and
 * commits with its audit entry and notification; reads always come from PostgreSQL.
 */
export function certificatesService(deps: CertificatesDeps) {
  const { db, repo, clock, settings } = deps;

  /** The certificate if the scope (a company, or undefined for staff) may see it; 404 otherwise. */
  async function visible(id: number, scope: number | undefined): Promise<CertificateView> {
    const c = await repo.get(id);
    if (!c || (scope !== undefined && c.companyId !== scope)) throw notFound('Certificate', id);
    return c;
  }

  const denied = (id: number, status: CertificateStatus, action: CertificateAction) =>
    new AppError('INVALID_TRANSITION', `Certificate ${id} is ${status}: it cannot be ${actionDone[action]}`, {
      current: status,
      action,
      allowed: allowedActions(status),
    });

  async function pdfData(c: CertificateView, input: CertificateGenerateInput, now: Date): Promise<CertificatePdfData> {
    const cargo = await repo.cargo(c.cargoId);
    const company = await deps.companies.get(c.companyId);
    if (!cargo || !company) throw new AppError('INTERNAL', `Certificate ${c.id}: its cargo or company is missing`);
    const number = toCertificate(c).number;
    return {
      number,
      verificationCode: c.verificationCode,
      verifyUrl: `${settings.verifyUrl.replace(/\/+$/, '')}/${c.verificationCode}`,
      issuedAt: now,
      validUntil: new Date(now.getTime() + settings.validityDays * DAY_MS),
      company: { id: company.id, name: company.name, country: company.country, taxPin: company.taxPin },
      applicantEmail: c.applicantEmail,
      cargo: {
        id: cargo.id,
        idfNumber: cargo.idfNumber,
        importerName: cargo.importerName,
        importerPin: cargo.importerPin,
        consignor: cargo.consignor,
        countryOfOrigin: cargo.countryOfOrigin,
        portOfDischarge: cargo.portOfDischarge,
        invoiceValue: cargo.invoiceValue,
        currency: cargo.currency,
        lineItems: cargo.lineItems,
      },
      fee: { amount: c.feeAmount, currency: c.feeCurrency },
      invoiceNumber: `INV-${number}`,
      receiptNumber: `RCT-${number}`,
      payment: { reference: input.paymentReference.toUpperCase(), method: input.paymentMethod, paidAt: now },
    };
  }

  return {
    async apply(by: Identity, scope: number | undefined, cargoId: number): Promise<Certificate> {
      const cargo = await repo.cargo(cargoId);
      if (!cargo || (scope !== undefined && cargo.companyId !== scope)) throw notFound('Cargo', cargoId);
      if (cargo.status !== 'validated') {
        throw new AppError('UNPROCESSABLE', `Cargo ${cargoId} is ${cargo.status}: only a validated cargo can be certified`, {
          cargoStatus: cargo.status,
          required: 'validated',
        });
      }
      const conflict = (c: { id: number; status: string }) =>
        new AppError('CONFLICT', `Cargo ${cargoId} already has certificate ${c.id} (${c.status})`, {
          certificateId: c.id,
          status: c.status,
        });
      const existing = await repo.liveForCargo(cargoId);
      if (existing) throw conflict(existing);
      const company = await deps.companies.get(cargo.companyId);
      const fee = feeFor(settings, company?.country);
      const now = clock.now();
      let id: number;
      try {
        id = await db.transaction(async (tx) => {
          const row = await repo.insert(tx, {
            cargoId,
            companyId: cargo.companyId,
            status: 'applied',
            verificationCode: newVerificationCode(),
            applicantUserId: by.userId,
            applicantEmail: by.email,
            feeAmount: fee.amount,
            feeCurrency: fee.currency,
            createdAt: now,
            updatedAt: now,
          });
          await audit.record(tx, by, {
            action: 'certificate.applied',
            entityType: ENTITY,
            entityId: row.id,
            companyId: row.companyId,
            after: { status: row.status, cargoId },
          });
          await deps.notifications.notify(tx, {
            type: 'certificateApplied',
            to: { role: 'association_officer' },
            companyId: row.companyId,
            entityType: ENTITY,
            entityId: row.id,
            title: `Certificate ${row.number} applied for`,
            message: `${company?.name ?? `Company ${row.companyId}`}: IDF ${cargo.idfNumber}`,
            attributes: { cargoId, number: row.number, companyName: company?.name ?? null, idfNumber: cargo.idfNumber },
          });
          return row.id;
        });
      } catch (err) {
        if (isUniqueViolation(err)) {
          const live = await repo.liveForCargo(cargoId);
          if (live) throw conflict(live);
        }
        throw err;
      }
      return toCertificate((await repo.get(id))!);
    },

    /** Renders and stores the three PDFs, then moves the certificate to submitted (if it is still applied). */
    async generate(by: Identity, scope: number | undefined, id: number, input: CertificateGenerateInput): Promise<Certificate> {
      const c = await visible(id, scope);
      if (!transitionFor(c.status, 'generate')) throw denied(id, c.status, 'generate');
      const now = clock.now();
      const data = await pdfData(c, input, now);
      const [certificate, invoice, receipt] = await Promise.all([renderCertificate(data), renderInvoice(data), renderReceipt(data)]);
      const store = (kind: 'certificate' | 'invoice' | 'receipt', bytes: Buffer) =>
        deps.documents.store({
          companyId: c.companyId,
          kind,
          filename: `${data.number}-${kind}.pdf`,
          contentType: 'application/pdf',
          bytes,
          ownerType: 'certificate',
          ownerId: id,
          uploadedBy: by,
        });
      const [certDoc, invoiceDoc, receiptDoc] = await Promise.all([
        store('certificate', certificate),
        store('invoice', invoice),
        store('receipt', receipt),
      ]);
      const stored = [certDoc.id, invoiceDoc.id, receiptDoc.id];
      await db
        .transaction(async (tx) => {
          const row = await repo.lock(tx, id);
          if (!row) throw notFound('Certificate', id);
          const tr = transitionFor(row.status, 'generate');
          if (!tr) throw denied(id, row.status, 'generate');
          const documents = { certificate: certDoc.id, invoice: invoiceDoc.id, receipt: receiptDoc.id };
          await repo.update(tx, id, {
            status: tr.to,
            certificateDocumentId: certDoc.id,
            invoiceDocumentId: invoiceDoc.id,
            receiptDocumentId: receiptDoc.id,
            invoiceNumber: data.invoiceNumber,
            receiptNumber: data.receiptNumber,
            paymentReference: data.payment.reference,
            paymentMethod: input.paymentMethod,
            paidAt: now,
            generatedAt: now,
            validUntil: data.validUntil,
            updatedAt: now,
          });
          await audit.record(tx, by, {
            action: 'certificate.generated',
            entityType: ENTITY,
            entityId: id,
            companyId: row.companyId,
            before: { status: row.status },
            after: { status: tr.to, documents, paymentReference: data.payment.reference },
          });
          await deps.notifications.notify(tx, {
            type: 'certificateSubmitted',
            to: { role: 'association_officer' },
            companyId: row.companyId,
            entityType: ENTITY,
            entityId: id,
            title: `Certificate ${data.number} awaits approval`,
            message: `${data.company.name}: IDF ${data.cargo.idfNumber}`,
            attributes: { number: data.number, companyName: data.company.name, idfNumber: data.cargo.idfNumber },
          });
        })
        .catch((err: unknown) => {
          // a concurrent decision won: the stored PDFs stay (owner: this certificate) but are not its documents
          deps.logger.warn({ certificateId: id, documents: stored, err }, 'certificate documents stored but not attached');
          throw err;
        });
      return toCertificate((await repo.get(id))!);
    },

    async decide(by: Identity, id: number, action: 'approve' | 'reject', reason: string | null): Promise<Certificate> {
      return db.transaction(async (tx) => {
        const row = await repo.lock(tx, id);
        if (!row) throw notFound('Certificate', id);
        const tr = transitionFor(row.status, action);
        if (!tr) throw denied(id, row.status, action);
        const now = clock.now();
        await repo.update(tx, id, {
          status: tr.to,
          decidedAt: now,
          decidedByUserId: by.userId,
          decidedByEmail: by.email,
          decisionReason: reason,
          updatedAt: now,
        });
        await audit.record(tx, by, {
          action: `certificate.${tr.to}`,
          entityType: ENTITY,
          entityId: id,
          companyId: row.companyId,
          before: { status: row.status },
          after: { status: tr.to },
          reason,
        });
        await deps.notifications.notify(tx, {
          type: tr.to === 'approved' ? 'certificateApproved' : 'certificateRejected',
          to: { companyId: row.companyId },
          entityType: ENTITY,
          entityId: id,
          title: `Certificate ${row.number} ${tr.to}`,
          message: reason
            ? `${tr.to === 'approved' ? 'Note' : 'Reason'}: ${reason}`
            : `Certificate ${row.number} was ${tr.to} by the association.`,
          attributes: { number: row.number, status: tr.to, cargoId: row.cargoId, reason },
        });
        return toCertificate((await repo.get(id, tx))!);
      });
    },

    async get(id: number, scope: number | undefined): Promise<Certificate> {
      return toCertificate(await visible(id, scope));
    },

    async list(f: CertificateFilter, scope: number | undefined): Promise<CertificatePage> {
      if (f.from && f.to && f.from > f.to)
        throw new AppError('VALIDATION_FAILED', 'from must not be after to', [{ in: 'querystring', path: 'from', message: 'after to' }]);
      if (scope !== undefined && f.companyId !== undefined && f.companyId !== scope)
        return { items: [], total: 0, limit: f.limit, offset: f.offset };
      const { rows, total } = await repo.list({ ...f, companyId: scope ?? f.companyId });
      return { items: rows.map(toCertificate), total, limit: f.limit, offset: f.offset };
    },

    /** Links issued to the caller (a link is refused to anyone else). */
    async viewLinks(id: number, caller: Identity, ttlSeconds: number): Promise<CertificateViewLinks> {
      const scope = companyScope(caller);
      const c = await visible(id, scope);
      const ids = { certificate: c.certificateDocumentId, invoice: c.invoiceDocumentId, receipt: c.receiptDocumentId };
      if (!ids.certificate || !ids.invoice || !ids.receipt) {
        throw new AppError('CONFLICT', `Certificate ${id} has no documents yet: generate them first`, {
          current: c.status,
          allowed: allowedActions(c.status),
        });
      }
      const link = async (documentId: string) => {
        const doc = await deps.documents.get(documentId, scope);
        const signed = deps.documents.signedLink(documentId, caller.userId, ttlSeconds);
        return { documentId, filename: doc.filename, url: signed.url, expiresAt: signed.expiresAt };
      };
      return {
        certificateId: id,
        certificate: await link(ids.certificate),
        invoice: await link(ids.invoice),
        receipt: await link(ids.receipt),
      };
    },

    async stats(
      q: { from?: string; to?: string; companyId?: number; granularity: 'day' | 'week' | 'month' },
      scope: number | undefined,
    ): Promise<CertificateStats> {
      const period = resolvePeriod(q, clock.now());
      const empty: CertificateStats = {
        period: periodJson(period),
        granularity: q.granularity,
        byStatus: zero(),
        byCompany: [],
        byPeriod: [],
      };
      if (scope !== undefined && q.companyId !== undefined && q.companyId !== scope) return empty;
      const { byCompany, byPeriod } = await repo.stats({ ...period, companyId: scope ?? q.companyId, granularity: q.granularity });
      const companies = new Map<number, StatusCounts & { companyId: number; companyName: string | null }>();
      const periods = new Map<string, StatusCounts & { periodStart: string }>();
      for (const r of byCompany) {
        const entry = companies.get(r.companyId) ?? { ...zero(), companyId: r.companyId, companyName: r.companyName };
        entry[r.status] += r.n;
        entry.total += r.n;
        empty.byStatus[r.status] += r.n;
        empty.byStatus.total += r.n;
        companies.set(r.companyId, entry);
      }
      for (const r of byPeriod) {
        const entry = periods.get(r.periodStart) ?? { ...zero(), periodStart: r.periodStart };
        entry[r.status] += r.n;
        entry.total += r.n;
        periods.set(r.periodStart, entry);
      }
      return { ...empty, byCompany: [...companies.values()], byPeriod: [...periods.values()] };
    },

    async verify(code: string): Promise<CertificateVerification> {
      const c = await repo.byCode(code);
      if (!c) throw notFound('Certificate with verification code', code);
      return {
        number: toCertificate(c).number,
        status: c.status,
        valid: c.status === 'approved' && !!c.validUntil && c.validUntil > clock.now(),
        companyName: c.companyName,
        idfNumber: c.cargo.idfNumber,
        validUntil: c.validUntil?.toISOString() ?? null,
        decidedAt: c.decidedAt?.toISOString() ?? null,
      };
    },
  };
}
export type CertificatesService = ReturnType<typeof certificatesService>;
