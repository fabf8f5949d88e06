import { DecodeError, type DecodedPosition, type DecodeResult, type Protocol, type ProtocolSession } from '../protocol';
import { decodeBinary } from './binary';
import { splitH02Frames } from './frame';
import { decodeStatus } from './status';
import { decodeLink, decodeNbr, decodePositionText, splitText, type H02Report, type TextFields } from './text';

/**
 * H02 / Sinotrack (Traccar default port 5013, TCP).
 *
 * Acknowledgements: only heartbeats (HTBT, V0) are answered, with the sentence echoed up to its type
 * (`*HQ,<id>,HTBT#`), as Traccar does. Position reports (V1 ...) need no answer; Traccar's optional
 * `V4,V1,<server time>` reply depends on the server clock, which a pure decoder has not, and the
 * devices keep reporting without it.
 *
 * Reports without a fix (NBR, LINK) carry cell or battery data and a time: when the connection has
 * seen a fix, they yield an invalid position at the last known coordinates (Traccar's "last
 * location" rule) with those attributes; otherwise no position.
 */
export const PROTOCOL = 'h02';
export const H02_PORT = 5013;

const HEARTBEAT_TYPES = new Set(['HTBT', 'V0']);

interface LastFix {
  latitude: number;
  longitude: number;
}

function rememberFix(session: ProtocolSession, position: DecodedPosition): void {
  if (position.valid) session.lastFix = { latitude: position.latitude, longitude: position.longitude } satisfies LastFix;
}

function lastFix(session: ProtocolSession): LastFix | null {
  const fix = session.lastFix as LastFix | undefined;
  return fix && typeof fix.latitude === 'number' && typeof fix.longitude === 'number' ? fix : null;
}

function withDevice(session: ProtocolSession, deviceId: string | undefined): string | undefined {
  if (deviceId) session.deviceId = deviceId;
  return deviceId || session.deviceId;
}

function positionResult(position: DecodedPosition, deviceId: string | undefined): DecodeResult {
  position.deviceId = deviceId;
  const alarm = position.alarm ?? null;
  return {
    positions: [position],
    deviceId,
    kind: alarm ? 'alarm' : 'position',
    crcValid: true,
    ...(alarm ? { events: [{ alarm }] } : {}),
  };
}

/** NBR / LINK: status and attributes, placed at the last fix when there is one. */
function reportResult(
  report: H02Report | null,
  session: ProtocolSession,
  deviceId: string | undefined,
  type: 'LINK' | 'NBR',
): DecodeResult {
  if (!report) return { positions: [], deviceId, kind: 'ignored', crcValid: true };
  const status = report.status === null ? null : decodeStatus(report.status);
  const alarm = status?.alarm ?? null;
  const fix = lastFix(session);
  const positions: DecodedPosition[] =
    fix && report.time
      ? [
          {
            deviceId,
            fixTime: report.time,
            valid: false,
            latitude: fix.latitude,
            longitude: fix.longitude,
            speed: 0,
            course: 0,
            ignition: status?.ignition ?? null,
            alarm,
            attributes: { ...report.attributes, ...(status ? { status: status.status } : {}) },
          },
        ]
      : [];
  return {
    positions,
    deviceId,
    kind: alarm ? 'alarm' : type === 'LINK' ? 'heartbeat' : positions.length > 0 ? 'position' : 'ignored',
    crcValid: true,
    ...(alarm ? { events: [{ alarm }] } : {}),
  };
}

function decodeText(frame: Buffer, session: ProtocolSession): DecodeResult {
  const sentence = frame.toString('latin1');
  const text: TextFields | null = splitText(sentence);
  if (!text) throw new DecodeError('malformed', 'h02: text frame without maker, id and type');
  const deviceId = withDevice(session, text.id);
  if (HEARTBEAT_TYPES.has(text.type)) {
    const [maker] = text.fields;
    return {
      positions: [],
      deviceId,
      kind: 'heartbeat',
      crcValid: true,
      ack: Buffer.from(`*${maker},${text.id},${text.type}#`, 'latin1'),
    };
  }
  if (text.type === 'NBR') return reportResult(decodeNbr(text), session, deviceId, 'NBR');
  if (text.type === 'LINK') return reportResult(decodeLink(text), session, deviceId, 'LINK');
  if (!text.type.startsWith('V') || text.type === 'VP1' || text.type === 'V3') {
    return { positions: [], deviceId, kind: 'ignored', crcValid: true };
  }
  const position = decodePositionText(text);
  if (!position) return { positions: [], deviceId, kind: 'ignored', crcValid: true };
  rememberFix(session, position);
  return positionResult(position, deviceId);
}

export function decodeH02(frame: Buffer, session: ProtocolSession): DecodeResult {
  const marker = frame[0];
  if (marker === 0x2a) return decodeText(frame, session);
  if (marker === 0x24) {
    const report = decodeBinary(frame);
    const deviceId = withDevice(session, report.deviceId);
    if (!report.position) return { positions: [], deviceId, kind: 'ignored', crcValid: true };
    rememberFix(session, report.position);
    return positionResult(report.position, deviceId);
  }
  if (marker === 0x58) return { positions: [], deviceId: session.deviceId, kind: 'ignored', crcValid: true };
  throw new DecodeError('bad_frame', `h02: unknown frame marker 0x${(marker ?? 0).toString(16)}`);
}

export const h02Protocol: Protocol = {
  name: PROTOCOL,
  defaultPort: H02_PORT,
  transport: ['tcp'],
  splitFrames: splitH02Frames,
  decode: decodeH02,
};
