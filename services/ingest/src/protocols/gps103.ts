import { DecodeError, type DecodedPosition, type DecodeResult, type FrameSplit, type Protocol, type ProtocolSession } from './protocol';

/**
 * GPS103 / Coban TK103-2 text protocol (Traccar default port 5001, TCP). Facts from the Coban
 * GPRS protocol notes and Traccar's Gps103Protocol/Gps103ProtocolDecoder:
 * - frames end at `;`, `*`, CR LF or LF (delimiter kept in the frame);
 * - login `##,imei:<id>,A;` → answer `LOAD`; heartbeat `<imei>;` → answer `ON`;
 * - report `imei:<id>,<keyword>,<local yymmddhhmm[ss]>,<rfid>,F,<utc hhmmss.sss>,A,<lat ddmm.mmmm>,N,
 *   <lon dddmm.mmmm>,E,<speed knots>,<course>,<altitude>,<acc 0/1>,<door 0/1>,<fuel1 %>,<fuel2 %>,<temp>;`
 *   (`L` instead of `F` = no GPS, cell lac/cid instead);
 * - the date is local: the UTC fix time is the local date/time shifted by the difference between the
 *   local hh:mm and the UTC hh:mm (normalised to ±12 h);
 * - `help me` is answered `**,imei:<id>,E;` so the tracker stops repeating the SOS.
 * - the alternative format ending in `*` (`imei:<id>,<name>,<event>,<sensor>,<voltage>,hhmmss,ddmmyy,
 *   rssi,gps,lat,lon,speed km/h,course,altitude,hdop,satellites,ignition,charge,error,*`).
 * OBD and photo (`vr`) frames are answered with nothing and ignored.
 */
export const PROTOCOL = 'gps103';
export const GPS103_PORT = 5001;

const KNOTS_PER_KMH = 1 / 1.852;
const MAX_SPEED_KNOTS = 869;
const FUTURE_SLACK_MS = 25 * 3600 * 1000;
const DELIMITERS = new Set([0x3b /* ; */, 0x2a /* * */, 0x0a /* LF */]);

/** Keyword → Traccar alarm name. */
const ALARMS: Record<string, string> = {
  'help me': 'sos',
  'low battery': 'lowBattery',
  stockade: 'geofence',
  move: 'movement',
  speed: 'overspeed',
  'door alarm': 'door',
  'ac alarm': 'powerCut',
  'accident alarm': 'accident',
  'sensor alarm': 'vibration',
  'bonnet alarm': 'bonnet',
  'footbrake alarm': 'footBrake',
  DTC: 'fault',
};

function keywordAlarm(keyword: string): string | null {
  if (keyword.startsWith('T:')) return 'temperature';
  if (keyword.startsWith('oil')) return 'fuelLeak';
  return ALARMS[keyword] ?? null;
}

/** Cuts frames at `;`, `*` or LF; never parses fields. */
export function splitGps103Frames(buf: Buffer, maxFrame: number): FrameSplit {
  const frames: Buffer[] = [];
  let start = 0;
  for (let i = 0; i < buf.length; i++) {
    const byte = buf[i]!;
    if (byte !== 0x0d && byte !== 0x0a && byte !== 0x09 && (byte < 0x20 || byte > 0x7e)) {
      throw new DecodeError('bad_frame', `gps103: non-text byte 0x${byte.toString(16)}`);
    }
    if (!DELIMITERS.has(byte)) continue;
    const frame = buf.subarray(start, i + 1);
    if (frame.length > maxFrame) throw new DecodeError('frame_too_large', `gps103: frame of ${frame.length} bytes exceeds ${maxFrame}`);
    if (frame.toString('latin1').trim().length > 1) frames.push(Buffer.from(frame));
    start = i + 1;
  }
  const rest = buf.subarray(start);
  if (rest.length > maxFrame) throw new DecodeError('frame_too_large', `gps103: no delimiter within ${maxFrame} bytes`);
  return { frames, rest: Buffer.from(rest) };
}

function plausible(date: Date): Date | null {
  return Number.isNaN(date.getTime()) || date.getTime() > Date.now() + FUTURE_SLACK_MS ? null : date;
}

function coordinate(value: string, hemisphere: string, negative: string): number | null {
  const m = /^(\d+)(\d\d\.\d+)$/.exec(value);
  if (!m) return null;
  const minutes = Number(m[2]);
  if (minutes >= 60) return null;
  const result = Number(m[1]) + minutes / 60;
  return hemisphere === negative ? -result : result;
}

/** Local date/time field + UTC time field → UTC fix time (Traccar's time-zone rule). */
function fixTime(local: string, utc: string): Date | null {
  const l = /^(\d\d)\/?(\d\d)\/?(\d\d) ?(\d\d):?(\d\d)(?:\d\d)?$/.exec(local);
  if (!l) return null;
  const [year, month, day, localHour, localMinute] = l.slice(1).map(Number) as [number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > 31 || localHour > 23 || localMinute > 59) return null;
  const u = /^(\d\d)(\d\d)(\d\d)(?:\.\d+)?$/.exec(utc);
  const second = u ? Number(u[3]) : 0;
  if (second > 59) return null;
  let ms = Date.UTC(2000 + year, month - 1, day, localHour, localMinute, second);
  if (u) {
    const utcHour = Number(u[1]);
    const utcMinute = Number(u[2]);
    if (utcHour > 23 || utcMinute > 59) return null;
    let delta = (localHour - utcHour) * 60 + (localMinute - utcMinute);
    if (delta <= -12 * 60) delta += 24 * 60;
    else if (delta > 12 * 60) delta -= 24 * 60;
    ms -= delta * 60_000;
  }
  return plausible(new Date(ms));
}

function numberOrNull(value: string | undefined): number | null {
  if (value === undefined || value.trim() === '') return null;
  const n = Number(value.replace('%', ''));
  return Number.isFinite(n) ? n : null;
}

/** Fields after `F,`: utc time, validity, lat/lon with hemispheres before or after, speed, course, ... */
function decodeFix(deviceId: string, keyword: string, local: string, f: string[]): DecodedPosition | null {
  let i = 0;
  const next = (): string => (f[i++] ?? '').trim();
  const peek = (): string => (f[i] ?? '').trim();
  const utc = next();
  const validity = next();
  if (validity !== 'A' && validity !== 'V') return null;
  let latHem = /^[NS]$/.test(peek()) ? next() : '';
  const lat = next();
  if (/^[NS]$/.test(peek())) latHem = next();
  let lonHem = /^[EW]$/.test(peek()) ? next() : '';
  const lon = next();
  if (/^[EW]?$/.test(peek())) lonHem = next() || lonHem;
  const latitude = coordinate(lat, latHem, 'S');
  const longitude = coordinate(lon, lonHem, 'W');
  const time = fixTime(local, utc);
  if (latitude === null || longitude === null || time === null || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) {
    return null;
  }
  const speed = numberOrNull(next()) ?? 0;
  const course = numberOrNull(next()) ?? 0;
  if (speed < 0 || speed > MAX_SPEED_KNOTS || course < 0 || course > 360) return null;
  const altitude = numberOrNull(next());
  const acc = next();
  const door = next();
  const attributes: DecodedPosition['attributes'] = {};
  const fuel1 = numberOrNull(next());
  const fuel2 = numberOrNull(next());
  const temperature = numberOrNull(next());
  if (door === '0' || door === '1') attributes.door = door === '1';
  if (fuel1 !== null) attributes.fuel1 = fuel1;
  if (fuel2 !== null) attributes.fuel2 = fuel2;
  if (temperature !== null) attributes.temp1 = temperature;
  let ignition: boolean | null = acc === '1' ? true : acc === '0' ? false : null;
  if (keyword === 'acc on') ignition = true;
  if (keyword === 'acc off') ignition = false;
  if (keyword.startsWith('T:')) attributes.temp1 = numberOrNull(keyword.slice(2));
  if (keyword.startsWith('oil ')) attributes.fuel = numberOrNull(keyword.slice(4));
  const alarm = keywordAlarm(keyword);
  if (!alarm && keyword !== 'tracker' && !/^(acc on|acc off|T:.*|oil.*)$/.test(keyword)) attributes.event = keyword;
  return { deviceId, fixTime: time, valid: validity === 'A', latitude, longitude, speed, course, altitude, ignition, alarm, attributes };
}

/** `imei:<id>,<name>,<event>,<sensor id>,<voltage>,hhmmss,ddmmyy,rssi,gps,lat,lon,km/h,course,alt,hdop,sats,ign,charge,error,*` */
function decodeAlternative(deviceId: string, f: string[]): DecodedPosition | null {
  const t = /^(\d\d)(\d\d)(\d\d)$/.exec(f[5] ?? '');
  const d = /^(\d\d)(\d\d)(\d\d)$/.exec(f[6] ?? '');
  if (!t || !d || f.length < 19) return null;
  const time = plausible(new Date(Date.UTC(2000 + Number(d[3]), Number(d[2]) - 1, Number(d[1]), Number(t[1]), Number(t[2]), Number(t[3]))));
  const [latitude, longitude, kmh, course, altitude, hdop, satellites] = [9, 10, 11, 12, 13, 14, 15].map((k) => Number(f[k]));
  const numbers = [latitude, longitude, kmh, course, altitude, hdop, satellites] as number[];
  if (time === null || numbers.some((n) => !Number.isFinite(n)) || Number(d[2]) < 1 || Number(d[2]) > 12) return null;
  const speed = kmh! * KNOTS_PER_KMH;
  if (Math.abs(latitude!) > 90 || Math.abs(longitude!) > 180 || speed < 0 || speed > MAX_SPEED_KNOTS || course! < 0 || course! > 360) return null;
  const dashless = (v: string | undefined): string | null => (v === undefined || /^-*$/.test(v) ? null : v);
  return {
    deviceId,
    fixTime: time,
    valid: Number(f[8]) > 0,
    latitude: latitude!,
    longitude: longitude!,
    speed,
    course: course!,
    altitude: altitude!,
    hdop: hdop! >= 0 ? hdop! : null,
    satellites: Number.isInteger(satellites) && satellites! >= 0 ? satellites! : null,
    ignition: f[16] === '1',
    alarm: null,
    attributes: { event: dashless(f[2]), sensorId: dashless(f[3]), rssi: numberOrNull(f[7]), charge: f[17] === '1', error: dashless(f[18]) },
  };
}

function result(kind: DecodeResult['kind'], deviceId: string | undefined, extra: Partial<DecodeResult> = {}): DecodeResult {
  return { positions: [], deviceId, kind, crcValid: true, ...extra };
}

export function decodeGps103(frame: Buffer, session: ProtocolSession): DecodeResult {
  let sentence = frame.toString('latin1').trim();
  if (sentence.includes('imei:') && sentence.length <= 30) {
    const id = /imei:(\d+),/.exec(sentence)?.[1];
    if (id) session.deviceId = id;
    return result('login', id ?? session.deviceId, { ack: Buffer.from('LOAD') });
  }
  let ack: Buffer | undefined;
  if (/^\d/.test(sentence)) {
    ack = Buffer.from('ON');
    const start = sentence.indexOf('imei:');
    if (start < 0) {
      const id = /^(\d+)/.exec(sentence)?.[1];
      if (id) session.deviceId = id;
      return result('heartbeat', session.deviceId, { ack });
    }
    sentence = sentence.slice(start);
  }
  const alternative = sentence.endsWith('*');
  const fields = sentence.replace(/[;*]$/, '').split(',');
  const id = /^imei:(\d+)$/.exec(fields[0] ?? '')?.[1];
  if (!id) throw new DecodeError('malformed', 'gps103: frame without imei');
  session.deviceId = id;
  const keyword = fields[1] ?? '';
  if (keyword === 'OBD' || keyword.startsWith('vr') || keyword.startsWith('vt')) return result('ignored', id, ack ? { ack } : {});

  const position = alternative ? decodeAlternative(id, fields) : fields[4] === 'F' ? decodeFix(id, keyword, fields[2] ?? '', fields.slice(5)) : null;
  const alarm = alternative ? null : keywordAlarm(keyword);
  if (keyword === 'help me') ack = Buffer.from(`**,imei:${id},E;`);
  const events = alarm ? { events: [{ alarm }] } : {};
  if (!position) {
    // `L` (no GPS) reports still carry the alarm keyword.
    return result(alarm ? 'alarm' : 'ignored', id, { ...events, ...(ack ? { ack } : {}) });
  }
  return {
    positions: [position],
    deviceId: id,
    kind: alarm ? 'alarm' : 'position',
    crcValid: true,
    ...events,
    ...(ack ? { ack } : {}),
  };
}

export const gps103Protocol: Protocol = {
  name: PROTOCOL,
  defaultPort: GPS103_PORT,
  transport: ['tcp'],
  splitFrames: splitGps103Frames,
  decode: decodeGps103,
};
