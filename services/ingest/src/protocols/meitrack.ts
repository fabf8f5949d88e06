import { DecodeError, type DecodedPosition, type DecodeResult, type FrameSplit, type Protocol, type ProtocolSession } from './protocol';

/**
 * Meitrack text protocol (Traccar default port 5020, TCP). Facts from the Meitrack GPRS protocol
 * document and Traccar's MeitrackFrameDecoder/MeitrackProtocolDecoder:
 * - frame `$$<flag char><length>,<imei>,<command>,...*<checksum 2 hex>\r\n`; the length counts from
 *   the comma after it through the CR LF, so frame size = index of that comma + length;
 * - checksum = sum of all bytes up to and including `*`, modulo 256 (the public captures confirm
 *   that the `*` itself is counted);
 * - AAA (position report): event code, lat, lon (signed decimal degrees), yymmddhhmmss (UTC), A/V,
 *   satellites, GSM signal, speed km/h, course, hdop, altitude m, odometer m, runtime s,
 *   `mcc|mnc|lac|cid` (hex lac/cid), io status (2 hex input + 2 hex output), analog values
 *   (`battery|power|rtc|mcu|gps` volts on T-series, otherwise hex `ad1|ad2|ad3|battery|power`), ...
 * - AAA needs no answer and none is sent. Other commands (binary CCE/CCC buffers, photos, command
 *   replies) are ignored here; note a device sending CCE expects a `CCE` acknowledgement to drop its
 *   buffer, which this decoder does not produce.
 * - A wrong checksum still decodes, with crcValid=false.
 */
export const PROTOCOL = 'meitrack';
export const MEITRACK_PORT = 5020;

const KNOTS_PER_KMH = 1 / 1.852;
const MAX_SPEED_KNOTS = 869;
const FUTURE_SLACK_MS = 25 * 3600 * 1000;
const MAX_HEADER = 12; // "$$" + flag + up to 8 length digits + ","

/** Event code → Traccar alarm (Meitrack event list as Traccar maps it). */
const EVENT_ALARMS: Record<number, string> = {
  1: 'sos',
  17: 'lowBattery',
  18: 'lowPower',
  19: 'overspeed',
  20: 'geofenceEnter',
  21: 'geofenceExit',
  22: 'powerRestored',
  23: 'powerCut',
  36: 'tow',
  44: 'jamming',
  78: 'accident',
  90: 'cornering',
  91: 'cornering',
  129: 'braking',
  130: 'acceleration',
  135: 'fatigueDriving',
};

/** Length of the frame at the start of `buf`, 0 when more bytes are needed. */
function frameLength(buf: Buffer, maxFrame: number): number {
  if (buf[0] !== 0x24 || (buf.length > 1 && buf[1] !== 0x24)) {
    throw new DecodeError('bad_frame', `meitrack: expected '$$' but got 0x${buf.subarray(0, 2).toString('hex')}`);
  }
  const comma = buf.subarray(0, MAX_HEADER).indexOf(0x2c);
  if (comma < 0) {
    if (buf.length >= MAX_HEADER) throw new DecodeError('bad_frame', 'meitrack: no length field');
    return 0;
  }
  const digits = buf.subarray(3, comma).toString('latin1');
  if (comma < 4 || !/^\d+$/.test(digits)) throw new DecodeError('bad_frame', 'meitrack: bad length field');
  const total = comma + Number(digits);
  if (total > maxFrame) throw new DecodeError('frame_too_large', `meitrack: frame of ${total} bytes exceeds ${maxFrame}`);
  if (total <= comma) throw new DecodeError('bad_frame', 'meitrack: empty frame');
  return buf.length >= total ? total : 0;
}

/** Cuts whole `$$` frames off the front of `buf` by their declared length; never parses fields. */
export function splitMeitrackFrames(buf: Buffer, maxFrame: number): FrameSplit {
  const frames: Buffer[] = [];
  let offset = 0;
  while (offset < buf.length) {
    const byte = buf[offset];
    if (byte === 0x0d || byte === 0x0a) {
      offset++;
      continue;
    }
    const length = frameLength(buf.subarray(offset), maxFrame);
    if (length === 0) break;
    frames.push(Buffer.from(buf.subarray(offset, offset + length)));
    offset += length;
  }
  return { frames, rest: Buffer.from(buf.subarray(offset)) };
}

/** Sum of the bytes through `*`, modulo 256, against the two hex digits after it. */
export function meitrackChecksumValid(frame: Buffer, star: number): boolean {
  let sum = 0;
  for (let i = 0; i <= star; i++) sum = (sum + frame[i]!) & 0xff;
  const declared = frame.subarray(star + 1, star + 3).toString('latin1');
  return /^[0-9A-Fa-f]{2}$/.test(declared) && parseInt(declared, 16) === sum;
}

function num(value: string | undefined): number | null {
  if (value === undefined || value.trim() === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

function hex(value: string | undefined): number | null {
  return value !== undefined && /^[0-9A-Fa-f]{1,8}$/.test(value) ? parseInt(value, 16) : null;
}

function fixTime(text: string): Date | null {
  const m = /^(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)$/.exec(text);
  if (!m) return null;
  const [yy, mo, dd, hh, mi, ss] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  if (mo < 1 || mo > 12 || dd < 1 || dd > 31 || hh > 23 || mi > 59 || ss > 59) return null;
  const date = new Date(Date.UTC(2000 + yy, mo - 1, dd, hh, mi, ss));
  return date.getTime() > Date.now() + FUTURE_SLACK_MS ? null : date;
}

/** AAA fields from the event code on (f[0] = event). */
function decodeAaa(deviceId: string, f: string[]): DecodedPosition | null {
  const event = num(f[0]);
  const latitude = num(f[1]);
  const longitude = num(f[2]);
  const time = fixTime(f[3] ?? '');
  const kmh = num(f[7]);
  const course = num(f[8]) ?? 0;
  if (event === null || latitude === null || longitude === null || time === null || kmh === null) return null;
  const speed = kmh * KNOTS_PER_KMH;
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180 || speed < 0 || speed > MAX_SPEED_KNOTS || course < 0 || course > 360) {
    return null;
  }
  const satellites = num(f[5]);
  const hdop = num(f[9]);
  const odometer = num(f[11]);
  const attributes: DecodedPosition['attributes'] = { event, rssi: num(f[6]), runtime: num(f[12]) };
  const [mcc, mnc, lac, cid] = (f[13] ?? '').split('|');
  if (num(mcc) && num(mnc)) Object.assign(attributes, { mcc: num(mcc), mnc: num(mnc), lac: hex(lac), cid: hex(cid) });
  const io = f[14] ?? '';
  if (/^[0-9A-Fa-f]{4}$/.test(io)) Object.assign(attributes, { input: hex(io.slice(0, 2)), output: hex(io.slice(2)) });
  const analog = (f[15] ?? '').split('|');
  let battery: number | null = null;
  let power: number | null = null;
  if (analog.length >= 2 && analog.slice(0, 2).every((v) => /^\d+\.\d+$/.test(v))) {
    battery = Number(analog[0]);
    power = Number(analog[1]);
  } else if (analog.length >= 5) {
    // Hex ADC readings whose scale depends on the model: kept raw.
    analog.slice(0, 3).forEach((v, i) => (attributes[`adc${i + 1}`] = hex(v)));
    attributes.batteryAdc = hex(analog[3]);
    attributes.powerAdc = hex(analog[4]);
  }
  const alarm = EVENT_ALARMS[event] ?? null;
  return {
    deviceId,
    fixTime: time,
    valid: f[4] === 'A',
    latitude,
    longitude,
    speed,
    course,
    altitude: num(f[10]),
    satellites: satellites !== null && Number.isInteger(satellites) && satellites >= 0 ? satellites : null,
    hdop: hdop !== null && hdop >= 0 ? hdop : null,
    odometer: odometer !== null && odometer >= 0 ? odometer : null,
    battery,
    power,
    alarm,
    attributes,
  };
}

export function decodeMeitrack(frame: Buffer, session: ProtocolSession): DecodeResult {
  if (frame[0] !== 0x24 || frame[1] !== 0x24) throw new DecodeError('bad_frame', "meitrack: frame must start with '$$'");
  const firstComma = frame.indexOf(0x2c);
  const secondComma = firstComma < 0 ? -1 : frame.indexOf(0x2c, firstComma + 1);
  if (secondComma < 0) throw new DecodeError('malformed', 'meitrack: no imei and command');
  const deviceId = frame.subarray(firstComma + 1, secondComma).toString('latin1');
  if (!/^\d{1,20}$/.test(deviceId)) throw new DecodeError('malformed', 'meitrack: bad imei');
  session.deviceId = deviceId;
  const command = frame.subarray(secondComma + 1, secondComma + 4).toString('latin1');
  if (command !== 'AAA') return { positions: [], deviceId, kind: 'ignored', crcValid: true };

  const star = frame.lastIndexOf(0x2a);
  if (star < 0) throw new DecodeError('malformed', "meitrack: no '*' before the checksum");
  const crcValid = meitrackChecksumValid(frame, star);
  const fields = frame.subarray(secondComma + 5, star).toString('latin1').split(',');
  const position = decodeAaa(deviceId, fields);
  if (!position) return { positions: [], deviceId, kind: 'ignored', crcValid };
  const alarm = position.alarm ?? null;
  return {
    positions: [position],
    deviceId,
    kind: alarm ? 'alarm' : 'position',
    crcValid,
    ...(alarm ? { events: [{ alarm }] } : {}),
  };
}

export const meitrackProtocol: Protocol = {
  name: PROTOCOL,
  defaultPort: MEITRACK_PORT,
  transport: ['tcp'],
  splitFrames: splitMeitrackFrames,
  decode: decodeMeitrack,
};
