import { DecodeError, type ProtocolSession } from '../protocol';
import { nextJt808Serial, type Jt808Serial } from './ack';
import { encodeJt808, type Jt808Address } from './frame';

/**
 * Downlink commands (JT/T 808-2013/2019 sections 8.18 and 8.24; the engine words from Traccar's
 * HuabaoProtocolEncoder): 0x8105 terminal control (command word BYTE + parameters), 0x8300 text
 * message (flag BYTE [2019: text type BYTE] + GBK text).
 * - engineStop / engineResume: 0x8105 with the vendor words 0xF0 / 0xF1 (fuel/power cut relay);
 * - rebootDevice: 0x8105 word 4 (terminal reset);
 * - message: 0x8300 with attributes.message, shown on the terminal (flag bit 2) and read aloud (bit 3);
 *   printable ASCII only (a subset of GBK: no GBK encoder is needed for the corridors' languages).
 * The terminal answers with 0x0001 (general response), decoded as a command result.
 */
const JT808_TERMINAL_CONTROL = 0x8105;
const JT808_TEXT_MESSAGE = 0x8300;
const TEXT_FLAG_DISPLAY_AND_TTS = 0x0c;

export interface Jt808Session extends ProtocolSession, Jt808Serial {
  /** The terminal's addressing, learned from its frames. */
  jt808?: Jt808Address;
}

export function encodeJt808Command(cmd: { type: string; attributes?: Record<string, unknown> }, session: Jt808Session): Buffer {
  const to = session.jt808;
  if (!to) throw new DecodeError('bad_command', 'jt808: the terminal has not sent a frame on this connection yet');
  const control = (word: number) => encodeJt808(JT808_TERMINAL_CONTROL, to, nextJt808Serial(session), Buffer.from([word]));
  switch (cmd.type) {
    case 'engineStop':
      return control(0xf0);
    case 'engineResume':
      return control(0xf1);
    case 'rebootDevice':
      return control(0x04);
    case 'message': {
      const text = cmd.attributes?.message;
      if (typeof text !== 'string' || !/^[\x20-\x7e]+$/.test(text))
        throw new DecodeError('bad_command', 'jt808: message needs attributes.message in printable ASCII');
      const encoded = Buffer.from(text, 'latin1');
      const head = to.v2019 ? Buffer.from([TEXT_FLAG_DISPLAY_AND_TTS, 0x01]) : Buffer.from([TEXT_FLAG_DISPLAY_AND_TTS]);
      return encodeJt808(JT808_TEXT_MESSAGE, to, nextJt808Serial(session), Buffer.concat([head, encoded]));
    }
    default:
      throw new DecodeError('unsupported_command', `jt808: command ${cmd.type} is not supported`);
  }
}
