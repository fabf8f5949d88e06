import { MAX_POSITION_DEVICE_ID, type PositionMessage } from '@corridor/contracts';
import { AppError, counter, type Bus, type Clock, type Logger } from '@corridor/platform';
import type { DecodedPosition } from '../protocols/protocol';
import type { DeviceRegistry } from '../devices/device-registry';
import { unknownDevices } from '../devices/device-registry';
import { toPositionMessage } from './normalize';
import { publishPositions } from './publisher';
import { rejectedPositions, sanityCheck } from './sanity';
import type { ComputedAttributes } from './computed-attributes';

const received = counter('ingest_positions_received_total', 'Decoded positions received, before checks', ['protocol']);

export interface IncomingFix {
  uniqueId: string;
  position: DecodedPosition;
}

export interface IntakeMeta {
  protocol: string;
  crcValid?: boolean;
  rawFrameId?: string | null;
}

/**
 * The one path from decoded fixes to the bus, shared by every protocol and the JSON API:
 * identify the device, run the sanity check, normalize, apply computed attributes, publish, and only then return.
 * All-or-nothing: if any fix of the call is refused, nothing is published and the error lists each.
 */
export class PositionIntake {
  constructor(private readonly deps: { bus: Bus; registry: DeviceRegistry; clock: Clock; logger: Logger; computed?: ComputedAttributes }) {}

  async accept(fixes: IncomingFix[], meta: IntakeMeta): Promise<PositionMessage[]> {
    const now = this.deps.clock.now();
    await this.deps.computed?.refresh();
    received.inc({ protocol: meta.protocol }, fixes.length);
    const out: PositionMessage[] = [];
    const unknown: { index: number; uniqueId: string }[] = [];
    const insane: { index: number; uniqueId: string; reason: string }[] = [];
    for (const [index, fix] of fixes.entries()) {
      const device = await this.deps.registry.lookup(fix.uniqueId);
      if (!device) {
        unknown.push({ index, uniqueId: fix.uniqueId });
        continue;
      }
      // position ids hold device ids up to 2^20 - 1 (position-id.ts): a device beyond cannot store positions
      const reason = device.id > MAX_POSITION_DEVICE_ID ? 'device_id_range' : sanityCheck(fix.position, now);
      if (reason) {
        insane.push({ index, uniqueId: fix.uniqueId, reason });
        continue;
      }
      const message = toPositionMessage(fix.position, device, { protocol: meta.protocol, serverTime: now, crcValid: meta.crcValid ?? true, rawFrameId: meta.rawFrameId ?? null });
      out.push(this.deps.computed ? this.deps.computed.apply(message, this.deps.registry.companyOf(device.uniqueId)) : message);
    }
    if (unknown.length) {
      unknownDevices.inc({ protocol: meta.protocol }, unknown.length);
      this.deps.logger.warn({ protocol: meta.protocol, unknown: unknown.slice(0, 5) }, 'positions from unknown devices rejected');
      throw new AppError('UNKNOWN_DEVICE', `Unknown device${unknown.length > 1 ? 's' : ''}: ${[...new Set(unknown.map((u) => u.uniqueId))].slice(0, 5).join(', ')}`, { unknown });
    }
    if (insane.length) {
      for (const i of insane) rejectedPositions.inc({ protocol: meta.protocol, reason: i.reason });
      throw new AppError('VALIDATION_FAILED', `Position failed the sanity check (${insane[0]!.reason})`, { rejected: insane });
    }
    await publishPositions(this.deps.bus, out);
    return out;
  }
}
