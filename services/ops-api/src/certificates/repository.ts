import { and, count, desc, eq, gte, inArray, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import type { CertificateStatus } from '@corridor/contracts';
import type { Orm } from '@corridor/platform';
import { cargos, companies, singleUseCertificates as suc, type CargoRow, type CertificateRow } from '../db/schema';

export interface CertificateFilter {
  statuses?: CertificateStatus[];
  companyId?: number;
  cargoId?: number;
  from?: Date;
  to?: Date;
  q?: string;
  limit: number;
  offset: number;
}

type CargoSummary = { idfNumber: string; importerName: string; invoiceValue: number | null; currency: string | null };
export type CertificateView = CertificateRow & { cargo: CargoSummary };
export type NewCertificate = Omit<typeof suc.$inferInsert, 'id' | 'number'>;

const selection = {
  c: suc,
  cargo: { idfNumber: cargos.idfNumber, importerName: cargos.importerName, invoiceValue: cargos.invoiceValue, currency: cargos.currency },
};
const view = (r: { c: CertificateRow; cargo: CargoSummary }): CertificateView => ({ ...r.c, cargo: r.cargo });

export function certificatesRepository(db: Orm) {
  const where = (f: Partial<CertificateFilter>): SQL | undefined => {
    const parts: (SQL | undefined)[] = [];
    if (f.statuses?.length) parts.push(inArray(suc.status, f.statuses));
    if (f.companyId !== undefined) parts.push(eq(suc.companyId, f.companyId));
    if (f.cargoId !== undefined) parts.push(eq(suc.cargoId, f.cargoId));
    if (f.from) parts.push(gte(suc.createdAt, f.from));
    if (f.to) parts.push(lte(suc.createdAt, f.to));
    if (f.q) parts.push(or(eq(suc.number, f.q.toUpperCase()), eq(suc.verificationCode, f.q.toUpperCase())));
    return parts.length ? and(...parts) : undefined;
  };

  return {
    async list(f: CertificateFilter): Promise<{ rows: CertificateView[]; total: number }> {
      const rows = await db
        .select(selection)
        .from(suc)
        .innerJoin(cargos, eq(cargos.id, suc.cargoId))
        .where(where(f))
        .orderBy(desc(suc.createdAt), desc(suc.id))
        .limit(f.limit)
        .offset(f.offset);
      const [c] = await db.select({ n: count() }).from(suc).where(where(f));
      return { rows: rows.map(view), total: c?.n ?? 0 };
    },
    async get(id: number, tx: Orm = db): Promise<CertificateView | undefined> {
      const [r] = await tx.select(selection).from(suc).innerJoin(cargos, eq(cargos.id, suc.cargoId)).where(eq(suc.id, id));
      return r ? view(r) : undefined;
    },
    /** Locks the certificate row for the rest of the transaction (decide, then write). */
    async lock(tx: Orm, id: number): Promise<CertificateRow | undefined> {
      const [r] = await tx.select().from(suc).where(eq(suc.id, id)).for('update');
      return r;
    },
    async insert(tx: Orm, values: NewCertificate): Promise<CertificateRow> {
      const [r] = await tx.insert(suc).values(values).returning();
      return r!;
    },
    async update(tx: Orm, id: number, set: Partial<NewCertificate>): Promise<void> {
      await tx.update(suc).set(set).where(eq(suc.id, id));
    },
    async cargo(id: number): Promise<CargoRow | undefined> {
      const [r] = await db.select().from(cargos).where(eq(cargos.id, id));
      return r;
    },
    /** The cargo's certificate that still counts (anything but rejected). */
    async liveForCargo(cargoId: number, tx: Orm = db): Promise<CertificateRow | undefined> {
      const [r] = await tx
        .select()
        .from(suc)
        .where(and(eq(suc.cargoId, cargoId), ne(suc.status, 'rejected')));
      return r;
    },
    async byCode(code: string): Promise<(CertificateView & { companyName: string | null }) | undefined> {
      const [r] = await db
        .select({ ...selection, companyName: companies.name })
        .from(suc)
        .innerJoin(cargos, eq(cargos.id, suc.cargoId))
        .leftJoin(companies, eq(companies.id, suc.companyId))
        .where(eq(suc.verificationCode, code));
      return r ? { ...view(r), companyName: r.companyName } : undefined;
    },
    /** Counts by status and company, and by status and period start (day, week or month, UTC). */
    async stats(p: { from: Date; to: Date; companyId?: number; granularity: 'day' | 'week' | 'month' }) {
      const w = where({ from: p.from, to: p.to, companyId: p.companyId });
      const byCompany = await db
        .select({ companyId: suc.companyId, companyName: companies.name, status: suc.status, n: count() })
        .from(suc)
        .leftJoin(companies, eq(companies.id, suc.companyId))
        .where(w)
        .groupBy(suc.companyId, companies.name, suc.status)
        .orderBy(suc.companyId);
      // the unit is inlined (one of three literals) so SELECT and GROUP BY share the same expression
      const unit = sql.raw(`'${({ day: 'day', week: 'week', month: 'month' } as const)[p.granularity]}'`);
      const bucket = sql<string>`to_char(date_trunc(${unit}, ${suc.createdAt} at time zone 'UTC'), 'YYYY-MM-DD')`;
      const byPeriod = await db
        .select({ periodStart: bucket, status: suc.status, n: count() })
        .from(suc)
        .where(w)
        .groupBy(bucket, suc.status)
        .orderBy(bucket);
      return { byCompany, byPeriod };
    },
  };
}
export type CertificatesRepository = ReturnType<typeof certificatesRepository>;
