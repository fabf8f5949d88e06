import { DeviceRegistryMessage } from '@corridor/contracts';
import { cacheKeys, DeviceRegistryView, type Bus, type Cache, type Logger } from '@corridor/platform';

export interface DeviceInfo {
  groupId: number | null;
  companyId: number | null;
  /** the device's own attributes (event settings such as event.geofence.segmentCrossing) */
  attributes: Record<string, unknown>;
}

const infoOf = (d: DeviceRegistryMessage): DeviceInfo => ({ groupId: d.groupId, companyId: d.companyId, attributes: d.attributes ?? {} });

/**
 * Group, company and attributes of each device, for fence links, company scoping and settings:
 * platform's view of devices.v1, with ops-api's registry entry in the shared cache (keyed by unique
 * id, which every position carries) as the fallback. The fallback is what lets a restarted
 * evaluator apply group links from its first position, before devices.v1 has been read again.
 */
export class DeviceDirectory {
  private readonly view: DeviceRegistryView;

  constructor(
    bus: Bus,
    private readonly cache: Cache,
    logger: Logger,
  ) {
    this.view = new DeviceRegistryView({ bus, cache, logger, groupPrefix: 'geofence-devices' });
  }

  start(): Promise<void> {
    return this.view.start();
  }

  apply(d: DeviceRegistryMessage): void {
    this.view.apply(d);
  }

  known(deviceId: number): DeviceInfo | undefined {
    const d = this.view.get(deviceId);
    return d ? infoOf(d) : undefined;
  }

  /** Info of each device, from the view or (one cache round trip for the misses) the registry cache. */
  async lookup(devices: readonly { deviceId: number; uniqueId: string }[]): Promise<Map<number, DeviceInfo>> {
    const out = new Map<number, DeviceInfo>();
    for (const [id, d] of await this.view.findMany(devices)) out.set(id, infoOf(d));
    return out;
  }

  /** The device's company: ops-api's registry entry by id in the shared cache, else the devices.v1 copy; undefined when unknown. */
  async companyOf(deviceId: number): Promise<number | null | undefined> {
    const raw = await this.cache.get(cacheKeys.deviceById(deviceId)).catch(() => null);
    let entry: ReturnType<typeof DeviceRegistryMessage.safeParse> | undefined;
    try {
      entry = raw ? DeviceRegistryMessage.safeParse(JSON.parse(raw)) : undefined;
    } catch {
      entry = undefined;
    }
    if (entry?.success) return entry.data.deleted ? undefined : entry.data.companyId;
    return this.known(deviceId)?.companyId;
  }

  stop(): Promise<void> {
    return this.view.stop();
  }
}
