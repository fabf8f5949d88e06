import { randomUUID } from 'node:crypto';
import { Topics, type DeviceSessionMessage } from '@corridor/contracts';
import { counter, type Bus, type Clock, type Logger } from '@corridor/platform';
import type { DuplicateConnections } from './duplicate-connections';

const published = counter('ingest_device_sessions_total', 'Device connection messages on device-status.v1', ['type', 'outcome']);

/** One identified device on one connection: tells device-status.v1 it is seen (throttled) and when it ends. */
export interface DeviceSession {
  /** A frame of the device, received at `at`, was handled on this connection. */
  seen(at?: Date): void;
  /** The connection closed (or now speaks for another device). */
  end(): void;
}

/**
 * Ingest's half of the device status (ops-api keeps the state, see services/ops-api/src/device-state):
 * `connected` when a known device is first identified on a TCP connection, `seen` for its later
 * frames at most every `seenIntervalMs` (positions themselves reach ops-api on positions.v1, so this
 * only keeps a device that sends heartbeats alone online), `disconnected` when the connection ends.
 * Messages are published in order per device and never hold a frame or its ack back: a failed
 * publish is counted and logged (the status timeout corrects a lost one).
 */
export class DeviceSessions {
  private readonly instance = randomUUID().slice(0, 8);
  private sequence = 0;
  private readonly tails = new Map<number, Promise<void>>();

  /** `duplicates`: compares the device's connections across instances on `connected` and `seen` (duplicate-connections.ts). */
  constructor(
    private readonly deps: { bus: Bus; clock: Clock; logger: Logger; seenIntervalMs: number; duplicates?: DuplicateConnections },
  ) {}

  /** `at`: arrival of the frame that identified the device; `remote`: the connection's address. */
  start(device: { id: number; uniqueId: string }, protocol: string, remote = '', at: Date = this.deps.clock.now()): DeviceSession {
    const connectionId = `${this.instance}:${++this.sequence}`;
    const opened = at.getTime();
    let lastSent = this.deps.clock.now().getTime();
    let ended = false;
    this.send(device, protocol, connectionId, 'connected');
    void this.deps.duplicates?.heard(device, connectionId, opened, opened, remote, protocol);
    return {
      seen: (frameAt) => {
        const now = this.deps.clock.now().getTime();
        if (ended || now - lastSent < this.deps.seenIntervalMs) return;
        lastSent = now;
        this.send(device, protocol, connectionId, 'seen');
        void this.deps.duplicates?.heard(device, connectionId, opened, (frameAt ?? this.deps.clock.now()).getTime(), remote, protocol);
      },
      end: () => {
        if (ended) return;
        ended = true;
        this.send(device, protocol, connectionId, 'disconnected');
        void this.deps.duplicates?.gone(device.id, connectionId);
      },
    };
  }

  /** Resolves once every message handed over so far was published (or failed), or after `maxMs` (a bus that is down must not hold a shutdown). */
  async drain(maxMs = 5000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all([...this.tails.values()]), new Promise<void>((r) => (timer = setTimeout(r, maxMs)))]);
    clearTimeout(timer);
  }

  private send(device: { id: number; uniqueId: string }, protocol: string, connectionId: string, type: DeviceSessionMessage['type']): void {
    const message: DeviceSessionMessage = {
      deviceId: device.id,
      uniqueId: device.uniqueId,
      type,
      connectionId,
      protocol,
      time: this.deps.clock.now().toISOString(),
    };
    const before = this.tails.get(device.id) ?? Promise.resolve();
    const tail = before.then(async () => {
      try {
        await this.deps.bus.publish(Topics.deviceStatus, [{ key: String(device.id), value: message }]);
        published.inc({ type, outcome: 'ok' });
      } catch (err) {
        published.inc({ type, outcome: 'failed' });
        this.deps.logger.warn(
          { err: (err as Error).message, deviceId: device.id, type },
          'device session message not published (the status timeout will correct it)',
        );
      }
    });
    this.tails.set(device.id, tail);
    void tail.then(() => {
      if (this.tails.get(device.id) === tail) this.tails.delete(device.id);
    });
  }
}
