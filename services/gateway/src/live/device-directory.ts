import type { DeviceRegistryMessage } from '@corridor/contracts';
import { DeviceRegistryView, type Bus, type Logger } from '@corridor/platform';

/**
 * Which company (and group) each device belongs to, as the live feed needs it to filter:
 * platform's view of devices.v1, read from the beginning by every gateway instance (its own
 * consumer group). `onChange` hears every batch read.
 */
export class DeviceDirectory {
  private readonly view: DeviceRegistryView;

  constructor(bus: Bus, logger: Logger, onChange: (devices: DeviceRegistryMessage[]) => void = () => undefined) {
    this.view = new DeviceRegistryView({ bus, logger, groupPrefix: 'gateway-devices' });
    this.view.onBatch(onChange);
  }

  start(): Promise<void> {
    return this.view.start();
  }

  apply(d: DeviceRegistryMessage): void {
    this.view.apply(d);
  }

  get(id: number): DeviceRegistryMessage | undefined {
    return this.view.get(id);
  }

  ids(): number[] {
    return this.view.ids();
  }

  get size(): number {
    return this.view.size;
  }

  stop(): Promise<void> {
    return this.view.stop();
  }
}
