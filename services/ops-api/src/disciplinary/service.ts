import type { DisciplinaryInput, DisciplinaryPage, DisciplinaryRecord } from '@corridor/contracts';
import { AppError, type Clock, type Identity, type Orm } from '@corridor/platform';
import { audit } from '../audit/audit';
import type { DisciplinaryRow } from '../db/schema';
import type { ComplaintsRepository } from '../complaints/repository';
import type { NotificationsService } from '../notifications/service';
import type { DisciplinaryFilter, DisciplinaryRepository } from './repository';

export interface DisciplinaryDeps {
  db: Orm;
  repo: DisciplinaryRepository;
  complaints: ComplaintsRepository;
  notifications: NotificationsService;
  companyExists(id: number): Promise<boolean>;
  /** A company's name, for the notice's parameters (a reader sees names, not ids). */
  companyName?(id: number): Promise<string | undefined>;
  clock: Clock;
}

const field = (path: string, message: string) => new AppError('VALIDATION_FAILED', `${path}: ${message}`, [{ in: 'body', path, message }]);

export function disciplinaryService(deps: DisciplinaryDeps) {
  const { db, repo, clock } = deps;

  const toRecord = (r: DisciplinaryRow, now: Date): DisciplinaryRecord => ({
    id: r.id,
    subjectType: r.subjectType,
    subjectRef: r.subjectRef,
    companyId: r.companyId,
    sanctionType: r.sanctionType,
    reason: r.reason,
    startsAt: r.startsAt.toISOString(),
    endsAt: r.endsAt?.toISOString() ?? null,
    fineAmount: r.fineAmount,
    fineCurrency: r.fineCurrency,
    complaintId: r.complaintId,
    journeyFlagId: r.journeyFlagId,
    active: r.startsAt <= now && (r.endsAt === null || r.endsAt > now),
    recordedBy: { userId: r.recordedByUserId, email: r.recordedByEmail },
    createdAt: r.createdAt.toISOString(),
  });

  async function check(input: DisciplinaryInput): Promise<void> {
    if (input.endsAt && new Date(input.endsAt) <= new Date(input.startsAt)) throw field('endsAt', 'must be after startsAt');
    if (input.sanctionType === 'fine' && input.fineAmount === null) throw field('fineAmount', 'required for a fine');
    if (input.sanctionType !== 'fine' && input.fineAmount !== null) throw field('fineAmount', 'only a fine has an amount');
    if ((input.fineAmount === null) !== (input.fineCurrency === null))
      throw field('fineCurrency', 'give fineAmount and fineCurrency together');
    if (!(await deps.companyExists(input.companyId))) throw field('companyId', `no company ${input.companyId}`);
    if (input.subjectType === 'company' && input.subjectRef !== String(input.companyId)) {
      throw field('subjectRef', 'for a sanction against a company, the company id (same as companyId)');
    }
    if (input.complaintId !== null) {
      const complaint = await deps.complaints.get(input.complaintId);
      if (!complaint) throw field('complaintId', `no complaint ${input.complaintId}`);
      if (complaint.companyId !== input.companyId)
        throw field('complaintId', `complaint ${input.complaintId} concerns company ${complaint.companyId}, not ${input.companyId}`);
    }
  }

  return {
    async list(f: DisciplinaryFilter): Promise<DisciplinaryPage> {
      if (f.from && f.to && f.from > f.to)
        throw new AppError('VALIDATION_FAILED', 'from must not be after to', [{ in: 'querystring', path: 'from', message: 'after to' }]);
      const { rows, total } = await repo.list(f);
      const now = clock.now();
      return { items: rows.map((r) => toRecord(r, now)), total, limit: f.limit, offset: f.offset };
    },

    /** Records a sanction; the record, its audit entry and the company's notice commit together. */
    async record(by: Identity, input: DisciplinaryInput): Promise<DisciplinaryRecord> {
      await check(input);
      const now = clock.now();
      // names for the notice's parameters, read before the transaction (PGlite has one connection)
      const companyName = (await deps.companyName?.(input.companyId)) ?? null;
      const subjectCompany = input.subjectType === 'company' && /^\d+$/.test(input.subjectRef) ? Number(input.subjectRef) : undefined;
      const subjectName =
        subjectCompany === undefined
          ? input.subjectRef
          : subjectCompany === input.companyId
            ? companyName
            : ((await deps.companyName?.(subjectCompany)) ?? input.subjectRef);
      const row = await db.transaction(async (tx) => {
        const r = await repo.insert(tx, {
          ...input,
          startsAt: new Date(input.startsAt),
          endsAt: input.endsAt ? new Date(input.endsAt) : null,
          recordedByUserId: by.userId,
          recordedByEmail: by.email,
          createdAt: now,
        });
        const after = toRecord(r, now);
        await audit.record(tx, by, {
          action: 'sanction.recorded',
          entityType: 'disciplinary_record',
          entityId: r.id,
          companyId: r.companyId,
          before: null,
          after,
          reason: r.reason,
        });
        await deps.notifications.notify(tx, {
          type: 'sanctionRecorded',
          to: { companyId: r.companyId },
          entityType: 'disciplinary_record',
          entityId: r.id,
          title: `Sanction recorded: ${r.sanctionType}`,
          message: `${r.subjectType} ${r.subjectRef}: ${r.reason}`,
          // the notice's parameters: a reader's console words it in their language, with names (not ids)
          attributes: {
            sanctionType: r.sanctionType,
            startsAt: after.startsAt,
            endsAt: after.endsAt,
            complaintId: r.complaintId,
            subjectType: r.subjectType,
            subjectRef: r.subjectRef,
            subjectName,
            companyName,
            reason: r.reason,
          },
        });
        return r;
      });
      return toRecord(row, now);
    },
  };
}
export type DisciplinaryService = ReturnType<typeof disciplinaryService>;
