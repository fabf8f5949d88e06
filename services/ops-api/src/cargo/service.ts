import {
  allowedCargoMoves,
  type Cargo,
  type CargoCorrection,
  type CargoDetail,
  type CargoStatus,
  type DocumentRecord,
  type IdfExtraction,
} from '@corridor/contracts';
import { AppError, notFound, type Identity, type Logger, type Orm } from '@corridor/platform';
import { audit } from '../audit/audit';
import type { CargoRow, CargoStatusHistoryRow } from '../db/schema';
import type { IdfReaders } from './idf-reader';
import type { DocumentsService } from '../documents/service';
import { correctExtraction } from './idf-correction';
import { readIdf } from './idf-reader';
import type { CargoFilter, CargoRepository } from './repository';

export interface CargoDeps {
  db: Orm;
  repo: CargoRepository;
  documents: DocumentsService;
  /** Reads uploaded IDFs (PDF text, JSON/CSV exports): the parser processes in the service. */
  readers: IdfReaders;
  logger: Logger;
}

const toCargo = (r: CargoRow): Cargo => ({
  id: r.id,
  companyId: r.companyId,
  idfNumber: r.idfNumber,
  importer: { name: r.importerName, pin: r.importerPin },
  consignor: r.consignor,
  countryOfOrigin: r.countryOfOrigin,
  portOfDischarge: r.portOfDischarge,
  invoice: { value: r.invoiceValue, currency: r.currency },
  lineItems: r.lineItems,
  status: r.status,
  sourceDocumentId: r.sourceDocumentId,
  extraction: r.extraction,
  createdBy: { userId: r.createdByUserId, email: r.createdByEmail },
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

const toChange = (h: CargoStatusHistoryRow) => ({
  from: h.fromStatus as CargoStatus | null,
  to: h.toStatus as CargoStatus,
  at: h.at.toISOString(),
  by: { userId: h.byUserId, email: h.byEmail },
  reason: h.reason,
});

const isUniqueViolation = (err: unknown): boolean => {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
};

/** The checks an extraction failed, by field (a cargo with any cannot be validated). */
const failedChecks = (x: IdfExtraction): Record<string, string[]> =>
  Object.fromEntries(
    Object.entries(x.fields)
      .filter(([, f]) => f.value === null || f.valid === false)
      .map(([k, f]) => [k, f.issues]),
  );

export function cargoService(deps: CargoDeps) {
  const { db, repo, documents } = deps;

  const visible = (row: CargoRow | undefined, scope: number | undefined, id: number): CargoRow => {
    if (!row || (scope !== undefined && row.companyId !== scope)) throw notFound('Cargo', id);
    return row;
  };

  return {
    async list(f: CargoFilter): Promise<{ items: Cargo[]; total: number; limit: number; offset: number }> {
      const { rows, total } = await repo.list(f);
      return { items: rows.map(toCargo), total, limit: f.limit, offset: f.offset };
    },

    idsOf: (companyId: number, ids: number[]) => repo.idsOf(companyId, ids),

    async get(id: number, scope: number | undefined): Promise<CargoDetail> {
      const row = visible(await repo.get(id), scope, id);
      const [history, docs] = await Promise.all([repo.history(id), documents.linkedTo('cargo', id)]);
      return { ...toCargo(row), statusHistory: history.map(toChange), documents: docs };
    },

    /** Reads an uploaded IDF (PDF, JSON or CSV) and creates the cargo with its extraction report. */
    async processIdf(documentId: string, by: Identity, requestId?: string): Promise<Cargo> {
      if (by.companyId === null) throw new AppError('FORBIDDEN', 'Only users of a company create cargo from an IDF');
      const { record, bytes } = await documents.read(documentId, by.companyId);
      const x = await readIdf(record, bytes, deps.readers);
      const idfNumber = x.fields.idfNumber.value!;
      try {
        return await db.transaction(async (tx) => {
          const row = await repo.insert(tx, {
            companyId: record.companyId,
            idfNumber,
            importerName: x.fields.importerName.value!,
            importerPin: x.fields.importerPin.value,
            consignor: x.fields.consignor.value,
            countryOfOrigin: x.fields.countryOfOrigin.value,
            portOfDischarge: x.fields.portOfDischarge.value,
            invoiceValue: x.fields.invoiceValue.value,
            currency: x.fields.currency.value,
            lineItems: x.fields.lineItems.value ?? [],
            extraction: x,
            sourceDocumentId: record.id,
            status: 'submitted',
            createdByUserId: by.userId,
            createdByEmail: by.email,
          });
          await repo.addHistory(tx, { cargoId: row.id, fromStatus: null, toStatus: 'submitted', byUserId: by.userId, byEmail: by.email });
          await documents.attach(tx, record.id, 'cargo', row.id, by);
          const after = toCargo(row);
          await audit.record(tx, by, {
            action: 'cargo.create_from_idf',
            entityType: 'cargo',
            entityId: row.id,
            companyId: row.companyId,
            after: { idfNumber, valid: x.valid, documentId: record.id },
            requestId,
          });
          return after;
        });
      } catch (err) {
        if (isUniqueViolation(err))
          throw new AppError('CONFLICT', `Your company already has a cargo for IDF ${idfNumber}`, { field: 'idfNumber', idfNumber });
        throw err;
      }
    },

    /** Moves a cargo along its transitions table; 409 INVALID_TRANSITION { current, allowed } otherwise. */
    async changeStatus(
      id: number,
      change: { status: CargoStatus; reason: string | null },
      by: Identity,
      scope: number | undefined,
      requestId?: string,
    ): Promise<Cargo> {
      return db.transaction(async (tx) => {
        const before = visible(await repo.lock(tx, id), scope, id);
        const allowed = allowedCargoMoves(before.status, by.roles);
        if (!allowed.includes(change.status)) {
          throw new AppError('INVALID_TRANSITION', `A cargo cannot move from ${before.status} to ${change.status}`, {
            current: before.status,
            allowed,
          });
        }
        if (change.status === 'validated') {
          const failed = failedChecks(before.extraction);
          if (Object.keys(failed).length) {
            throw new AppError('CONFLICT', 'The IDF failed checks; correct and resubmit it before validating', {
              current: before.status,
              failedChecks: failed,
            });
          }
        }
        const row = await repo.setStatus(tx, id, change.status);
        await repo.addHistory(tx, {
          cargoId: id,
          fromStatus: before.status,
          toStatus: change.status,
          byUserId: by.userId,
          byEmail: by.email,
          reason: change.reason,
        });
        await audit.record(tx, by, {
          action: 'cargo.status',
          entityType: 'cargo',
          entityId: id,
          companyId: row.companyId,
          before: { status: before.status },
          after: { status: row.status },
          reason: change.reason,
          requestId,
        });
        return toCargo(row);
      });
    },

    /** A person's corrections of the fields read from the IDF, while the cargo is submitted; the checks run again. */
    async correct(id: number, input: CargoCorrection, by: Identity, scope: number | undefined, requestId?: string): Promise<Cargo> {
      try {
        return await db.transaction(async (tx) => {
          const before = visible(await repo.lock(tx, id), scope, id);
          if (before.status !== 'submitted') {
            throw new AppError('CONFLICT', `Only a submitted cargo can be corrected; this one is ${before.status}`, {
              current: before.status,
            });
          }
          const x = correctExtraction(before.extraction, input);
          const v = x.fields;
          const row = await repo.correct(tx, id, {
            idfNumber: v.idfNumber.value ?? before.idfNumber,
            importerName: v.importerName.value ?? before.importerName,
            importerPin: v.importerPin.value,
            consignor: v.consignor.value,
            countryOfOrigin: v.countryOfOrigin.value,
            portOfDischarge: v.portOfDischarge.value,
            invoiceValue: v.invoiceValue.value,
            currency: v.currency.value,
            lineItems: v.lineItems.value ?? [],
            extraction: x,
          });
          const changed = Object.keys(input) as (keyof CargoCorrection)[];
          await audit.record(tx, by, {
            action: 'cargo.correct',
            entityType: 'cargo',
            entityId: id,
            companyId: row.companyId,
            requestId,
            before: { ...Object.fromEntries(changed.map((k) => [k, before.extraction.fields[k].value])), valid: before.extraction.valid },
            after: { ...Object.fromEntries(changed.map((k) => [k, x.fields[k].value])), valid: x.valid },
          });
          return toCargo(row);
        });
      } catch (err) {
        if (isUniqueViolation(err))
          throw new AppError('CONFLICT', `Your company already has a cargo for IDF ${input.idfNumber}`, {
            field: 'idfNumber',
            idfNumber: input.idfNumber,
          });
        throw err;
      }
    },

    async attachDocument(
      id: number,
      documentId: string,
      by: Identity,
      scope: number | undefined,
      requestId?: string,
    ): Promise<DocumentRecord> {
      const row = visible(await repo.get(id), scope, id);
      const doc = await documents.get(documentId, row.companyId);
      return db.transaction(async (tx) => {
        if (await documents.attach(tx, doc.id, 'cargo', id, by)) {
          await audit.record(tx, by, {
            action: 'cargo.document_attached',
            entityType: 'cargo',
            entityId: id,
            companyId: row.companyId,
            after: { documentId: doc.id, kind: doc.kind },
            requestId,
          });
        }
        return doc;
      });
    },
  };
}
export type CargoService = ReturnType<typeof cargoService>;
