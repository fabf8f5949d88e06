import { Topics, type Device, type DeviceInput, type DeviceRegistryMessage } from '@corridor/contracts';
import { AppError, cacheKeys, notFound, type Bus, type Cache, type Logger } from '@corridor/platform';
import type { DeviceRow } from '../db/schema';
import type { DeviceFilter, DevicesRepository } from './repository';

export function toDevice(r: DeviceRow): Device {
  return {
    id: r.id, name: r.name, uniqueId: r.uniqueId, status: r.status, disabled: r.disabled,
    lastUpdate: r.lastUpdate?.toISOString() ?? null, positionId: r.positionId, groupId: r.groupId,
    calendarId: r.calendarId, companyId: r.companyId, phone: r.phone, model: r.model, contact: r.contact,
    category: r.category, expirationTime: r.expirationTime?.toISOString() ?? null, attributes: r.attributes,
  };
}

const registryEntry = (r: DeviceRow, deleted = false): DeviceRegistryMessage => ({
  id: r.id, uniqueId: r.uniqueId, name: r.name, disabled: r.disabled, companyId: r.companyId, groupId: r.groupId, status: r.status, deleted,
});

const isUniqueViolation = (err: unknown): boolean => {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
};

/**
 * Devices: the registry's source of truth. Every change is written to PostgreSQL, then to the
 * shared cache (ingest's immediate lookup) and to the compacted devices.v1 topic (every
 * consumer's copy). A failed publish is logged; the next start's sync republishes everything.
 */
export function devicesService(deps: { repo: DevicesRepository; bus: Bus; cache: Cache; logger: Logger }) {
  const { repo, bus, cache, logger } = deps;

  async function announce(row: DeviceRow, deleted = false, previousUniqueId?: string): Promise<void> {
    const entry = registryEntry(row, deleted);
    try {
      if (previousUniqueId && previousUniqueId !== row.uniqueId) await cache.del(cacheKeys.deviceByUniqueId(previousUniqueId));
      if (deleted) await cache.del(cacheKeys.deviceByUniqueId(row.uniqueId), cacheKeys.deviceById(row.id));
      else await cache.set(cacheKeys.deviceByUniqueId(row.uniqueId), JSON.stringify(entry));
      if (!deleted) await cache.set(cacheKeys.deviceById(row.id), JSON.stringify(entry));
      await bus.publish(Topics.devices, [{ key: String(row.id), value: entry }]);
    } catch (err) {
      logger.error({ err, deviceId: row.id }, 'device change not announced; the next registry sync will');
    }
  }

  return {
    async list(f: DeviceFilter): Promise<Device[]> {
      return (await repo.list(f)).map(toDevice);
    },
    async get(id: number, companyId?: number): Promise<Device> {
      const row = await repo.get(id);
      if (!row || (companyId !== undefined && row.companyId !== companyId)) throw notFound('Device', id);
      return toDevice(row);
    },
    async create(input: DeviceInput): Promise<Device> {
      let row: DeviceRow;
      try {
        row = await repo.insert(input);
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError('CONFLICT', `A device with uniqueId ${input.uniqueId} already exists`, { field: 'uniqueId' });
        throw err;
      }
      await announce(row);
      return toDevice(row);
    },
    async update(id: number, input: DeviceInput): Promise<Device> {
      const before = await repo.get(id);
      if (!before) throw notFound('Device', id);
      let row: DeviceRow | undefined;
      try {
        row = await repo.update(id, input);
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError('CONFLICT', `A device with uniqueId ${input.uniqueId} already exists`, { field: 'uniqueId' });
        throw err;
      }
      if (!row) throw notFound('Device', id);
      await announce(row, false, before.uniqueId);
      return toDevice(row);
    },
    /** Registers many devices in one transaction; a taken or repeated uniqueId answers 409 naming it. */
    async createMany(inputs: DeviceInput[]): Promise<Device[]> {
      const seen = new Set<string>();
      for (const [i, d] of inputs.entries()) {
        if (seen.has(d.uniqueId)) throw new AppError('CONFLICT', `uniqueId ${d.uniqueId} appears twice in the batch`, { field: `devices.${i}.uniqueId` });
        seen.add(d.uniqueId);
      }
      const taken = await repo.list({ uniqueIds: [...seen], limit: 1, offset: 0 });
      if (taken[0]) throw new AppError('CONFLICT', `A device with uniqueId ${taken[0].uniqueId} already exists`, { field: 'uniqueId', uniqueId: taken[0].uniqueId });
      let rows: DeviceRow[];
      try {
        rows = await repo.insertMany(inputs);
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError('CONFLICT', 'A uniqueId of the batch was taken meanwhile', { field: 'uniqueId' });
        throw err;
      }
      for (const r of rows) await announce(r);
      return rows.map(toDevice);
    },
    /** Replaces many devices in one transaction (an unknown id answers 404 and nothing changes). */
    async updateMany(items: (DeviceInput & { id: number })[]): Promise<Device[]> {
      const before = new Map((await repo.list({ ids: items.map((d) => d.id), limit: items.length, offset: 0 })).map((r) => [r.id, r]));
      let rows: DeviceRow[];
      try {
        rows = await repo.updateMany(items);
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError('CONFLICT', 'A uniqueId of the batch belongs to another device', { field: 'uniqueId' });
        throw err;
      }
      for (const r of rows) await announce(r, false, before.get(r.id)?.uniqueId);
      return rows.map(toDevice);
    },
    /** Deletes many devices in one transaction (an unknown id answers 404 and nothing is deleted). */
    async removeMany(ids: number[]): Promise<void> {
      const rows = await repo.deleteMany([...new Set(ids)]);
      for (const r of rows) await announce(r, true);
    },
    async remove(id: number): Promise<void> {
      const row = await repo.delete(id);
      if (!row) throw notFound('Device', id);
      await announce(row, true);
    },
    /** Announces a device's current row (after a change written by another module's transaction). */
    async announceCurrent(id: number): Promise<void> {
      const row = await repo.get(id);
      if (row) await announce(row);
    },
    /** Publishes every device to the cache and devices.v1 (at start), so registries fill from the store. */
    async syncRegistry(): Promise<number> {
      let n = 0;
      for await (const rows of repo.all()) {
        for (const r of rows) {
          await cache.set(cacheKeys.deviceByUniqueId(r.uniqueId), JSON.stringify(registryEntry(r)));
          await cache.set(cacheKeys.deviceById(r.id), JSON.stringify(registryEntry(r)));
        }
        await bus.publish(Topics.devices, rows.map((r) => ({ key: String(r.id), value: registryEntry(r) })));
        n += rows.length;
      }
      return n;
    },
  };
}
export type DevicesService = ReturnType<typeof devicesService>;
