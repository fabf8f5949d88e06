import { randomUUID } from 'node:crypto';
import { DeviceRegistryMessage, Topics } from '@corridor/contracts';
import type { Bus, Subscription } from './adapters/bus';
import type { Cache } from './adapters/cache';
import { cacheKeys } from './cache-keys';
import { consumeValidated } from './consumer';
import type { Logger } from './logger';

export interface DeviceRegistryViewOptions {
  bus: Bus;
  logger: Logger;
  /** Prefix of this reader's consumer group (a random suffix makes every instance read the whole topic). */
  groupPrefix: string;
  /**
   * ops-api's registry entries in the shared cache (cacheKeys.deviceByUniqueId): the fallback for a
   * device created moments ago, or read before this instance has caught up with devices.v1.
   */
  cache?: Cache;
}

/** Called for each entry applied: the entry and the one it replaced (undefined for a new device). */
type ApplyListener = (entry: DeviceRegistryMessage, previous: DeviceRegistryMessage | undefined) => void;

/**
 * The device registry as its readers see it: the compacted devices.v1 topic (ops-api publishes
 * every device's entry there) read from the beginning by every instance into maps by id and by
 * unique id, with the registry entries ops-api keeps in the shared cache as the fallback for a
 * device not read yet. Ingest (who may report), the geofence evaluator (fence links, company
 * scoping) and the gateway's live feed (who may see a device) each hold one.
 */
export class DeviceRegistryView {
  private readonly byId = new Map<number, DeviceRegistryMessage>();
  private readonly idByUniqueId = new Map<string, number>();
  private readonly applyListeners: ApplyListener[] = [];
  private readonly batchListeners: ((entries: DeviceRegistryMessage[]) => void)[] = [];
  private sub: Subscription | undefined;

  constructor(private readonly opts: DeviceRegistryViewOptions) {}

  async start(): Promise<void> {
    this.sub = await consumeValidated({
      bus: this.opts.bus,
      logger: this.opts.logger,
      groupId: `${this.opts.groupPrefix}-${randomUUID()}`,
      topic: Topics.devices,
      schema: DeviceRegistryMessage,
      fromBeginning: true,
      handle: async (entries) => {
        for (const d of entries) this.apply(d);
        for (const l of this.batchListeners) l(entries);
      },
    });
  }

  /** Every entry applied, with the one it replaced. */
  onApply(listener: ApplyListener): void {
    this.applyListeners.push(listener);
  }

  /** Every batch read from devices.v1, after it is applied. */
  onBatch(listener: (entries: DeviceRegistryMessage[]) => void): void {
    this.batchListeners.push(listener);
  }

  apply(d: DeviceRegistryMessage): void {
    const previous = this.byId.get(d.id);
    // a device whose unique id changed must not stay reachable under the old one
    if (previous && previous.uniqueId !== d.uniqueId && this.idByUniqueId.get(previous.uniqueId) === d.id)
      this.idByUniqueId.delete(previous.uniqueId);
    if (d.deleted) {
      this.byId.delete(d.id);
      if (this.idByUniqueId.get(d.uniqueId) === d.id) this.idByUniqueId.delete(d.uniqueId);
    } else {
      this.byId.set(d.id, d);
      this.idByUniqueId.set(d.uniqueId, d.id);
    }
    for (const l of this.applyListeners) l(d, previous);
  }

  get(id: number): DeviceRegistryMessage | undefined {
    return this.byId.get(id);
  }

  /** The entry of a unique id already read (no cache round trip). */
  getByUniqueId(uniqueId: string): DeviceRegistryMessage | undefined {
    const id = this.idByUniqueId.get(uniqueId);
    return id === undefined ? undefined : this.byId.get(id);
  }

  /** The entry of a unique id, read from the shared cache (and applied) when this view has not read it yet. */
  async findByUniqueId(uniqueId: string): Promise<DeviceRegistryMessage | undefined> {
    const known = this.getByUniqueId(uniqueId);
    if (known || !this.opts.cache) return known;
    const raw = await this.opts.cache.get(cacheKeys.deviceByUniqueId(uniqueId)).catch((err: unknown) => {
      this.opts.logger.warn({ err }, 'device registry cache unavailable; a device not read from devices.v1 yet is unknown');
      return null;
    });
    const entry = this.parse(raw);
    if (!entry || entry.uniqueId !== uniqueId || entry.deleted) return undefined;
    this.apply(entry);
    return entry;
  }

  /** Entries of many devices: those read, and the rest in one cache round trip (an entry must match both id and unique id). */
  async findMany(devices: readonly { deviceId: number; uniqueId: string }[]): Promise<Map<number, DeviceRegistryMessage>> {
    const out = new Map<number, DeviceRegistryMessage>();
    const missed = new Map<number, { deviceId: number; uniqueId: string }>(); // one read per device, however often it is asked for
    for (const d of devices) {
      const entry = this.byId.get(d.deviceId);
      if (entry) out.set(d.deviceId, entry);
      else if (!missed.has(d.deviceId)) missed.set(d.deviceId, d);
    }
    const misses = [...missed.values()];
    if (!misses.length || !this.opts.cache) return out;
    let cached: (string | null)[] = [];
    try {
      cached = await this.opts.cache.mget(misses.map((d) => cacheKeys.deviceByUniqueId(d.uniqueId)));
    } catch (err) {
      this.opts.logger.warn({ err }, 'device registry cache unavailable; devices not read from devices.v1 yet are unknown');
    }
    misses.forEach((d, i) => {
      const entry = this.parse(cached[i] ?? null);
      if (entry && entry.id === d.deviceId && !entry.deleted) {
        this.apply(entry);
        out.set(d.deviceId, entry);
      }
    });
    return out;
  }

  ids(): number[] {
    return [...this.byId.keys()];
  }

  get size(): number {
    return this.byId.size;
  }

  async stop(): Promise<void> {
    await this.sub?.stop();
  }

  private parse(raw: string | null): DeviceRegistryMessage | undefined {
    if (!raw) return undefined;
    try {
      const parsed = DeviceRegistryMessage.safeParse(JSON.parse(raw));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }
}
