import { and, asc, count, desc, eq, gte, ilike, inArray, lt, type SQL } from 'drizzle-orm';
import type { CargoStatus } from '@corridor/contracts';
import type { Orm } from '@corridor/platform';
import { cargos, cargoStatusHistory, type CargoRow, type CargoStatusHistoryRow, type NewCargoRow } from '../db/schema';

export interface CargoFilter {
  companyId?: number;
  status?: CargoStatus[];
  idfNumber?: string;
  importerPin?: string;
  from?: Date;
  to?: Date;
  limit: number;
  offset: number;
}

const like = (s: string): string => `%${s.replace(/[%_\\]/g, (c) => '\\' + c)}%`;

export function cargoRepository(db: Orm) {
  const where = (f: Partial<CargoFilter>): SQL | undefined => {
    const parts: SQL[] = [];
    if (f.companyId !== undefined) parts.push(eq(cargos.companyId, f.companyId));
    if (f.status?.length) parts.push(inArray(cargos.status, f.status));
    if (f.idfNumber) parts.push(ilike(cargos.idfNumber, like(f.idfNumber.trim())));
    if (f.importerPin) parts.push(eq(cargos.importerPin, f.importerPin.trim().toUpperCase()));
    if (f.from) parts.push(gte(cargos.createdAt, f.from));
    if (f.to) parts.push(lt(cargos.createdAt, f.to));
    return parts.length ? and(...parts) : undefined;
  };
  return {
    async list(f: CargoFilter): Promise<{ rows: CargoRow[]; total: number }> {
      const w = where(f);
      const rows = await db.select().from(cargos).where(w).orderBy(desc(cargos.createdAt), desc(cargos.id)).limit(f.limit).offset(f.offset);
      const [c] = await db.select({ n: count() }).from(cargos).where(w);
      return { rows, total: c?.n ?? 0 };
    },
    async get(id: number): Promise<CargoRow | undefined> {
      const [r] = await db.select().from(cargos).where(eq(cargos.id, id));
      return r;
    },
    async lock(tx: Orm, id: number): Promise<CargoRow | undefined> {
      const [r] = await tx.select().from(cargos).where(eq(cargos.id, id)).for('update');
      return r;
    },
    /** Which of these ids are cargo of the company. */
    async idsOf(companyId: number, ids: number[]): Promise<number[]> {
      if (!ids.length) return [];
      const rows = await db
        .select({ id: cargos.id })
        .from(cargos)
        .where(and(eq(cargos.companyId, companyId), inArray(cargos.id, ids)));
      return rows.map((r) => r.id);
    },
    async insert(tx: Orm, row: NewCargoRow): Promise<CargoRow> {
      const [r] = await tx.insert(cargos).values(row).returning();
      return r!;
    },
    async setStatus(tx: Orm, id: number, status: CargoStatus): Promise<CargoRow> {
      const [r] = await tx.update(cargos).set({ status, updatedAt: new Date() }).where(eq(cargos.id, id)).returning();
      return r!;
    },
    /** Writes corrected fields (the columns and the extraction report they came from). */
    async correct(
      tx: Orm,
      id: number,
      set: Partial<
        Pick<
          NewCargoRow,
          | 'idfNumber'
          | 'importerName'
          | 'importerPin'
          | 'consignor'
          | 'countryOfOrigin'
          | 'portOfDischarge'
          | 'invoiceValue'
          | 'currency'
          | 'lineItems'
          | 'extraction'
        >
      >,
    ): Promise<CargoRow> {
      const [r] = await tx
        .update(cargos)
        .set({ ...set, updatedAt: new Date() })
        .where(eq(cargos.id, id))
        .returning();
      return r!;
    },
    async addHistory(tx: Orm, row: typeof cargoStatusHistory.$inferInsert): Promise<void> {
      await tx.insert(cargoStatusHistory).values(row);
    },
    async history(id: number): Promise<CargoStatusHistoryRow[]> {
      return db
        .select()
        .from(cargoStatusHistory)
        .where(eq(cargoStatusHistory.cargoId, id))
        .orderBy(asc(cargoStatusHistory.at), asc(cargoStatusHistory.id));
    },
  };
}
export type CargoRepository = ReturnType<typeof cargoRepository>;
