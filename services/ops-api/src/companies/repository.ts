import { and, count, eq, ilike, sql, type SQL } from 'drizzle-orm';
import type { CompanyKind, CountryCode } from '@corridor/contracts';
import type { Orm } from '@corridor/platform';
import { companies, type CompanyRow } from '../db/schema';
import { seedCompanies } from './seed';

export interface CompanyFilter {
  id?: number;
  country?: CountryCode;
  kind?: CompanyKind;
  q?: string;
  limit: number;
  offset: number;
}

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
