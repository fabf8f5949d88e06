import { randomUUID } from 'node:crypto';
import { DeviceRegistryMessage, Topics } from '@corridor/contracts';
import { consumeValidated, type Bus, type Logger, type Subscription } from '@corridor/platform';

/**
 * Which company (and group) each device belongs to, as the live feed needs it to filter: a map
 * filled from the compacted devices.v1 topic, read from the beginning by every gateway instance
 * (its own consumer group).
 */
export class DeviceDirectory {
  private readonly devices = new Map<number, DeviceRegistryMessage>();
  private sub: Subscription | undefined;

  constructor(
    private readonly bus: Bus,
    private readonly logger: Logger,
    private readonly onChange: (devices: DeviceRegistryMessage[]) => void = () => undefined,
  ) {}

  async start(): Promise<void> {
    this.sub = await consumeValidated({
      bus: this.bus,
      logger: this.logger,
      groupId: `gateway-devices-${randomUUID()}`,
      topic: Topics.devices,
      schema: DeviceRegistryMessage,
      fromBeginning: true,
      handle: async (msgs) => {
        for (const d of msgs) this.apply(d);
        this.onChange(msgs);
      },
    });
  }

  apply(d: DeviceRegistryMessage): void {
    if (d.deleted) this.devices.delete(d.id);
    else this.devices.set(d.id, d);
  }

  get(id: number): DeviceRegistryMessage | undefined {
    return this.devices.get(id);
  }

  ids(): number[] {
    return [...this.devices.keys()];
  }

  get size(): number {
    return this.devices.size;
  }

  async stop(): Promise<void> {
    await this.sub?.stop();
  }
}
