import { randomUUID } from 'node:crypto';
import { DeviceRegistryMessage, Topics } from '@corridor/contracts';
import { cacheKeys, consumeValidated, counter, type Bus, type Cache, type Logger, type Subscription } from '@corridor/platform';
import type { KnownDevice } from '../positions/normalize';

export const unknownDevices = counter('ingest_unknown_device_total', 'Messages from device ids not in the registry', ['protocol']);

/**
 * The device registry as ingest sees it: a map filled from the compacted devices.v1 topic (read
 * from the beginning by every ingest instance), with the shared cache as the fallback for a device
 * created moments ago whose message has not arrived yet.
 */
export class DeviceRegistry {
  private readonly byUniqueId = new Map<string, DeviceRegistryMessage>();
  private readonly uniqueIdById = new Map<number, string>();
  private sub: Subscription | undefined;
  private readonly protocolListeners: ((deviceId: number) => void)[] = [];

  constructor(private readonly bus: Bus, private readonly cache: Cache, private readonly logger: Logger) {}

  async start(): Promise<void> {
    this.sub = await consumeValidated({
      bus: this.bus,
      logger: this.logger,
      groupId: `ingest-registry-${randomUUID()}`,
      topic: Topics.devices,
      schema: DeviceRegistryMessage,
      fromBeginning: true,
      handle: async (msgs) => {
        for (const d of msgs) this.apply(d);
      },
    });
  }

  /** Called when a device's protocol binding (set by its administrator, or stored by ops-api) changes or the device goes. */
  onProtocolChange(listener: (deviceId: number) => void): void {
    this.protocolListeners.push(listener);
  }

  apply(d: DeviceRegistryMessage): void {
    // a device whose unique id changed must not stay reachable under the old one
    const previous = this.uniqueIdById.get(d.id);
    const before = previous === undefined ? undefined : this.byUniqueId.get(previous);
    if ((before?.protocol ?? null) !== (d.deleted ? null : d.protocol ?? null) || d.deleted) for (const l of this.protocolListeners) l(d.id);
    if (previous !== undefined && previous !== d.uniqueId) this.byUniqueId.delete(previous);
    if (d.deleted) {
      this.byUniqueId.delete(d.uniqueId);
      this.uniqueIdById.delete(d.id);
    } else {
      this.byUniqueId.set(d.uniqueId, d);
      this.uniqueIdById.set(d.id, d.uniqueId);
    }
  }

  /** The device if it is registered and may report; undefined otherwise. */
  async lookup(uniqueId: string): Promise<KnownDevice | undefined> {
    let d = this.byUniqueId.get(uniqueId);
    if (!d) {
      const cached = await this.cache.get(cacheKeys.deviceByUniqueId(uniqueId)).catch(() => null);
      if (cached) {
        const parsed = DeviceRegistryMessage.safeParse(JSON.parse(cached));
        if (parsed.success) {
          d = parsed.data;
          this.apply(d);
        }
      }
    }
    if (!d || d.deleted || d.disabled || d.status === 'pending') return undefined;
    return { id: d.id, uniqueId: d.uniqueId, ...(d.protocol ? { protocol: d.protocol } : {}) };
  }

  /** The owning company of a device lookup has found (company-scoped computed attributes); null when none. */
  companyOf(uniqueId: string): number | null {
    return this.byUniqueId.get(uniqueId)?.companyId ?? null;
  }

  get size(): number {
    return this.byUniqueId.size;
  }

  async stop(): Promise<void> {
    await this.sub?.stop();
  }
}
