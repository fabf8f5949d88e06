import { DecodeError, type DecodedPosition, type DecodeResult, type Protocol, type ProtocolSession } from '../protocol';
import { commandResult, ignoredResult, positionsResult, stateResult } from '../result';
import { decodeBinary } from './binary';
import { splitH02Frames } from './frame';
import { decodeHtbt, decodeLink, decodeNbr, decodeV3, decodeVp1Cells, type H02State } from './reports';
import { decodePositionText, splitText, type TextFields } from './text';

/**
 * H02 / Sinotrack (Traccar default port 5013, TCP). Facts from the H02 document and Traccar's
 * H02ProtocolDecoder.
 *
 * - V1, V2, V4 (command reply + fix), V5, V6, V8, V19, VI1, VP1 (with a fix): positions;
 * - NBR, LINK, V3, VP1 without a fix, HTBT: state records with the device time and the status
 *   word's alarms;
 * - SMS: a command result (the text);
 * - V0 / HTBT heartbeats are acknowledged with the sentence echoed up to its type
 *   (`*HQ,<id>,HTBT#`), as Traccar does. Position reports need no answer; Traccar's optional
 *   `V4,V1,<server time>` / `V4,NBR,...` replies carry the server clock and are not sent (the
 *   devices keep reporting without them).
 * - binary `$` reports: positions; binary `X` reports and text types without a known layout
 *   (XT, BS, BASE, ...) are refused.
 */
export const PROTOCOL = 'h02';
export const H02_PORT = 5013;

const KNOWN_TYPES = new Set([
  'V0',
  'V1',
  'V2',
  'V3',
  'V4',
  'V5',
  'V6',
  'V8',
  'V19',
  'VI1',
  'VP1',
  'NBR',
  'LINK',
  'HTBT',
  'SMS',
  'XT',
  'BS',
  'BASE',
]);

function withDevice(session: ProtocolSession, deviceId: string | undefined): string | undefined {
  if (deviceId) session.deviceId = deviceId;
  return deviceId || session.deviceId;
}

function positionResult(position: DecodedPosition, deviceId: string | undefined, type: string): DecodeResult {
  position.deviceId = deviceId;
  return positionsResult([position], { type, crcValid: true, deviceId });
}

function stateFrom(state: H02State | null, deviceId: string | undefined, type: string, ack?: Buffer, heartbeat = false): DecodeResult {
  if (!state) return ignoredResult(`${type} report whose fields do not match its layout`, { type, crcValid: true, deviceId });
  return stateResult(state.attributes, state.alarms, {
    type,
    crcValid: true,
    deviceId,
    ack,
    deviceTime: state.time,
    kind: heartbeat ? 'heartbeat' : 'state',
  });
}

function decodeText(frame: Buffer, session: ProtocolSession): DecodeResult {
  const sentence = frame.toString('latin1');
  const text: TextFields | null = splitText(sentence);
  if (!text) throw new DecodeError('malformed', 'h02: text frame without maker, id and type');
  const deviceId = withDevice(session, text.id);
  const type = KNOWN_TYPES.has(text.type) ? text.type : /^V\w{0,4}$/.test(text.type) ? 'V' : 'other';
  const o = { type, crcValid: true, deviceId };
  switch (text.type) {
    case 'V0':
    case 'HTBT': {
      const ack = Buffer.from(`*${text.fields[0]},${text.id},${text.type}#`, 'latin1');
      return stateFrom(decodeHtbt(text), deviceId, type, ack, true);
    }
    case 'NBR':
      return stateFrom(decodeNbr(text), deviceId, type);
    case 'LINK':
      return stateFrom(decodeLink(text), deviceId, type, undefined, true);
    case 'V3':
      return stateFrom(decodeV3(text), deviceId, type);
    case 'SMS':
      return commandResult(
        sentence
          .trim()
          .replace(/^\*[^,]*,[^,]*,SMS,/, '')
          .replace(/#$/, ''),
        o,
      );
    default:
  }
  if (text.type === 'VP1' && text.fields[3] === 'V') return stateFrom(decodeVp1Cells(text), deviceId, type);
  if (!text.type.startsWith('V')) return ignoredResult(`${text.type} report: layout not public`, o);
  const position = decodePositionText(text);
  if (!position) return ignoredResult('report without a fix or a date', o);
  return positionResult(position, deviceId, type);
}

export function decodeH02(frame: Buffer, session: ProtocolSession): DecodeResult {
  const marker = frame[0];
  if (marker === 0x2a) return decodeText(frame, session);
  if (marker === 0x24) {
    const report = decodeBinary(frame);
    const deviceId = withDevice(session, report.deviceId);
    if (!report.position) return ignoredResult('binary report without a valid time or fix', { type: 'binary', crcValid: true, deviceId });
    return positionResult(report.position, deviceId, 'binary');
  }
  if (marker === 0x58)
    return ignoredResult('binary X report: layout not public', { type: 'X', crcValid: true, deviceId: session.deviceId });
  throw new DecodeError('bad_frame', `h02: unknown frame marker 0x${(marker ?? 0).toString(16)}`);
}

export const h02Protocol: Protocol = {
  name: PROTOCOL,
  defaultPort: H02_PORT,
  transport: ['tcp'],
  splitFrames: splitH02Frames,
  decode: decodeH02,
};
