import { DecodeError, type Protocol } from '../protocol';
import { decodeJt701Binary } from './binary';
import { splitJt701Frames, unescapeJt701 } from './frame';
import { decodeWlnet, isWlnet } from './wlnet';
import { decodeJt701Text } from './text';

/** Traccar's default port of its Jointech decoder ("jt600"). */
export const JT701_PORT = 5014;

/**
 * Downlink: `custom` only, its `attributes.data` sent as the text command it is (`(P..,...)`);
 * the seal's own command set (remote unlock, passwords) is not published with layouts to rely on.
 */
function encodeJt701Command(cmd: { type: string; attributes?: Record<string, unknown> }): Buffer {
  if (cmd.type !== 'custom') throw new DecodeError('unsupported_command', `jt701: command ${cmd.type} is not supported`);
  const data = cmd.attributes?.data;
  if (typeof data !== 'string' || !/^\([\x20-\x7e]+\)$/.test(data))
    throw new DecodeError('bad_command', 'jt701: custom needs attributes.data as "(...)" in printable ASCII');
  return Buffer.from(data, 'latin1');
}

/** Jointech JT701/JT709 seals and JT600 vehicle trackers, binary and text, over TCP. */
export const jt701Protocol: Protocol = {
  name: 'jt701',
  defaultPort: JT701_PORT,
  transport: ['tcp'],
  splitFrames: splitJt701Frames,
  decode: (frame, session) => {
    try {
      if (frame[0] !== 0x28) return decodeJt701Binary(frame, session);
      const text = unescapeJt701(frame);
      return isWlnet(text) ? decodeWlnet(text, session) : decodeJt701Text(text, session);
    } catch (err) {
      if (err instanceof RangeError) throw new DecodeError('truncated', `jt701: ${err.message}`);
      throw err;
    }
  },
  encodeCommand: encodeJt701Command,
};

export { splitJt701Frames, isLongFormat, unescapeJt701 } from './frame';
export { decodeJt701Binary } from './binary';
export { decodeJt701Text } from './text';
export { SEAL_ALARM_BITS, readSealStatus } from './seal';
