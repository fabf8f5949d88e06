import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { cacheKeys, type Cache, type Logger } from '@corridor/platform';
import type { DeviceRegistry } from '../devices/device-registry';
import type { IdentityConflict, IdentityEvents } from '../devices/identity-events';
import type { KnownDevice } from '../positions/normalize';
import type { DecodeResult } from '../protocols/protocol';

/** What one TCP connection has established about the devices it speaks for; shared by its frames, in order. */
export interface ConnectionIdentity {
  /** The devices whose issued code this connection presented (or received at registration): JT/T 808. */
  authenticated?: Set<string>;
}

/** A frame's claim on a device: accepted (with the answer to a registration or authentication), or refused. */
export type IdentityVerdict =
  { accepted: true; ack?: Buffer } | { accepted: false; reason: IdentityConflict | 'unavailable'; reply?: Buffer };

/** The cache did not answer: a code cannot be issued nor checked now (the device tries again on its next connection). */
class CacheUnavailable extends Error {}

/** Protocols whose devices prove themselves with a code the platform issued (JT/T 808 registration and authentication). */
const CODE_PROTOCOLS = new Set(['jt808']);
/** 12 characters of [A-Z2-7]: 60 bits, within what JT/T 808 terminals store (the standard sets no length). */
const newCode = (): string => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  return [...randomBytes(12)].map((b) => alphabet[b & 31]).join('');
};
const CLAIM_MEMORY_MS = 60_000;
const digest = (code: string): Buffer => createHash('sha256').update(code, 'latin1').digest();

/**
 * Who may speak for a device, checked on every frame after the registry lookup and before anything
 * is stored (decoders only report what a frame claims):
 * - a device is bound to one protocol: its administrator's (`protocol` on the device), else the one
 *   it first spoke (claimed in the cache at its first accepted frame; ops-api then stores it on the
 *   device from device-status.v1). A frame for it on another protocol is refused;
 * - JT/T 808: a registration (0x0100) gets a random code when the device has none yet (only its
 *   SHA-256 is kept), else result 3 "terminal already registered"; an authentication (0x0102) must
 *   present that code; a connection sends data only after one of the two succeeded on it.
 * Each refusal closes the connection unacknowledged, is counted and raises a deviceIdentityConflict
 * event for the device (identity-events.ts). What each protocol can and cannot prove: the README.
 *
 * A frame that stores nothing (a login, a heartbeat without state) of an unbound device does not
 * wait for its claim (`stores: false`): the claim is written and the frame accepted, so that a
 * login never waits for the cache's owner (on the one-process stack, the main thread busy with
 * positions). Every frame that would store something for the device waits until the claim is
 * answered, and is refused if another protocol won it meanwhile; so nothing a device sends on a
 * protocol it is not bound to is stored, as before. What an unconfirmed claim may cost: a login
 * acknowledged on the losing protocol of two claims racing, whose connection is closed at its first
 * frame after the answer.
 */
export class DeviceIdentity {
  /**
   * Bindings claimed through this instance or read from the cache, kept a minute: forgotten at once
   * when the registry's protocol of the device changes, and after the minute in case an
   * administrator cleared a binding ops-api had not stored yet (the registry then did not change).
   */
  private readonly claimed = new Map<number, { protocol: string; at: number }>();
  /** Claims written and not answered yet: the protocol claimed, and whether it was granted. */
  private readonly pending = new Map<number, { protocol: string; granted: Promise<boolean> }>();

  constructor(private readonly deps: { cache: Cache; registry: DeviceRegistry; events: IdentityEvents; logger: Logger }) {
    deps.registry.onProtocolChange((id) => this.claimed.delete(id));
  }

  /**
   * Checks one frame's claim on `device`; accepts and binds what it may. While the cache does not
   * answer, a binding is taken from this instance's memory when it has it (else the frame is
   * accepted unbound and the claim waits for a later frame), and a JT/T 808 registration or
   * authentication is refused as `unavailable` (no event: nobody claimed anything wrong).
   */
  async check(
    frame: { protocol: string; remote: string | null; connection?: ConnectionIdentity | undefined },
    device: KnownDevice,
    result: DecodeResult,
    { stores = true }: { stores?: boolean } = {},
  ): Promise<IdentityVerdict> {
    try {
      return await this.decide(frame, device, result, stores);
    } catch (err) {
      if (!(err instanceof CacheUnavailable)) throw err;
      this.deps.logger.warn(
        { err: err.message, deviceId: device.id, protocol: frame.protocol },
        'cache unavailable: JT/T 808 code not issued nor checked',
      );
      return { accepted: false, reason: 'unavailable' };
    }
  }

  private async decide(
    frame: { protocol: string; remote: string | null; connection?: ConnectionIdentity | undefined },
    device: KnownDevice,
    result: DecodeResult,
    stores: boolean,
  ): Promise<IdentityVerdict> {
    const conn = frame.connection;
    const claim = result.identity;
    const bound = await this.boundProtocol(device, stores);
    if (bound !== undefined && bound !== frame.protocol)
      return this.refuse(device, frame, 'protocol', claimRefusal(result), { boundProtocol: bound });

    let ack: Buffer | undefined;
    if (CODE_PROTOCOLS.has(frame.protocol)) {
      const key = cacheKeys.jt808AuthCode(device.id);
      if (claim?.kind === 'register') {
        const code = newCode();
        if (!(await this.codes(() => this.deps.cache.setIfAbsent(key, digest(code).toString('base64'))))) {
          return this.refuse(device, frame, 'jt808_registered', claim.answer({ refused: 'registered' }));
        }
        ack = claim.answer({ code });
      } else if (claim?.kind === 'authenticate') {
        const stored = await this.codes(() => this.deps.cache.get(key));
        const ok = stored !== null && timingSafeEqual(Buffer.from(stored, 'base64'), digest(claim.code));
        if (!ok) return this.refuse(device, frame, 'jt808_code', claim.answer(false), { registered: stored === null ? 'no' : 'yes' });
        ack = claim.answer(true);
      } else if (!conn?.authenticated?.has(device.uniqueId)) {
        return this.refuse(device, frame, 'jt808_unauthenticated');
      }
      if (conn) (conn.authenticated ??= new Set()).add(device.uniqueId);
    }
    if (bound === undefined) {
      const granted = this.claim(device, frame.protocol);
      if (!stores && !CODE_PROTOCOLS.has(frame.protocol)) return { accepted: true, ...(ack ? { ack } : {}) };
      if (!(await granted))
        return this.refuse(device, frame, 'protocol', claimRefusal(result), {
          boundProtocol: this.claimed.get(device.id)?.protocol ?? null,
        });
    }
    return { accepted: true, ...(ack ? { ack } : {}) };
  }

  /** A refused claim: raised as an identity event, answered with `reply` (a method, not a closure made per frame: issue 28). */
  private async refuse(
    device: KnownDevice,
    frame: { protocol: string; remote: string | null },
    reason: IdentityConflict,
    reply?: Buffer,
    extra: Record<string, string | null> = {},
  ): Promise<IdentityVerdict> {
    await this.deps.events.raise(device, reason, { protocol: frame.protocol, remote: frame.remote, ...extra });
    return { accepted: false, reason, ...(reply ? { reply } : {}) };
  }

  /** The HTTP device ports (OsmAnd) have no connection state: only the protocol binding applies. */
  async checkProtocol(device: KnownDevice, protocol: string, remote: string | null): Promise<boolean> {
    return (await this.check({ protocol, remote }, device, { kind: 'position', positions: [], crcValid: true })).accepted;
  }

  private remember(deviceId: number, protocol: string | null): void {
    if (protocol) this.claimed.set(deviceId, { protocol, at: performance.now() });
    else this.claimed.delete(deviceId);
  }

  private async codes<T>(op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (err) {
      throw new CacheUnavailable(err instanceof Error ? err.message : String(err));
    }
  }

  /**
   * The administrator's protocol, else the one claimed first; undefined while the device is unbound
   * (or the cache does not answer). A claim of this instance not answered yet counts for a frame
   * that stores nothing; one that stores waits for the answer.
   */
  private async boundProtocol(device: KnownDevice, stores: boolean): Promise<string | undefined> {
    if (device.protocol) return device.protocol;
    const waiting = this.pending.get(device.id);
    if (waiting && !stores) return waiting.protocol;
    if (waiting) await waiting.granted;
    const known = this.claimed.get(device.id);
    if (known && performance.now() - known.at < CLAIM_MEMORY_MS) return known.protocol;
    const stored = await this.deps.cache.get(cacheKeys.deviceProtocol(device.id)).catch(() => known?.protocol ?? null);
    this.remember(device.id, stored);
    return stored ?? undefined;
  }

  /** Writes the claim, known to this instance's frames until it is answered (whether it was granted). */
  private claim(device: KnownDevice, protocol: string): Promise<boolean> {
    const current = this.pending.get(device.id);
    if (current?.protocol === protocol) return current.granted;
    const granted = this.bind(device, protocol).finally(() => {
      if (this.pending.get(device.id)?.granted === granted) this.pending.delete(device.id);
    });
    this.pending.set(device.id, { protocol, granted });
    return granted;
  }

  /** Claims the device for `protocol`; false when another protocol claimed it meanwhile. Without the cache the claim waits for a later frame. */
  private async bind(device: KnownDevice, protocol: string): Promise<boolean> {
    const key = cacheKeys.deviceProtocol(device.id);
    try {
      if (await this.deps.cache.setIfAbsent(key, protocol)) {
        this.remember(device.id, protocol);
        this.deps.logger.info({ deviceId: device.id, uniqueId: device.uniqueId, protocol }, 'device bound to the protocol it first spoke');
        return true;
      }
      const winner = await this.deps.cache.get(key);
      this.remember(device.id, winner);
      return winner === null || winner === protocol;
    } catch (err) {
      this.deps.logger.warn(
        { err: (err as Error).message, deviceId: device.id, protocol },
        'cache unavailable: protocol binding not claimed yet',
      );
      return true;
    }
  }
}

/**
 * The refusal a registration or authentication is answered with before the connection closes, from
 * an unknown device or on a foreign protocol (JT/T 808: 0x8100 result 4 "no such terminal", 0x8001 result 1).
 */
export function claimRefusal(result: DecodeResult): Buffer | undefined {
  const claim = result.identity;
  if (claim?.kind === 'register') return claim.answer({ refused: 'unknown' });
  if (claim?.kind === 'authenticate') return claim.answer(false);
  return undefined;
}
