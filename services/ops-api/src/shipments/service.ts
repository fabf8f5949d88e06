import type {
  DocumentRecord,
  ProgressUpdate,
  ProgressUpdateInput,
  Shipment,
  ShipmentDetail,
  ShipmentInput,
  ShipmentStatus,
} from '@corridor/contracts';
import { AppError, notFound, type Identity, type Logger, type Orm } from '@corridor/platform';
import { audit } from '../audit/audit';
import type { ShipmentRow } from '../db/schema';
import type { DocumentsService } from '../documents/service';
import { shipmentValues, toProgress, toShipment, toStatusChange } from './mapping';
import type { ShipmentFilter, ShipmentsRepository } from './repository';
import { allowedShipmentMoves, terminalShipmentStates } from './transitions';

export interface ShipmentsDeps {
  db: Orm;
  repo: ShipmentsRepository;
  documents: DocumentsService;
  /** Which of these cargo ids belong to the company (shipments carry their own company's cargo only). */
  cargoOf(companyId: number, ids: number[]): Promise<number[]>;
  logger: Logger;
  now?: () => Date;
}

/** States in which a shipment takes progress updates. */
const moving: readonly ShipmentStatus[] = ['booked', 'in_transit', 'at_border', 'cleared', 'on_hold'];
/** Progress may be reported this far ahead of the server clock (device clock skew), no more. */
const FUTURE_SKEW_MS = 5 * 60_000;

const isUniqueViolation = (err: unknown): boolean => {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
};

export function shipmentsService(deps: ShipmentsDeps) {
  const { db, repo, documents } = deps;
  const now = deps.now ?? (() => new Date());

  const visible = (row: ShipmentRow | undefined, scope: number | undefined, id: number): ShipmentRow => {
    if (!row || (scope !== undefined && row.companyId !== scope)) throw notFound('Shipment', id);
    return row;
  };

  const ownCompany = (by: Identity): number => {
    if (by.companyId === null)
      throw new AppError('FORBIDDEN', 'Only users of a company keep shipments here; association staff use /shipments/admin');
    return by.companyId;
  };

  async function checkCargo(companyId: number, ids: number[]): Promise<void> {
    if (!ids.length) return;
    const found = new Set(await deps.cargoOf(companyId, ids));
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length) {
      throw new AppError('VALIDATION_FAILED', `body.cargoIds: no cargo ${missing.join(', ')} in your company`, [
        { in: 'body', path: 'cargoIds', message: `unknown cargo ${missing.join(', ')}` },
      ]);
    }
  }

  const referenceTaken = (reference: string) =>
    new AppError('CONFLICT', `Your company already has a shipment with reference ${reference}`, { field: 'reference' });

  return {
    async list(f: ShipmentFilter): Promise<{ items: Shipment[]; total: number; limit: number; offset: number }> {
      const { rows, total } = await repo.list(f);
      return { items: rows.map(toShipment), total, limit: f.limit, offset: f.offset };
    },

    companyOf: ownCompany,

    async get(id: number, scope: number | undefined): Promise<ShipmentDetail> {
      const row = visible(await repo.get(id), scope, id);
      const [history, progress, docs] = await Promise.all([repo.history(id), repo.progress(id), documents.linkedTo('shipment', id)]);
      return { ...toShipment(row), statusHistory: history.map(toStatusChange), progress: progress.map(toProgress), documents: docs };
    },

    async create(input: ShipmentInput, by: Identity, requestId?: string): Promise<Shipment> {
      const companyId = ownCompany(by);
      await checkCargo(companyId, input.cargoIds);
      try {
        return await db.transaction(async (tx) => {
          const row = await repo.insert(tx, {
            ...shipmentValues(input),
            companyId,
            status: 'draft',
            createdByUserId: by.userId,
            createdByEmail: by.email,
          });
          await repo.addHistory(tx, { shipmentId: row.id, fromStatus: null, toStatus: 'draft', byUserId: by.userId, byEmail: by.email });
          const after = toShipment(row);
          await audit.record(tx, by, { action: 'shipment.create', entityType: 'shipment', entityId: row.id, companyId, after, requestId });
          return after;
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw referenceTaken(input.reference);
        throw err;
      }
    },

    async update(id: number, input: ShipmentInput, by: Identity, scope: number | undefined, requestId?: string): Promise<Shipment> {
      // checks that read other tables run before the transaction (PGlite has one connection)
      await checkCargo(visible(await repo.get(id), scope, id).companyId, input.cargoIds);
      try {
        return await db.transaction(async (tx) => {
          const before = visible(await repo.lock(tx, id), scope, id);
          if (terminalShipmentStates.includes(before.status)) {
            throw new AppError('CONFLICT', `A ${before.status} shipment cannot be changed`, { current: before.status });
          }
          const row = await repo.update(tx, id, shipmentValues(input));
          const after = toShipment(row);
          await audit.record(tx, by, {
            action: 'shipment.update',
            entityType: 'shipment',
            entityId: id,
            companyId: row.companyId,
            before: toShipment(before),
            after,
            requestId,
          });
          return after;
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw referenceTaken(input.reference);
        throw err;
      }
    },

    async allowedTransitions(id: number, by: Identity, scope: number | undefined) {
      const row = visible(await repo.get(id), scope, id);
      return {
        current: row.status,
        statusBeforeHold: row.statusBeforeHold,
        allowed: allowedShipmentMoves(row.status, by.roles, row.statusBeforeHold),
      };
    },

    /** Moves a shipment along the transitions table; 409 INVALID_TRANSITION { current, allowed } otherwise. */
    async changeStatus(
      id: number,
      change: { status: ShipmentStatus; reason: string | null },
      by: Identity,
      scope: number | undefined,
      requestId?: string,
    ): Promise<Shipment> {
      return db.transaction(async (tx) => {
        const before = visible(await repo.lock(tx, id), scope, id);
        const allowed = allowedShipmentMoves(before.status, by.roles, before.statusBeforeHold);
        if (!allowed.includes(change.status)) {
          throw new AppError(
            'INVALID_TRANSITION',
            `A shipment cannot move from ${before.status} to ${change.status}${allowed.length ? '' : ' (no move is open to you)'}`,
            { current: before.status, allowed },
          );
        }
        const at = now();
        const row = await repo.update(tx, id, {
          status: change.status,
          statusBeforeHold: change.status === 'on_hold' ? before.status : null,
          ...(change.status === 'in_transit' && !before.actualDeparture ? { actualDeparture: at } : {}),
          ...(change.status === 'delivered' ? { actualArrival: at } : {}),
        });
        await repo.addHistory(tx, {
          shipmentId: id,
          fromStatus: before.status,
          toStatus: change.status,
          at,
          byUserId: by.userId,
          byEmail: by.email,
          reason: change.reason,
        });
        await audit.record(tx, by, {
          action: 'shipment.status',
          entityType: 'shipment',
          entityId: id,
          companyId: row.companyId,
          before: { status: before.status, statusBeforeHold: before.statusBeforeHold },
          after: { status: row.status, statusBeforeHold: row.statusBeforeHold },
          reason: change.reason,
          requestId,
        });
        return toShipment(row);
      });
    },

    async addProgress(id: number, input: ProgressUpdateInput, by: Identity, scope: number | undefined): Promise<ProgressUpdate> {
      const row = visible(await repo.get(id), scope, id);
      if (!moving.includes(row.status)) {
        throw new AppError('CONFLICT', `A ${row.status} shipment takes no progress updates`, { current: row.status, acceptedIn: moving });
      }
      const at = new Date(input.at);
      if (at.getTime() > now().getTime() + FUTURE_SKEW_MS) {
        throw new AppError('VALIDATION_FAILED', 'body.at: is in the future', [{ in: 'body', path: 'at', message: 'in the future' }]);
      }
      const p = await repo.addProgress({
        shipmentId: id,
        at,
        kind: input.kind,
        locationName: input.location.name,
        latitude: input.location.latitude,
        longitude: input.location.longitude,
        note: input.note,
        recordedByUserId: by.userId,
        recordedByEmail: by.email,
      });
      return toProgress(p);
    },

    /** Links a document of the shipment's company to it (idempotent), audited. */
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
        const added = await documents.attach(tx, doc.id, 'shipment', id, by);
        if (added) {
          await audit.record(tx, by, {
            action: 'shipment.document_attached',
            entityType: 'shipment',
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
export type ShipmentsService = ReturnType<typeof shipmentsService>;
