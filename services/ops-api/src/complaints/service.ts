import type { Complaint, ComplaintDetail, ComplaintInput, ComplaintPage, ComplaintStatus, ComplaintStatusInput } from '@corridor/contracts';
import { AppError, notFound, type Clock, type Identity, type Orm } from '@corridor/platform';
import { audit } from '../audit/audit';
import type { ComplaintRow } from '../db/schema';
import type { NotificationsService } from '../notifications/service';
import type { ComplaintFilter, ComplaintsRepository } from './repository';
import { allowedNext, reopenUntil, transitionTo } from './workflow';

export interface ComplaintsDeps {
  db: Orm;
  repo: ComplaintsRepository;
  notifications: NotificationsService;
  companyExists(id: number): Promise<boolean>;
  /** The company of a registered device (a truck given by device id), if any. */
  deviceCompany(deviceId: number): Promise<number | null | undefined>;
  clock: Clock;
  /** How long after a decision a complaint may be reopened. */
  reopenDays: number;
}

const ENTITY = 'complaint';
const field = (path: string, message: string) => new AppError('VALIDATION_FAILED', `${path}: ${message}`, [{ in: 'body', path, message }]);

export function complaintsService(deps: ComplaintsDeps) {
  const { db, repo, notifications, clock, reopenDays } = deps;

  const toComplaint = (r: ComplaintRow): Complaint => ({
    id: r.id,
    subjectType: r.subjectType,
    subjectRef: r.subjectRef,
    companyId: r.companyId,
    category: r.category,
    title: r.title,
    description: r.description,
    journeyId: r.journeyId,
    occurredAt: r.occurredAt?.toISOString() ?? null,
    status: r.status,
    resolution: r.resolution,
    filedBy: { userId: r.filedByUserId, email: r.filedByEmail, companyId: r.filedByCompanyId },
    statusChangedAt: r.statusChangedAt.toISOString(),
    decidedAt: r.decidedAt?.toISOString() ?? null,
    reopenUntil: reopenUntil(r.decidedAt, reopenDays)?.toISOString() ?? null,
    allowedNextStatuses: allowedNext(r, clock.now(), reopenDays),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  });

  async function detail(r: ComplaintRow, tx: Orm = db): Promise<ComplaintDetail> {
    const entries = await audit.forEntity(tx, ENTITY, r.id);
    const history = entries.reverse().map((e) => ({
      at: e.at.toISOString(),
      actorUserId: e.actorUserId,
      actorEmail: e.actorEmail,
      from: (e.before as { status?: ComplaintStatus } | null)?.status ?? null,
      to: (e.after as { status: ComplaintStatus }).status,
      note: e.reason,
    }));
    return { ...toComplaint(r), history };
  }

  async function checkSubject(input: ComplaintInput): Promise<void> {
    if (!(await deps.companyExists(input.companyId))) throw field('companyId', `no company ${input.companyId}`);
    if (input.subjectType === 'company' && input.subjectRef !== String(input.companyId)) {
      throw field('subjectRef', 'for a company complaint, the company id (same as companyId)');
    }
    if (input.subjectType === 'truck' && /^\d+$/.test(input.subjectRef)) {
      const owner = await deps.deviceCompany(Number(input.subjectRef));
      if (owner !== undefined && owner !== input.companyId)
        throw field('subjectRef', `device ${input.subjectRef} is not a truck of company ${input.companyId}`);
    }
  }

  return {
    async file(by: Identity, input: ComplaintInput): Promise<Complaint> {
      await checkSubject(input);
      const now = clock.now();
      const row = await db.transaction(async (tx) => {
        const r = await repo.insert(tx, {
          ...input,
          occurredAt: input.occurredAt ? new Date(input.occurredAt) : null,
          status: 'open',
          filedByUserId: by.userId,
          filedByEmail: by.email,
          filedByCompanyId: by.companyId,
          statusChangedAt: now,
          createdAt: now,
          updatedAt: now,
        });
        await audit.record(tx, by, {
          action: 'complaint.filed',
          entityType: ENTITY,
          entityId: r.id,
          companyId: r.companyId,
          after: { status: r.status },
        });
        await notifications.notify(tx, {
          type: 'complaintFiled',
          to: { role: 'association_officer' },
          companyId: r.companyId,
          entityType: ENTITY,
          entityId: r.id,
          title: `Complaint #${r.id} filed`,
          message: `${r.category.replace(/_/g, ' ')}: ${r.title}`,
          attributes: { subjectType: r.subjectType, subjectRef: r.subjectRef, category: r.category, complaintTitle: r.title },
        });
        return r;
      });
      return toComplaint(row);
    },

    async list(f: ComplaintFilter): Promise<ComplaintPage> {
      if (f.from && f.to && f.from > f.to)
        throw new AppError('VALIDATION_FAILED', 'from must not be after to', [{ in: 'querystring', path: 'from', message: 'after to' }]);
      const { rows, total } = await repo.list(f);
      return { items: rows.map(toComplaint), total, limit: f.limit, offset: f.offset };
    },

    async get(id: number): Promise<ComplaintDetail> {
      const r = await repo.get(id);
      if (!r) throw notFound('Complaint', id);
      return detail(r);
    },

    /** One workflow step, decided on the locked row; the change, its audit entry and the filer's notice commit together. */
    async setStatus(by: Identity, id: number, input: ComplaintStatusInput): Promise<ComplaintDetail> {
      return db.transaction(async (tx) => {
        const current = await repo.lock(tx, id);
        if (!current) throw notFound('Complaint', id);
        const now = clock.now();
        const tr = transitionTo(current, input.status, now, reopenDays);
        if (!tr) {
          const allowed = allowedNext(current, now, reopenDays);
          const until = reopenUntil(current.decidedAt, reopenDays);
          const windowClosed = input.status === 'open' && until !== null && now > until;
          throw new AppError(
            'INVALID_TRANSITION',
            windowClosed
              ? `Complaint ${id} can no longer be reopened: the window closed at ${until.toISOString()}`
              : `Complaint ${id} cannot go from ${current.status} to ${input.status}`,
            { current: current.status, requested: input.status, allowed, ...(until ? { reopenUntil: until.toISOString() } : {}) },
          );
        }
        if (tr.needsNote && !input.note) throw field('note', `required to move a complaint to ${input.status}`);
        const decided = input.status === 'resolved' || input.status === 'dismissed' ? input.status : null;
        const updated = await repo.update(tx, id, {
          status: input.status,
          statusChangedAt: now,
          updatedAt: now,
          ...(decided ? { decidedAt: now, resolution: input.note ?? null, outcome: decided } : {}),
          ...(tr.reopen ? { decidedAt: null, outcome: null } : {}),
        });
        await audit.record(tx, by, {
          action: tr.reopen ? 'complaint.reopened' : 'complaint.status',
          entityType: ENTITY,
          entityId: id,
          companyId: current.companyId,
          before: { status: current.status },
          after: { status: updated.status },
          reason: input.note ?? null,
        });
        await notifications.notify(tx, {
          type: 'complaintStatusChanged',
          to: { userId: current.filedByUserId },
          companyId: current.companyId,
          entityType: ENTITY,
          entityId: id,
          title: `Complaint #${id} is ${updated.status.replace(/_/g, ' ')}`,
          message: input.note ? `${current.title}: ${input.note}` : current.title,
          attributes: { from: current.status, to: updated.status, complaintTitle: current.title, note: input.note ?? null },
        });
        return detail(updated, tx);
      });
    },
  };
}
export type ComplaintsService = ReturnType<typeof complaintsService>;
