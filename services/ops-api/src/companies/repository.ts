import { and, count, eq, ilike, sql, type SQL } from 'drizzle-orm';
import type { CompanyInput, CompanyKind, CountryCode } from '@corridor/contracts';
import type { Orm } from '@corridor/platform';
import { audit } from '../audit/audit';
import { companies, type CompanyRow } from '../db/schema';
import type { Actor } from '../resources/scope';
import { seedCompanies } from './seed';

export interface CompanyFilter {
  id?: number;
  country?: CountryCode;
  kind?: CompanyKind;
  q?: string;
  limit: number;
  offset: number;
}

/** What is stored of an input: an empty registry number or tax PIN is none. */
const stored = (i: CompanyInput) => ({
  name: i.name,
  country: i.country,
  kind: i.kind,
  registrationNumber: i.registrationNumber || null,
  taxPin: i.taxPin || null,
});

export function companiesRepository(db: Orm) {
  const where = (f: Partial<CompanyFilter>): SQL | undefined => {
    const parts: SQL[] = [];
    if (f.id !== undefined) parts.push(eq(companies.id, f.id));
    if (f.country) parts.push(eq(companies.country, f.country));
    if (f.kind) parts.push(eq(companies.kind, f.kind));
    if (f.q) parts.push(ilike(companies.name, `%${f.q.replace(/[%_\\]/g, (c) => '\\' + c)}%`));
    return parts.length ? and(...parts) : undefined;
  };
  return {
    async get(id: number): Promise<CompanyRow | undefined> {
      const [r] = await db.select().from(companies).where(eq(companies.id, id));
      return r;
    },
    async exists(id: number): Promise<boolean> {
      return !!(await this.get(id));
    },
    async list(f: CompanyFilter): Promise<{ rows: CompanyRow[]; total: number }> {
      const w = where(f);
      const rows = await db.select().from(companies).where(w).orderBy(companies.id).limit(f.limit).offset(f.offset);
      const [c] = await db.select({ n: count() }).from(companies).where(w);
      return { rows, total: c?.n ?? 0 };
    },
    /** Registers a company, audited in the same transaction. */
    async create(input: CompanyInput, by: Actor): Promise<CompanyRow> {
      return db.transaction(async (tx) => {
        const [r] = await tx.insert(companies).values(stored(input)).returning();
        await audit.record(tx, by.identity, {
          action: 'company.create',
          entityType: 'company',
          entityId: r!.id,
          companyId: r!.id,
          after: stored(input),
          requestId: by.requestId,
        });
        return r!;
      });
    },
    /** Corrects a company (undefined when there is none by that id), audited with what it was. */
    async update(id: number, input: CompanyInput, by: Actor): Promise<CompanyRow | undefined> {
      return db.transaction(async (tx) => {
        const [before] = await tx.select().from(companies).where(eq(companies.id, id)).for('update');
        if (!before) return undefined;
        const [r] = await tx
          .update(companies)
          .set({ ...stored(input), updatedAt: new Date() })
          .where(eq(companies.id, id))
          .returning();
        const { name, country, kind, registrationNumber, taxPin } = before;
        await audit.record(tx, by.identity, {
          action: 'company.update',
          entityType: 'company',
          entityId: id,
          companyId: id,
          before: { name, country, kind, registrationNumber, taxPin },
          after: stored(input),
          requestId: by.requestId,
        });
        return r;
      });
    },
    /** Inserts the seed companies when the table is empty, then moves the id sequence past them. */
    async seedIfEmpty(): Promise<number> {
      const [c] = await db.select({ n: count() }).from(companies);
      if ((c?.n ?? 0) > 0) return 0;
      const inserted = await db.insert(companies).values(seedCompanies).onConflictDoNothing().returning({ id: companies.id });
      await db.execute(sql`select setval(pg_get_serial_sequence('ops.companies', 'id'), (select max(id) from ops.companies))`);
      return inserted.length;
    },
  };
}
export type CompaniesRepository = ReturnType<typeof companiesRepository>;
