import { and, asc, count, desc, eq, gte, ilike, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { ShipmentStatus } from '@corridor/contracts';
import type { Orm } from '@corridor/platform';
import {
  shipmentProgressUpdates,
  shipments,
  shipmentStatusHistory,
  type NewShipmentRow,
  type ShipmentProgressRow,
  type ShipmentRow,
  type ShipmentStatusHistoryRow,
} from '../db/schema';

export interface ShipmentFilter {
  companyId?: number;
  status?: ShipmentStatus[];
  reference?: string;
  truckPlate?: string;
  containerNumber?: string;
  corridor?: 'northern' | 'central' | 'other';
  from?: Date;
  to?: Date;
  limit: number;
  offset: number;
}

const like = (s: string): string => `%${s.replace(/[%_\\]/g, (c) => '\\' + c)}%`;

export function shipmentsRepository(db: Orm) {
  const where = (f: Partial<ShipmentFilter>): SQL | undefined => {
    const parts: SQL[] = [];
    if (f.companyId !== undefined) parts.push(eq(shipments.companyId, f.companyId));
    if (f.status?.length) parts.push(inArray(shipments.status, f.status));
    if (f.reference) parts.push(ilike(shipments.reference, like(f.reference)));
    if (f.truckPlate) parts.push(ilike(shipments.truckPlate, like(f.truckPlate.trim())));
    if (f.containerNumber)
      parts.push(sql`${shipments.containerNumbers} @> ${JSON.stringify([f.containerNumber.replace(/[\s-]/g, '').toUpperCase()])}::jsonb`);
    if (f.corridor) parts.push(eq(shipments.corridor, f.corridor));
    if (f.from) parts.push(gte(shipments.createdAt, f.from));
    if (f.to) parts.push(lt(shipments.createdAt, f.to));
    return parts.length ? and(...parts) : undefined;
  };
  return {
    db,
    async list(f: ShipmentFilter): Promise<{ rows: ShipmentRow[]; total: number }> {
      const w = where(f);
      const rows = await db
        .select()
        .from(shipments)
        .where(w)
        .orderBy(desc(shipments.createdAt), desc(shipments.id))
        .limit(f.limit)
        .offset(f.offset);
      const [c] = await db.select({ n: count() }).from(shipments).where(w);
      return { rows, total: c?.n ?? 0 };
    },
    async get(id: number, tx: Orm = db): Promise<ShipmentRow | undefined> {
      const [r] = await tx.select().from(shipments).where(eq(shipments.id, id));
      return r;
    },
    /** The row locked for the rest of the transaction (status changes read-modify-write). */
    async lock(tx: Orm, id: number): Promise<ShipmentRow | undefined> {
      const [r] = await tx.select().from(shipments).where(eq(shipments.id, id)).for('update');
      return r;
    },
    async insert(tx: Orm, row: NewShipmentRow): Promise<ShipmentRow> {
      const [r] = await tx.insert(shipments).values(row).returning();
      return r!;
    },
    async update(tx: Orm, id: number, values: Partial<NewShipmentRow>): Promise<ShipmentRow> {
      const [r] = await tx
        .update(shipments)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(shipments.id, id))
        .returning();
      return r!;
    },
    async addHistory(tx: Orm, row: typeof shipmentStatusHistory.$inferInsert): Promise<void> {
      await tx.insert(shipmentStatusHistory).values(row);
    },
    async history(id: number): Promise<ShipmentStatusHistoryRow[]> {
      return db
        .select()
        .from(shipmentStatusHistory)
        .where(eq(shipmentStatusHistory.shipmentId, id))
        .orderBy(asc(shipmentStatusHistory.at), asc(shipmentStatusHistory.id));
    },
    async addProgress(row: typeof shipmentProgressUpdates.$inferInsert): Promise<ShipmentProgressRow> {
      const [r] = await db.insert(shipmentProgressUpdates).values(row).returning();
      return r!;
    },
    async progress(id: number): Promise<ShipmentProgressRow[]> {
      return db
        .select()
        .from(shipmentProgressUpdates)
        .where(eq(shipmentProgressUpdates.shipmentId, id))
        .orderBy(asc(shipmentProgressUpdates.at), asc(shipmentProgressUpdates.id));
    },
  };
}
export type ShipmentsRepository = ReturnType<typeof shipmentsRepository>;
