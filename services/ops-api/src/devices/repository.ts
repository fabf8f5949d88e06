import { and, count, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import type { DeviceInput } from '@corridor/contracts';
import type { Orm } from '@corridor/platform';
import { devices, type DeviceRow } from '../db/schema';

export interface DeviceFilter {
  ids?: number[];
  uniqueIds?: string[];
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
    if (f.status) parts.push(eq(devices.status, f.status));
    if (f.companyId !== undefined) parts.push(eq(devices.companyId, f.companyId));
    if (f.keyword) {
      const k = `%${f.keyword.replace(/[%_\\]/g, (c) => '\\' + c)}%`;
      parts.push(or(ilike(devices.name, k), ilike(devices.uniqueId, k), ilike(devices.phone, k), ilike(devices.model, k), ilike(devices.contact, k)));
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
    async insert(input: DeviceInput): Promise<DeviceRow> {
      const [r] = await db.insert(devices).values(toValues(input)).returning();
      return r!;
    },
    async update(id: number, input: DeviceInput): Promise<DeviceRow | undefined> {
      const [r] = await db.update(devices).set({ ...toValues(input), updatedAt: new Date() }).where(eq(devices.id, id)).returning();
      return r;
    },
    async delete(id: number): Promise<DeviceRow | undefined> {
      const [r] = await db.delete(devices).where(eq(devices.id, id)).returning();
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
