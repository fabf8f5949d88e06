import type { Protocol, ProtocolSession } from '../protocols/protocol';

/** An open device connection as the command path sees it. */
export interface DeviceLink {
  readonly protocol: Protocol;
  readonly session: ProtocolSession;
  readonly remote: string;
  /** False once the connection closed. */
  readonly open: boolean;
  /** Writes bytes to the device (downlink); false when the connection is gone. */
  write(bytes: Buffer): boolean;
}

/**
 * unique id → the device's open connection on this instance (the latest one wins when a device
 * reconnects before its old connection timed out). The command dispatcher listens for bindings to
 * send what was queued while the device was away.
 */
export class ConnectionRegistry {
  private readonly byUniqueId = new Map<string, DeviceLink>();
  private readonly listeners = new Set<(uniqueId: string, link: DeviceLink) => void>();

  bind(uniqueId: string, link: DeviceLink): void {
    this.byUniqueId.set(uniqueId, link);
    for (const l of this.listeners) l(uniqueId, link);
  }

  unbind(uniqueId: string, link: DeviceLink): void {
    if (this.byUniqueId.get(uniqueId) === link) this.byUniqueId.delete(uniqueId);
  }

  get(uniqueId: string): DeviceLink | undefined {
    const link = this.byUniqueId.get(uniqueId);
    return link?.open ? link : undefined;
  }

  onBound(listener: (uniqueId: string, link: DeviceLink) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get size(): number {
    return this.byUniqueId.size;
  }
}
