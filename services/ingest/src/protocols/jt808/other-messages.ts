import type { DecodeResult } from '../protocol';
import { encodeJt808VendorResponse, nextJt808Serial, type Jt808Serial } from './ack';
import { JT808_LOCATION_2, JT808_LOCATION_BLIND, type Jt808Header } from './frame';
import { acceleration, driverIdentity, terminalAttributes, textReply, textReport, vendorBatch, waybill } from './reports';
import { decodeJt808Transparent } from './transparent';
import { decodeJt808VendorLocation } from './vendor-location';

/**
 * The terminal messages beyond the core set of decode.ts: each answered as the standard answers a
 * terminal message (0x8001 result 0), the vendor locations 0x5501/0x5502 with 0x4401 when their
 * properties ask for it. Null: not one of them.
 */
const JT808_OTHER = {
  attributes: 0x0107,
  vendorBatch: 0x0210,
  waybill: 0x0701,
  driverIdentity: 0x0702,
  transparent: 0x0900,
  timeZoneSync: 0x1007,
  textReply: 0x1300,
  acceleration: 0x2070,
  location2: JT808_LOCATION_2,
  locationBlind: JT808_LOCATION_BLIND,
  textReport: 0x6006,
} as const;

interface Message {
  header: Jt808Header;
  body: Buffer;
  session: Jt808Serial;
  base: Pick<DecodeResult, 'crcValid' | 'type'> & { deviceId?: string };
}

export function decodeOtherJt808(m: Message, generalAck: () => Buffer): DecodeResult | null {
  const deviceId = m.header.terminalId;
  const o = { type: m.base.type ?? '', crcValid: m.base.crcValid, deviceId };
  const acked = () => ({ ...o, ack: generalAck() });
  switch (m.header.msgId) {
    case JT808_OTHER.attributes:
      return terminalAttributes(m.body, m.header.v2019, acked());
    case JT808_OTHER.vendorBatch:
      return vendorBatch(m.body, deviceId, acked());
    case JT808_OTHER.waybill:
      return waybill(m.body, acked());
    case JT808_OTHER.driverIdentity:
      return driverIdentity(m.body, acked());
    case JT808_OTHER.transparent:
      return decodeJt808Transparent(m.body, deviceId, acked());
    case JT808_OTHER.timeZoneSync:
      return { kind: 'heartbeat', positions: [], ...acked() };
    case JT808_OTHER.textReply:
      return textReply(m.body, acked());
    case JT808_OTHER.acceleration:
      return acceleration(m.body, acked());
    case JT808_OTHER.textReport:
      return textReport(m.body, acked());
    case JT808_OTHER.location2:
    case JT808_OTHER.locationBlind: {
      const ack = m.header.shortSerial?.answer ? encodeJt808VendorResponse(m.header, nextJt808Serial(m.session)) : undefined;
      return decodeJt808VendorLocation(m.body, m.header.msgId === JT808_OTHER.locationBlind, deviceId, { ...o, ...(ack ? { ack } : {}) });
    }
    default:
      return null;
  }
}
