import type { Cache, Clock, Logger } from '@corridor/platform';
import type { IdentityEvents } from './identity-events';

/** One connection of a device as every ingest instance sees it (a field of the device's hash in the cache). */
interface Seen {
  opened: number;
  seen: number;
  remote: string;
  protocol: string;
}

const key = (deviceId: number): string => `ingest:connections:${deviceId}`;
/** A connection not heard of for this long is an instance that stopped without saying so: its field is dropped. */
const STALE_MS = 86_400_000;

/**
 * Two connections claiming one device at once, across every ingest instance (the device's
 * connections are a hash in the cache: opened and last-seen times per connection). A device that
 * reconnects while its old connection is still half-open is not a duplicate: the old one never
 * sends again. Two connections are a duplicate when both sent frames after the later one opened:
 * then two senders speak for the device, and its owner and the association get a
 * deviceIdentityConflict event (reason duplicate_connection), at most one per device every 10
 * minutes. Both connections go on (which one is the device cannot be told from here); Traccar
 * accepts both silently. Checked when a connection identifies the device and then with its
 * device-status `seen` messages (at most every DEVICE_SEEN_INTERVAL_S).
 */
export class DuplicateConnections {
  constructor(private readonly deps: { cache: Cache; clock: Clock; events: IdentityEvents; logger: Logger }) {}

  /**
   * The connection identified the device (`opened`: the arrival of that frame) or sent a frame for it
   * again (`at`: its arrival, not when it was handled, so frames of a connection that died while they
   * waited for the bus do not count as heard after its successor opened). Recorded, and compared with
   * the device's other connections.
   */
  async heard(
    device: { id: number; uniqueId: string },
    connectionId: string,
    opened: number,
    at: number,
    remote: string,
    protocol: string,
  ): Promise<void> {
    const now = this.deps.clock.now().getTime();
    const own: Seen = { opened, seen: at, remote, protocol };
    try {
      await this.deps.cache.hset(key(device.id), { [connectionId]: JSON.stringify(own) });
      const all = await this.deps.cache.hgetall(key(device.id));
      const stale: string[] = [];
      let other: Seen | undefined;
      for (const [id, raw] of Object.entries(all)) {
        if (id === connectionId) continue;
        const s = JSON.parse(raw) as Seen;
        if (now - s.seen > STALE_MS) stale.push(id);
        else if (Math.min(s.seen, own.seen) >= Math.max(s.opened, own.opened)) other = s; // both sent after the later one opened
      }
      if (stale.length) await this.deps.cache.hdel(key(device.id), ...stale);
      if (other) {
        await this.deps.events.raise(device, 'duplicate_connection', {
          protocol,
          remote,
          otherRemote: other.remote,
          otherProtocol: other.protocol,
          otherSince: new Date(other.opened).toISOString(),
        });
      }
    } catch (err) {
      this.deps.logger.warn({ err: (err as Error).message, deviceId: device.id }, 'cache unavailable: duplicate connections not checked');
    }
  }

  /** The connection closed (or speaks for another device now). */
  async gone(deviceId: number, connectionId: string): Promise<void> {
    await this.deps.cache.hdel(key(deviceId), connectionId).catch(() => undefined);
  }
}
