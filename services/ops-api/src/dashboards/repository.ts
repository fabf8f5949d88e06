import { and, count, eq, gte, inArray, isNull, lte, ne, or } from 'drizzle-orm';
import type { Orm } from '@corridor/platform';
import { companies, complaints, devices, disciplinaryRecords, singleUseCertificates } from '../db/schema';
import type { Period } from './period';

/** Dashboard figures read from PostgreSQL, each bounded by the country's companies. */
export function dashboardRepository(db: Orm) {
  const perCompany = (rows: { companyId: number; n: number }[]) => new Map(rows.map((r) => [r.companyId, r.n]));
  return {
    async companiesIn(country: string): Promise<{ id: number; name: string }[]> {
      return db
        .select({ id: companies.id, name: companies.name })
        .from(companies)
        .where(eq(companies.country, country))
        .orderBy(companies.id);
    },
    async devicesOf(companyIds: number[]): Promise<{ id: number; companyId: number | null }[]> {
      if (!companyIds.length) return [];
      return db.select({ id: devices.id, companyId: devices.companyId }).from(devices).where(inArray(devices.companyId, companyIds));
    },
    /** Applications made in the period, by status. */
    async certificates(companyIds: number[], p: Period): Promise<Record<string, number>> {
      if (!companyIds.length) return {};
      const c = singleUseCertificates;
      const rows = await db
        .select({ status: c.status, n: count() })
        .from(c)
        .where(and(inArray(c.companyId, companyIds), gte(c.createdAt, p.from), lte(c.createdAt, p.to)))
        .groupBy(c.status);
      return Object.fromEntries(rows.map((r) => [r.status, r.n]));
    },
    /** Complaints filed by the end of the period that are open or under review now. */
    async complaintsOpen(companyIds: number[], p: Period): Promise<{ open: number; underReview: number }> {
      if (!companyIds.length) return { open: 0, underReview: 0 };
      const rows = await db
        .select({ status: complaints.status, n: count() })
        .from(complaints)
        .where(
          and(
            inArray(complaints.companyId, companyIds),
            inArray(complaints.status, ['open', 'under_review']),
            lte(complaints.createdAt, p.to),
          ),
        )
        .groupBy(complaints.status);
      const by = Object.fromEntries(rows.map((r) => [r.status, r.n]));
      return { open: by.open ?? 0, underReview: by.under_review ?? 0 };
    },
    /** Per company: complaints filed in the period and not dismissed. */
    async complaintsAgainst(companyIds: number[], p: Period): Promise<Map<number, number>> {
      if (!companyIds.length) return new Map();
      return perCompany(
        await db
          .select({ companyId: complaints.companyId, n: count() })
          .from(complaints)
          .where(
            and(
              inArray(complaints.companyId, companyIds),
              gte(complaints.createdAt, p.from),
              lte(complaints.createdAt, p.to),
              or(isNull(complaints.outcome), ne(complaints.outcome, 'dismissed')),
            ),
          )
          .groupBy(complaints.companyId),
      );
    },
    /** Per company: sanctions recorded in the period. */
    async sanctionsRecorded(companyIds: number[], p: Period): Promise<Map<number, number>> {
      if (!companyIds.length) return new Map();
      const d = disciplinaryRecords;
      return perCompany(
        await db
          .select({ companyId: d.companyId, n: count() })
          .from(d)
          .where(and(inArray(d.companyId, companyIds), gte(d.createdAt, p.from), lte(d.createdAt, p.to)))
          .groupBy(d.companyId),
      );
    },
  };
}
export type DashboardRepository = ReturnType<typeof dashboardRepository>;
