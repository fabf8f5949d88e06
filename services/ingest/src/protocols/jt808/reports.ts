import { bcdDateTime, bcdString } from '../bcd';
import type { DecodedPosition, DecodeResult } from '../protocol';
import { Alarms, commandResult, positionsResult, stateResult, type Attributes } from '../result';
import { decodeJt808Location, JT808_BASIC_LENGTH, JT808_TIME_OFFSET_MINUTES } from './location';

/**
 * JT/T 808 terminal messages besides registration, location and batch (section numbers of
 * JT/T 808-2013/2019; vendor messages as Traccar's Jt808ProtocolDecoder reads them):
 * - 0x0107 terminal attributes (8.8): model, terminal id, ICCID, hardware and firmware versions;
 * - 0x0702 driver identity (8.45): card inserted/removed, time, read result, name, qualification
 *   certificate code (`driverUniqueId`, Traccar's `cardCode`), issuing agency, validity;
 * - 0x0701 electronic waybill (8.44): the text, as a command result (Traccar reads its replies so);
 * - 0x6006 text report and 0x1300 text reply (UTF-16): command results;
 * - 0x0210 (vendor): `battery %, BCD time` (7 bytes), else a batch of locations of `length BYTE`;
 * - 0x2070 (vendor): acceleration samples `time BCD[6], x, y, z` (sign and magnitude words);
 * - 0x1007 (vendor): time zone synchronisation, answered like a heartbeat.
 */
type Options = { type: string; crcValid: boolean; deviceId: string; ack?: Buffer };

const gbk = new TextDecoder('gbk');

function trimmed(buf: Buffer): string {
  return buf.toString('latin1').replace(/\0+$/, '').trim();
}

/** 0x0107: type WORD, maker BYTE[5], model BYTE[20|30], terminal id BYTE[7|30], ICCID BCD[10], versions as length + text. */
export function terminalAttributes(body: Buffer, v2019: boolean, o: Options): DecodeResult {
  const modelLength = v2019 ? 30 : 20;
  const idLength = v2019 ? 30 : 7;
  let at = 2 + 5;
  const attributes: Attributes = { deviceModel: trimmed(body.subarray(at, at + modelLength)) };
  at += modelLength + idLength;
  attributes.iccid = bcdString(body, at, at + 10);
  at += 10;
  const hardware = body.readUInt8(at);
  attributes.versionHw = trimmed(body.subarray(at + 1, at + 1 + hardware));
  at += 1 + hardware;
  const firmware = body.readUInt8(at);
  attributes.versionFw = trimmed(body.subarray(at + 1, at + 1 + firmware));
  return stateResult(attributes, new Alarms(), o);
}

/** 0x0702: status BYTE (1 inserted, 2 removed), time BCD[6], then when inserted: result, name, certificate, agency, validity. */
export function driverIdentity(body: Buffer, o: Options): DecodeResult {
  const status = body.readUInt8(0);
  const deviceTime = bcdDateTime(body, 1, 'ymd', JT808_TIME_OFFSET_MINUTES);
  const attributes: Attributes = { cardStatus: status };
  if (body.length > 7) {
    attributes.cardResult = body.readUInt8(7);
    const nameLength = body.readUInt8(8);
    const name = gbk.decode(body.subarray(9, 9 + nameLength)).trim();
    let at = 9 + nameLength;
    const code = trimmed(body.subarray(at, at + 20));
    at += 20;
    const agencyLength = body.readUInt8(at);
    const agency = gbk.decode(body.subarray(at + 1, at + 1 + agencyLength)).trim();
    at += 1 + agencyLength;
    if (name) attributes.driverName = name;
    if (code) Object.assign(attributes, { cardCode: code, driverUniqueId: code });
    if (agency) attributes.cardAgency = agency;
    if (at + 4 <= body.length) attributes.cardValidity = body.toString('hex', at, at + 4);
  }
  return stateResult(attributes, new Alarms(), { ...o, deviceTime });
}

/** 0x6006: encoding BYTE, text (GBK, ASCII when the encoding is 0). */
export function textReport(body: Buffer, o: Options): DecodeResult {
  return commandResult(gbk.decode(body.subarray(1)).replace(/\0+$/, '').trim(), o);
}

/** 0x1300: reply serial WORD, text in UTF-16BE. */
export function textReply(body: Buffer, o: Options): DecodeResult {
  const text = body.subarray(2);
  const swapped = Buffer.from(text.subarray(0, text.length - (text.length % 2))).swap16();
  return commandResult(swapped.toString('utf16le').replace(/\0+$/, '').trim(), o);
}

/** 0x0701: length DWORD, content. */
export function waybill(body: Buffer, o: Options): DecodeResult {
  const length = body.readUInt32BE(0);
  return commandResult(trimmed(body.subarray(4, 4 + length)), o);
}

/** 0x0210: 7 bytes are a battery level and a time; otherwise locations of `length BYTE` each. */
export function vendorBatch(body: Buffer, deviceId: string, o: Options): DecodeResult {
  if (body.length === 7) {
    return stateResult({ batteryLevel: body.readUInt8(0) }, new Alarms(), {
      ...o,
      deviceTime: bcdDateTime(body, 1, 'ymd', JT808_TIME_OFFSET_MINUTES),
    });
  }
  const positions: DecodedPosition[] = [];
  const alarms = new Alarms();
  for (let at = 0; at < body.length;) {
    const length = body.readUInt8(at);
    if (length < JT808_BASIC_LENGTH || at + 1 + length > body.length)
      throw new RangeError(`batch item of ${length} bytes at ${at} does not fit`);
    const r = decodeJt808Location(body.subarray(at + 1, at + 1 + length), deviceId);
    if (r.position) {
      positions.push(r.position);
      for (const a of r.alarms) alarms.add(a);
    }
    at += 1 + length;
  }
  if (!positions.length) return stateResult({}, alarms, o);
  return positionsResult(positions, o);
}

/** 0x2070: samples of time BCD[6] and x, y, z (bit 15 the sign, bits 0-14 the magnitude). */
export function acceleration(body: Buffer, o: Options): DecodeResult {
  const samples: string[] = [];
  let deviceTime: Date | null = null;
  const word = (at: number) => {
    const v = body.readUInt16BE(at);
    return v & 0x8000 ? -(v & 0x7fff) : v & 0x7fff;
  };
  for (let at = 0; at + 12 <= body.length; at += 12) {
    deviceTime ??= bcdDateTime(body, at, 'ymd', JT808_TIME_OFFSET_MINUTES);
    samples.push(`[${word(at + 6)},${word(at + 8)},${word(at + 10)}]`);
  }
  return stateResult({ gSensor: `[${samples.join(',')}]` }, new Alarms(), { ...o, deviceTime });
}
