import { and, count, desc, eq, gte, ilike, inArray, lte, or, type SQL } from 'drizzle-orm';
import type { ComplaintCategory, ComplaintStatus, ComplaintSubjectType } from '@corridor/contracts';
import type { Orm } from '@corridor/platform';
import { complaints, type ComplaintRow } from '../db/schema';

export interface ComplaintFilter {
  statuses?: ComplaintStatus[];
  subjectType?: ComplaintSubjectType;
  categories?: ComplaintCategory[];
  companyId?: number;
  from?: Date;
  to?: Date;
  keyword?: string;
  limit: number;
  offset: number;
}

export type NewComplaint = Omit<typeof complaints.$inferInsert, 'id'>;

const like = (k: string): string => `%${k.replace(/[%_\\]/g, (c) => '\\' + c)}%`;

export function complaintsRepository(db: Orm) {
  const where = (f: Partial<ComplaintFilter>): SQL | undefined => {
    const parts: (SQL | undefined)[] = [];
    if (f.statuses?.length) parts.push(inArray(complaints.status, f.statuses));
    if (f.subjectType) parts.push(eq(complaints.subjectType, f.subjectType));
    if (f.categories?.length) parts.push(inArray(complaints.category, f.categories));
    if (f.companyId !== undefined) parts.push(eq(complaints.companyId, f.companyId));
    if (f.from) parts.push(gte(complaints.createdAt, f.from));
    if (f.to) parts.push(lte(complaints.createdAt, f.to));
    if (f.keyword) {
      const k = like(f.keyword);
      parts.push(or(ilike(complaints.title, k), ilike(complaints.description, k), ilike(complaints.subjectRef, k)));
    }
    return parts.length ? and(...parts) : undefined;
  };
  return {
    async list(f: ComplaintFilter): Promise<{ rows: ComplaintRow[]; total: number }> {
      const rows = await db
        .select()
        .from(complaints)
        .where(where(f))
        .orderBy(desc(complaints.createdAt), desc(complaints.id))
        .limit(f.limit)
        .offset(f.offset);
      const [c] = await db.select({ n: count() }).from(complaints).where(where(f));
      return { rows, total: c?.n ?? 0 };
    },
    async get(id: number, tx: Orm = db): Promise<ComplaintRow | undefined> {
      const [r] = await tx.select().from(complaints).where(eq(complaints.id, id));
      return r;
    },
    /** The row locked for the rest of the transaction (a status change reads, decides, writes). */
    async lock(tx: Orm, id: number): Promise<ComplaintRow | undefined> {
      const [r] = await tx.select().from(complaints).where(eq(complaints.id, id)).for('update');
      return r;
    },
    async insert(tx: Orm, values: NewComplaint): Promise<ComplaintRow> {
      const [r] = await tx.insert(complaints).values(values).returning();
      return r!;
    },
    async update(tx: Orm, id: number, set: Partial<NewComplaint>): Promise<ComplaintRow> {
      const [r] = await tx.update(complaints).set(set).where(eq(complaints.id, id)).returning();
      return r!;
    },
  };
}
export type ComplaintsRepository = ReturnType<typeof complaintsRepository>;
