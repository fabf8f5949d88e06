import type { DeviceRegistryMessage } from '@corridor/contracts';
import { counter, DeviceRegistryView, type Bus, type Cache, type Logger } from '@corridor/platform';
import type { KnownDevice } from '../positions/normalize';

export const unknownDevices = counter('ingest_unknown_device_total', 'Messages from device ids not in the registry', ['protocol']);

/**
 * The device registry as ingest sees it: platform's view of devices.v1 (read from the beginning by
 * every ingest instance, with the shared cache as the fallback for a device created moments ago),
 * answering who may report and telling the protocol claims when a device's binding changes.
 */
export class DeviceRegistry {
  private readonly view: DeviceRegistryView;
  private readonly protocolListeners: ((deviceId: number) => void)[] = [];

  constructor(bus: Bus, cache: Cache, logger: Logger) {
    this.view = new DeviceRegistryView({ bus, cache, logger, groupPrefix: 'ingest-registry' });
    this.view.onApply((d, before) => {
      if ((before?.protocol ?? null) !== (d.deleted ? null : (d.protocol ?? null)) || d.deleted)
        for (const l of this.protocolListeners) l(d.id);
    });
  }

  start(): Promise<void> {
    return this.view.start();
  }

  /** Called when a device's protocol binding (set by its administrator, or stored by ops-api) changes or the device goes. */
  onProtocolChange(listener: (deviceId: number) => void): void {
    this.protocolListeners.push(listener);
  }

  apply(d: DeviceRegistryMessage): void {
    this.view.apply(d);
  }

  /** The device if it is registered and may report; undefined otherwise. */
  async lookup(uniqueId: string): Promise<KnownDevice | undefined> {
    const d = await this.view.findByUniqueId(uniqueId);
    if (!d || d.deleted || d.disabled || d.status === 'pending') return undefined;
    return { id: d.id, uniqueId: d.uniqueId, ...(d.protocol ? { protocol: d.protocol } : {}) };
  }

  /** The owning company of a device lookup has found (company-scoped computed attributes); null when none. */
  companyOf(uniqueId: string): number | null {
    return this.view.getByUniqueId(uniqueId)?.companyId ?? null;
  }

  get size(): number {
    return this.view.size;
  }

  stop(): Promise<void> {
    return this.view.stop();
  }
}
