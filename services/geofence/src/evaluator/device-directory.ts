import { randomUUID } from 'node:crypto';
import { DeviceRegistryMessage, Topics } from '@corridor/contracts';
import { cacheKeys, consumeValidated, type Bus, type Cache, type Logger, type Subscription } from '@corridor/platform';

export interface DeviceInfo {
  groupId: number | null;
  companyId: number | null;
  /** the device's own attributes (event settings such as event.geofence.segmentCrossing) */
  attributes: Record<string, unknown>;
}

const infoOf = (d: DeviceRegistryMessage): DeviceInfo => ({ groupId: d.groupId, companyId: d.companyId, attributes: d.attributes ?? {} });

/**
 * Group, company and attributes of each device, for fence links, company scoping and settings: a map filled from the
 * compacted devices.v1 topic, with ops-api's registry entry in the shared cache (keyed by unique
 * id, which every position carries) as the fallback. The fallback is what lets a restarted
 * evaluator apply group links from its first position, before devices.v1 has been read again.
 */
export class DeviceDirectory {
  private readonly byId = new Map<number, DeviceInfo>();
  private sub: Subscription | undefined;

  constructor(private readonly bus: Bus, private readonly cache: Cache, private readonly logger: Logger) {}

  async start(): Promise<void> {
    this.sub = await consumeValidated({
      bus: this.bus,
      logger: this.logger,
      groupId: `geofence-devices-${randomUUID()}`,
      topic: Topics.devices,
      schema: DeviceRegistryMessage,
      fromBeginning: true,
      handle: async (msgs) => {
        for (const d of msgs) this.apply(d);
      },
    });
  }

  apply(d: DeviceRegistryMessage): void {
    if (d.deleted) this.byId.delete(d.id);
    else this.byId.set(d.id, infoOf(d));
  }

  known(deviceId: number): DeviceInfo | undefined {
    return this.byId.get(deviceId);
  }

  /** Info of each device, from the map or (one cache round trip for the misses) the registry cache. */
  async lookup(devices: readonly { deviceId: number; uniqueId: string }[]): Promise<Map<number, DeviceInfo>> {
    const out = new Map<number, DeviceInfo>();
    const misses: { deviceId: number; uniqueId: string }[] = [];
    for (const d of devices) {
      const info = this.byId.get(d.deviceId);
      if (info) out.set(d.deviceId, info);
      else if (!out.has(d.deviceId)) misses.push(d);
    }
    if (!misses.length) return out;
    let cached: (string | null)[] = [];
    try {
      cached = await this.cache.mget(misses.map((d) => cacheKeys.deviceByUniqueId(d.uniqueId)));
    } catch (err) {
      this.logger.warn({ err }, 'device registry cache unavailable; group links of unknown devices do not apply');
    }
    misses.forEach((d, i) => {
      const raw = cached[i];
      if (!raw) return;
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch {
        return;
      }
      const parsed = DeviceRegistryMessage.safeParse(json);
      if (parsed.success && parsed.data.id === d.deviceId && !parsed.data.deleted) {
        this.apply(parsed.data);
        out.set(d.deviceId, infoOf(parsed.data));
      }
    });
    return out;
  }

  async stop(): Promise<void> {
    await this.sub?.stop();
  }
}
