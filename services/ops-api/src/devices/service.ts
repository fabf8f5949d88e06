import { DeviceRegistryMessage, Topics, type Device, type DeviceInput, type DeviceSessionMessage } from '@corridor/contracts';
import {
  AppError,
  cacheKeys,
  companyScope,
  notFound,
  type Bus,
  type Cache,
  type Identity,
  type Logger,
  type Orm,
} from '@corridor/platform';
import { audit } from '../audit/audit';
import type { DeviceRow } from '../db/schema';
import type { Actor } from '../resources/scope';
import { readLiveStates, withLiveState } from '../device-state/live-state';
import type { DeviceLiveState } from '../device-state/status';
import type { DeviceFilter, DevicesRepository } from './repository';

function toDevice(r: DeviceRow): Device {
  return {
    id: r.id,
    name: r.name,
    uniqueId: r.uniqueId,
    status: r.status,
    disabled: r.disabled,
    lastUpdate: r.lastUpdate?.toISOString() ?? null,
    positionId: r.positionId,
    groupId: r.groupId,
    calendarId: r.calendarId,
    companyId: r.companyId,
    phone: r.phone,
    model: r.model,
    contact: r.contact,
    category: r.category,
    expirationTime: r.expirationTime?.toISOString() ?? null,
    attributes: r.attributes,
    protocol: r.protocol,
  };
}

/**
 * The refusal of a uniqueId that cannot be registered. A company's caller gets one answer whoever
 * holds it (their company, another, a batch's race), so it never tells them that another company
 * registered that tracker; administrators see every device and get the precise reason.
 */
function uniqueIdRefused(who: Identity | undefined, precise: string, field = 'uniqueId'): AppError {
  if (who && companyScope(who) !== undefined) {
    return new AppError('CONFLICT', 'This device cannot be registered with that uniqueId: if the tracker is yours, ask an administrator', {
      field,
    });
  }
  return new AppError('CONFLICT', precise, { field });
}

/** Audit snapshots leave out the live state (status, lastUpdate, positionId): it is not a decision. */
const audited = (d: Device) => {
  const { status: _s, lastUpdate: _l, positionId: _p, ...rest } = d;
  return rest;
};

/** devices.v1 carries the Device as the API gives it (live state included), or a tombstone. */
const registryEntry = (d: Device, deleted = false): DeviceRegistryMessage => ({ ...d, deleted });

const isUniqueViolation = (err: unknown): boolean => {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
};

/**
 * Devices: the registry's source of truth. Every change is written to PostgreSQL, then to the
 * shared cache (ingest's immediate lookup) and to the compacted devices.v1 topic (every
 * consumer's copy). A failed publish is logged; the next start's sync republishes everything.
 */
export function devicesService(deps: { db: Orm; repo: DevicesRepository; bus: Bus; cache: Cache; logger: Logger }) {
  const { db, repo, bus, cache, logger } = deps;

  /** An administrator set or cleared the protocol: ingest forgets the binding it claimed and a JT/T 808 registration. */
  async function resetIdentity(before: DeviceRow, input: DeviceInput): Promise<void> {
    if (input.protocol === undefined || (input.protocol !== null && input.protocol === before.protocol)) return;
    await cache.del(cacheKeys.deviceProtocol(before.id), cacheKeys.jt808AuthCode(before.id)).catch((err: unknown) => {
      logger.error({ err, deviceId: before.id }, 'device identity not reset in the cache');
    });
  }

  /** Devices with their live status, lastUpdate and positionId (device-state); PostgreSQL's copy when the cache is down. */
  async function live(devices: Device[]): Promise<Device[]> {
    if (!devices.length) return devices;
    let states: Map<number, DeviceLiveState>;
    try {
      states = await readLiveStates(
        cache,
        devices.map((d) => d.id),
      );
    } catch (err) {
      logger.warn({ err: (err as Error).message }, 'cache unavailable: device status as PostgreSQL last stored it');
      return devices;
    }
    return devices.map((d) => withLiveState(d, states.get(d.id)));
  }

  async function announce(row: DeviceRow, deleted = false, previousUniqueId?: string): Promise<void> {
    const [device] = deleted ? [toDevice(row)] : await live([toDevice(row)]);
    const entry = registryEntry(device!, deleted);
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
      return live((await repo.list(f)).map(toDevice));
    },
    async get(id: number, companyId?: number): Promise<Device> {
      const row = await repo.get(id);
      if (!row || (companyId !== undefined && row.companyId !== companyId)) throw notFound('Device', id);
      return (await live([toDevice(row)]))[0]!;
    },
    /** `actor`: the API caller (audited as device.create); internal callers (seeding, tests) pass none. */
    async create(input: DeviceInput, actor?: Actor): Promise<Device> {
      let row: DeviceRow;
      try {
        row = await db.transaction(async (tx) => {
          const r = await repo.insert({ ...input, protocol: input.protocol ?? null }, tx);
          if (actor)
            await audit.record(tx, actor.identity, {
              action: 'device.create',
              entityType: 'device',
              entityId: r.id,
              after: audited(toDevice(r)),
              requestId: actor.requestId,
            });
          return r;
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw uniqueIdRefused(actor?.identity, `A device with uniqueId ${input.uniqueId} already exists`);
        throw err;
      }
      await announce(row);
      return toDevice(row);
    },
    async update(id: number, input: DeviceInput, actor?: Actor): Promise<Device> {
      const before = await repo.get(id);
      if (!before) throw notFound('Device', id);
      let row: DeviceRow | undefined;
      try {
        row = await db.transaction(async (tx) => {
          const r = await repo.update(id, input, tx);
          if (r && actor) {
            await audit.record(tx, actor.identity, {
              action: 'device.update',
              entityType: 'device',
              entityId: id,
              before: audited(toDevice(before)),
              after: audited(toDevice(r)),
              requestId: actor.requestId,
            });
          }
          return r;
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw uniqueIdRefused(actor?.identity, `A device with uniqueId ${input.uniqueId} already exists`);
        throw err;
      }
      if (!row) throw notFound('Device', id);
      await resetIdentity(before, input);
      await announce(row, false, before.uniqueId);
      return toDevice(row);
    },
    /** Registers many devices in one transaction; a taken or repeated uniqueId answers 409 naming its place. */
    async createMany(inputs: DeviceInput[], actor?: Actor): Promise<Device[]> {
      const seen = new Set<string>();
      for (const [i, d] of inputs.entries()) {
        if (seen.has(d.uniqueId))
          throw new AppError('CONFLICT', `uniqueId ${d.uniqueId} appears twice in the batch`, { field: `devices.${i}.uniqueId` });
        seen.add(d.uniqueId);
      }
      const taken = await repo.list({ uniqueIds: [...seen], limit: 1, offset: 0 });
      if (taken[0]) {
        const i = inputs.findIndex((d) => d.uniqueId === taken[0]!.uniqueId);
        throw uniqueIdRefused(actor?.identity, `A device with uniqueId ${taken[0].uniqueId} already exists`, `devices.${i}.uniqueId`);
      }
      let rows: DeviceRow[];
      try {
        rows = await db.transaction(async (tx) => {
          const rs = await repo.insertMany(
            inputs.map((d) => ({ ...d, protocol: d.protocol ?? null })),
            tx,
          );
          if (actor) {
            for (const r of rs)
              await audit.record(tx, actor.identity, {
                action: 'device.create',
                entityType: 'device',
                entityId: r.id,
                after: audited(toDevice(r)),
                requestId: actor.requestId,
              });
          }
          return rs;
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw uniqueIdRefused(actor?.identity, 'A uniqueId of the batch was taken meanwhile');
        throw err;
      }
      for (const r of rows) await announce(r);
      return rows.map(toDevice);
    },
    /** Replaces many devices in one transaction (an unknown id answers 404 and nothing changes). */
    async updateMany(items: (DeviceInput & { id: number })[], actor?: Actor): Promise<Device[]> {
      const before = new Map((await repo.list({ ids: items.map((d) => d.id), limit: items.length, offset: 0 })).map((r) => [r.id, r]));
      let rows: DeviceRow[];
      try {
        rows = await db.transaction(async (tx) => {
          const rs = await repo.updateMany(items, tx);
          if (actor) {
            for (const r of rs) {
              const b = before.get(r.id);
              await audit.record(tx, actor.identity, {
                action: 'device.update',
                entityType: 'device',
                entityId: r.id,
                before: b ? audited(toDevice(b)) : null,
                after: audited(toDevice(r)),
                requestId: actor.requestId,
              });
            }
          }
          return rs;
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw uniqueIdRefused(actor?.identity, 'A uniqueId of the batch belongs to another device');
        throw err;
      }
      for (const r of rows) {
        const b = before.get(r.id);
        if (b)
          await resetIdentity(
            b,
            items.find((d) => d.id === r.id)!,
          );
        await announce(r, false, b?.uniqueId);
      }
      return rows.map(toDevice);
    },
    /** Deletes many devices in one transaction (an unknown id answers 404 and nothing is deleted). */
    async removeMany(ids: number[], actor?: Actor): Promise<void> {
      const rows = await db.transaction(async (tx) => {
        const rs = await repo.deleteMany([...new Set(ids)], tx);
        if (actor)
          for (const r of rs)
            await audit.record(tx, actor.identity, {
              action: 'device.delete',
              entityType: 'device',
              entityId: r.id,
              before: audited(toDevice(r)),
              requestId: actor.requestId,
            });
        return rs;
      });
      for (const r of rows) await announce(r, true);
    },
    async remove(id: number, actor?: Actor): Promise<void> {
      const row = await db.transaction(async (tx) => {
        const r = await repo.delete(id, tx);
        if (r && actor)
          await audit.record(tx, actor.identity, {
            action: 'device.delete',
            entityType: 'device',
            entityId: id,
            before: audited(toDevice(r)),
            requestId: actor.requestId,
          });
        return r;
      });
      if (!row) throw notFound('Device', id);
      await announce(row, true);
    },
    /**
     * Stores the protocol devices first spoke, from ingest's `connected` messages on device-status.v1
     * (ingest claimed the binding in the cache at the first accepted frame); a bound device keeps its own.
     */
    async bindProtocols(messages: DeviceSessionMessage[]): Promise<void> {
      const first = new Map<number, string>();
      for (const m of messages) if (m.type === 'connected' && !first.has(m.deviceId)) first.set(m.deviceId, m.protocol);
      for (const [id, protocol] of first) {
        const row = await repo.bindProtocol(id, protocol);
        if (row) await announce(row);
      }
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
        const entries = (await live(rows.map(toDevice))).map((d) => registryEntry(d));
        for (const e of entries) {
          await cache.set(cacheKeys.deviceByUniqueId(e.uniqueId), JSON.stringify(e));
          await cache.set(cacheKeys.deviceById(e.id), JSON.stringify(e));
        }
        await bus.publish(
          Topics.devices,
          entries.map((e) => ({ key: String(e.id), value: e })),
        );
        n += rows.length;
      }
      return n;
    },
    /**
     * The devices.v1 entries of devices whose live state changed (device-state): the registry entry
     * the cache holds (else the row) with that state; devices that no longer exist are left out.
     */
    async registryEntries(states: Map<number, DeviceLiveState>): Promise<DeviceRegistryMessage[]> {
      const list = [...states];
      const cached = await cache.mget(list.map(([id]) => cacheKeys.deviceById(id))).catch(() => list.map(() => null));
      const out: DeviceRegistryMessage[] = [];
      const missing: number[] = [];
      list.forEach(([id, s], i) => {
        const raw = cached[i];
        const parsed = raw ? DeviceRegistryMessage.safeParse(JSON.parse(raw)) : undefined;
        // an entry from before devices.v1 carried the whole Device (no attributes) is read again
        if (parsed?.success && parsed.data.id === id && parsed.data.attributes !== undefined)
          out.push({ ...withLiveState(parsed.data, s), deleted: false });
        else missing.push(id);
      });
      if (missing.length) {
        for (const r of await repo.list({ ids: missing, limit: missing.length, offset: 0 }))
          out.push(registryEntry(withLiveState(toDevice(r), states.get(r.id))));
      }
      return out;
    },
  };
}
export type DevicesService = ReturnType<typeof devicesService>;
