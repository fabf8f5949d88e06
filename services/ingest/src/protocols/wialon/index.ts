import { DecodeError, type Protocol } from '../protocol';
import { crc16Arc } from '../crc16';
import { decodeWialon, type WialonSession } from './decode';
import { splitWialonFrames } from './frame';

/** Traccar's default port of its Wialon IPS decoder ("wialon"). */
export const WIALON_PORT = 5039;

/**
 * Downlink: the document's message to the driver, `#M#<text>\r\n` (2.0: `#M#<text>;<crc16>\r\n`),
 * which Wialon IPS trackers show or run as a command: `message` (attributes.message) and `custom`
 * (attributes.data, the command text as the tracker's manual gives it). Printable text only.
 */
export function encodeWialonCommand(cmd: { type: string; attributes?: Record<string, unknown> }, session: WialonSession): Buffer {
  const text = cmd.type === 'message' ? cmd.attributes?.message : cmd.type === 'custom' ? cmd.attributes?.data : undefined;
  if (cmd.type !== 'message' && cmd.type !== 'custom')
    throw new DecodeError('unsupported_command', `wialon: command ${cmd.type} is not supported`);
  if (typeof text !== 'string' || !/^[^#]+$/.test(text) || [...text].some((c) => c.charCodeAt(0) < 0x20))
    throw new DecodeError(
      'bad_command',
      `wialon: ${cmd.type} needs attributes.${cmd.type === 'message' ? 'message' : 'data'} as one line of text without '#'`,
    );
  if (session.wialonVersion !== '2.0') return Buffer.from(`#M#${text}\r\n`, 'utf8');
  const crc = crc16Arc(Buffer.from(`${text};`, 'utf8'))
    .toString(16)
    .toUpperCase()
    .padStart(4, '0');
  return Buffer.from(`#M#${text};${crc}\r\n`, 'utf8');
}

/** Wialon IPS 1.1 and 2.0 over TCP. */
export const wialonProtocol: Protocol = {
  name: 'wialon',
  defaultPort: WIALON_PORT,
  transport: ['tcp'],
  splitFrames: splitWialonFrames,
  decode: (frame, session) => decodeWialon(frame, session),
  encodeCommand: encodeWialonCommand,
};

/** The reply that refuses an unknown device at login. */
export const wialonLoginReject = (): Buffer => Buffer.from('#AL#0\r\n', 'latin1');

export { crc16Arc } from '../crc16';
export { decodeWialon, type WialonSession } from './decode';
export { splitWialonFrames } from './frame';
