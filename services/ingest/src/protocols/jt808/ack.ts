import { encodeJt808, type Jt808Header } from './frame';

/**
 * Platform replies (JT/T 808-2013/2019 sections 8.2 and 8.5): the general response 0x8001
 * (reply serial WORD, reply message id WORD, result BYTE) and the registration response 0x8100
 * (reply serial WORD, result BYTE, authentication code STRING when the result is 0).
 */
const JT808_GENERAL_RESPONSE = 0x8001;
/** The vendor answer to 0x5501/0x5502 (Traccar's MSG_GENERAL_RESPONSE_2): message id WORD, result BYTE, one-byte serial. */
const JT808_GENERAL_RESPONSE_2 = 0x4401;
const JT808_REGISTER_RESPONSE = 0x8100;

/** General response results. */
export const JT808_RESULT = { ok: 0, failure: 1, messageError: 2, notSupported: 3 } as const;

/** Registration response results (0x8100; JT/T 808-2013/2019 section 8.5). */
export const JT808_REGISTER_RESULT = { ok: 0, vehicleRegistered: 1, noVehicle: 2, terminalRegistered: 3, noTerminal: 4 } as const;

/** Per-connection serial of the platform's own messages. */
export interface Jt808Serial {
  jt808Serial?: number;
}

export function nextJt808Serial(session: Jt808Serial): number {
  const serial = session.jt808Serial ?? 0;
  session.jt808Serial = (serial + 1) & 0xffff;
  return serial;
}

export function encodeJt808GeneralResponse(to: Jt808Header, platformSerial: number, result: number = JT808_RESULT.ok): Buffer {
  const body = Buffer.alloc(5);
  body.writeUInt16BE(to.serial, 0);
  body.writeUInt16BE(to.msgId, 2);
  body.writeUInt8(result, 4);
  return encodeJt808(JT808_GENERAL_RESPONSE, to, platformSerial, body);
}

export function encodeJt808VendorResponse(to: Jt808Header, platformSerial: number): Buffer {
  const body = Buffer.alloc(3);
  body.writeUInt16BE(to.msgId, 0);
  body.writeUInt8(JT808_RESULT.ok, 2);
  return encodeJt808(JT808_GENERAL_RESPONSE_2, to, platformSerial, body, true);
}

/** 0x8100: the authentication code on success; a refusal (3 terminal already registered, 4 no such terminal) carries none. */
export function encodeJt808RegisterResponse(
  to: Jt808Header,
  platformSerial: number,
  outcome: { code: string } | { refused: 'registered' | 'unknown' },
): Buffer {
  const code = 'code' in outcome ? Buffer.from(outcome.code, 'latin1') : Buffer.alloc(0);
  const result =
    'code' in outcome
      ? JT808_REGISTER_RESULT.ok
      : outcome.refused === 'registered'
        ? JT808_REGISTER_RESULT.terminalRegistered
        : JT808_REGISTER_RESULT.noTerminal;
  const body = Buffer.alloc(3 + code.length);
  body.writeUInt16BE(to.serial, 0);
  body.writeUInt8(result, 2);
  code.copy(body, 3);
  return encodeJt808(JT808_REGISTER_RESPONSE, to, platformSerial, body);
}
