import { and, count, desc, eq, gt, gte, inArray, isNull, lte, or, type SQL } from 'drizzle-orm';
import type { DisciplinarySubjectType, SanctionType } from '@corridor/contracts';
import type { Orm } from '@corridor/platform';
import { disciplinaryRecords, type DisciplinaryRow } from '../db/schema';

export interface DisciplinaryFilter {
  companyId?: number;
  subjectType?: DisciplinarySubjectType;
  subjectRef?: string;
  sanctionTypes?: SanctionType[];
  complaintId?: number;
  activeAt?: Date;
  from?: Date;
  to?: Date;
  limit: number;
  offset: number;
}

export type NewDisciplinaryRecord = Omit<typeof disciplinaryRecords.$inferInsert, 'id'>;

export function disciplinaryRepository(db: Orm) {
  const r = disciplinaryRecords;
  const where = (f: Partial<DisciplinaryFilter>): SQL | undefined => {
    const parts: (SQL | undefined)[] = [];
    if (f.companyId !== undefined) parts.push(eq(r.companyId, f.companyId));
    if (f.subjectType) parts.push(eq(r.subjectType, f.subjectType));
    if (f.subjectRef) parts.push(eq(r.subjectRef, f.subjectRef));
    if (f.sanctionTypes?.length) parts.push(inArray(r.sanctionType, f.sanctionTypes));
    if (f.complaintId !== undefined) parts.push(eq(r.complaintId, f.complaintId));
    if (f.activeAt) parts.push(lte(r.startsAt, f.activeAt), or(isNull(r.endsAt), gt(r.endsAt, f.activeAt)));
    if (f.from) parts.push(gte(r.createdAt, f.from));
    if (f.to) parts.push(lte(r.createdAt, f.to));
    return parts.length ? and(...parts) : undefined;
  };
  return {
    async list(f: DisciplinaryFilter): Promise<{ rows: DisciplinaryRow[]; total: number }> {
      const rows = await db.select().from(r).where(where(f)).orderBy(desc(r.createdAt), desc(r.id)).limit(f.limit).offset(f.offset);
      const [c] = await db.select({ n: count() }).from(r).where(where(f));
      return { rows, total: c?.n ?? 0 };
    },
    async insert(tx: Orm, values: NewDisciplinaryRecord): Promise<DisciplinaryRow> {
      const [row] = await tx.insert(r).values(values).returning();
      return row!;
    },
  };
}
export type DisciplinaryRepository = ReturnType<typeof disciplinaryRepository>;
