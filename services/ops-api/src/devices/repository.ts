import { and, count, eq, ilike, inArray, isNull, or, type SQL } from 'drizzle-orm';
import type { DeviceInput } from '@corridor/contracts';
import { notFound, type Orm } from '@corridor/platform';
import { devices, type DeviceRow } from '../db/schema';

export interface DeviceFilter {
  ids?: number[];
  uniqueIds?: string[];
  groupIds?: number[];
  keyword?: string;
  status?: DeviceRow['status'];
  companyId?: number;
  limit: number;
  offset: number;
}

const toValues = (input: DeviceInput) => ({
  ...input,
  expirationTime: input.expirationTime ? new Date(input.expirationTime) : null,
});

export function devicesRepository(db: Orm) {
  const where = (f: Partial<DeviceFilter>): SQL | undefined => {
    const parts: (SQL | undefined)[] = [];
    if (f.ids?.length) parts.push(inArray(devices.id, f.ids));
    if (f.uniqueIds?.length) parts.push(inArray(devices.uniqueId, f.uniqueIds));
    if (f.groupIds?.length) parts.push(inArray(devices.groupId, f.groupIds));
    if (f.status) parts.push(eq(devices.status, f.status));
    if (f.companyId !== undefined) parts.push(eq(devices.companyId, f.companyId));
    if (f.keyword) {
      const k = `%${f.keyword.replace(/[%_\\]/g, (c) => '\\' + c)}%`;
      parts.push(
        or(ilike(devices.name, k), ilike(devices.uniqueId, k), ilike(devices.phone, k), ilike(devices.model, k), ilike(devices.contact, k)),
      );
    }
    return parts.length ? and(...parts) : undefined;
  };
  return {
    async list(f: DeviceFilter): Promise<DeviceRow[]> {
      return db.select().from(devices).where(where(f)).orderBy(devices.id).limit(f.limit).offset(f.offset);
    },
    async count(f: Partial<DeviceFilter>): Promise<number> {
      const [r] = await db.select({ n: count() }).from(devices).where(where(f));
      return r?.n ?? 0;
    },
    async get(id: number): Promise<DeviceRow | undefined> {
      const [r] = await db.select().from(devices).where(eq(devices.id, id));
      return r;
    },
    async byUniqueId(uniqueId: string): Promise<DeviceRow | undefined> {
      const [r] = await db.select().from(devices).where(eq(devices.uniqueId, uniqueId));
      return r;
    },
    /** Writes take `orm` so the caller's transaction (with its audit row) holds them. */
    async insert(input: DeviceInput, orm: Orm = db): Promise<DeviceRow> {
      const [r] = await orm.insert(devices).values(toValues(input)).returning();
      return r!;
    },
    async update(id: number, input: DeviceInput, orm: Orm = db): Promise<DeviceRow | undefined> {
      const [r] = await orm
        .update(devices)
        .set({ ...toValues(input), updatedAt: new Date() })
        .where(eq(devices.id, id))
        .returning();
      return r;
    },
    /** Bulk writes: all in the caller's transaction (a failure rolls every row back). */
    async insertMany(inputs: DeviceInput[], orm: Orm = db): Promise<DeviceRow[]> {
      return orm.insert(devices).values(inputs.map(toValues)).returning();
    },
    async updateMany(items: (DeviceInput & { id: number })[], orm: Orm): Promise<DeviceRow[]> {
      const out: DeviceRow[] = [];
      for (const { id, ...input } of items) {
        const [r] = await orm
          .update(devices)
          .set({ ...toValues(input), updatedAt: new Date() })
          .where(eq(devices.id, id))
          .returning();
        if (!r) throw notFound('Device', id);
        out.push(r);
      }
      return out;
    },
    async deleteMany(ids: number[], orm: Orm): Promise<DeviceRow[]> {
      const rows = await orm.delete(devices).where(inArray(devices.id, ids)).returning();
      const gone = new Set(rows.map((r) => r.id));
      const missing = ids.find((id) => !gone.has(id));
      if (missing !== undefined) throw notFound('Device', missing);
      return rows;
    },
    /** Stores the protocol a device first spoke, unless it is bound already; the row when it changed. */
    async bindProtocol(id: number, protocol: string): Promise<DeviceRow | undefined> {
      const [r] = await db
        .update(devices)
        .set({ protocol, updatedAt: new Date() })
        .where(and(eq(devices.id, id), isNull(devices.protocol)))
        .returning();
      return r;
    },
    /** Moves a device to a company (inventory decisions); `orm` lets the caller pass its transaction. */
    async setCompany(id: number, companyId: number | null, orm: Orm = db): Promise<DeviceRow | undefined> {
      const [r] = await orm.update(devices).set({ companyId, updatedAt: new Date() }).where(eq(devices.id, id)).returning();
      return r;
    },
    async delete(id: number, orm: Orm = db): Promise<DeviceRow | undefined> {
      const [r] = await orm.delete(devices).where(eq(devices.id, id)).returning();
      return r;
    },
    /** Every device, in pages (registry sync at start). */
    async *all(pageSize = 1000): AsyncGenerator<DeviceRow[]> {
      for (let offset = 0; ; offset += pageSize) {
        const rows = await db.select().from(devices).orderBy(devices.id).limit(pageSize).offset(offset);
        if (rows.length) yield rows;
        if (rows.length < pageSize) return;
      }
    },
  };
}
export type DevicesRepository = ReturnType<typeof devicesRepository>;
