import { DecodeError, type DecodedPosition, type DecodeResult, type FrameSplit, type Protocol, type ProtocolSession } from './protocol';

/**
 * TK103 (Traccar default port 5002, TCP). Facts from the public "GPS Tracker TK103 Protocol" document
 * and Traccar's Tk103ProtocolDecoder:
 * - frames are `(` ... `)`;
 * - classic layout: `(<id, usually 12 chars><command, 2 letters + 2 digits><body>)`, where a position
 *   body is `yymmdd A ddmm.mmmm N dddmm.mmmm E <speed km/h, 5 chars> hhmmss <course, 6 chars>
 *   <io: charge, ignition, 3 hex masks, 3 hex fuel> L<odometer hex, metres>` (BR00 report, BP05 login
 *   with the IMEI before the date, BO01 alarm with the alarm digit before the date);
 * - comma layout: `(<id>,<command>,ddmmyy,A,ddmm.mmmmN,dddmm.mmmmE,<km/h>,hhmmss,<course>[,alt,sats])`;
 * - acks: BP05 login → `(<id>AP05)`, BP00 handshake → `(<id>AP01HSO)`, BO01 alarm → `(<id>AS01<digit>)`
 *   (AS01 "alarm confirmation" per the TK103 document; Traccar sends none).
 */
export const PROTOCOL = 'tk103';
export const TK103_PORT = 5002;

const KNOTS_PER_KMH = 1 / 1.852;
const MAX_SPEED_KNOTS = 869;
const FUTURE_SLACK_MS = 25 * 3600 * 1000;
const OPEN = 0x28;
const CLOSE = 0x29;

/** BO01 alarm digit → Traccar alarm (TK103 document: 0 power off, 1 accident, 2 SOS/robbery, 3 anti-theft, 4 low speed, 5 overspeed, 6 out of geofence). */
const BO01_ALARMS: Record<string, string> = {
  '0': 'powerCut',
  '1': 'accident',
  '2': 'sos',
  '3': 'vibration',
  '4': 'lowspeed',
  '5': 'overspeed',
  '6': 'geofenceExit',
};

/** Comma-layout command → alarm or ignition (Traccar's table for ZC/DW models). */
const COMMAND_ALARMS: Record<string, string> = {
  ZC11: 'movement', DW31: 'movement', DW51: 'movement',
  ZC12: 'lowBattery', DW32: 'lowBattery', DW52: 'lowBattery',
  ZC13: 'powerCut', DW33: 'powerCut', DW53: 'powerCut',
  ZC17: 'removing', DW37: 'removing', DW57: 'removing',
  ZC25: 'sos', DW3E: 'sos', DW5E: 'sos',
  ZC26: 'tampering', DW3F: 'tampering', DW5F: 'tampering',
  ZC27: 'lowPower', DW40: 'lowPower', DW60: 'lowPower',
};
const IGNITION_ON = new Set(['ZC15', 'DW35', 'DW55', 'ZC29', 'DW42', 'DW62']);
const IGNITION_OFF = new Set(['ZC16', 'DW36', 'DW56']);

/** Cuts `( ... )` frames; CR/LF between frames is dropped; never parses fields. */
export function splitTk103Frames(buf: Buffer, maxFrame: number): FrameSplit {
  const frames: Buffer[] = [];
  let offset = 0;
  while (offset < buf.length) {
    const byte = buf[offset];
    if (byte === 0x0d || byte === 0x0a || byte === 0x20) {
      offset++;
      continue;
    }
    if (byte !== OPEN) throw new DecodeError('bad_frame', `tk103: expected '(' but got 0x${(byte ?? 0).toString(16)}`);
    const end = buf.indexOf(CLOSE, offset);
    if (end < 0) {
      if (buf.length - offset > maxFrame) throw new DecodeError('frame_too_large', `tk103: no ')' within ${maxFrame} bytes`);
      break;
    }
    if (end + 1 - offset > maxFrame) throw new DecodeError('frame_too_large', `tk103: frame exceeds ${maxFrame} bytes`);
    frames.push(Buffer.from(buf.subarray(offset, end + 1)));
    offset = end + 1;
  }
  return { frames, rest: Buffer.from(buf.subarray(offset)) };
}

function utc(year2: number, month: number, day: number, hh: number, mi: number, ss: number): Date | null {
  if (month < 1 || month > 12 || day < 1 || day > 31 || hh > 23 || mi > 59 || ss > 59) return null;
  const date = new Date(Date.UTC(2000 + year2, month - 1, day, hh, mi, ss));
  return date.getTime() > Date.now() + FUTURE_SLACK_MS ? null : date;
}

function degrees(whole: string, minutes: string, hemisphere: string, negative: string): number | null {
  const m = Number(minutes);
  if (m >= 60) return null;
  const value = Number(whole || '0') + m / 60;
  return hemisphere === negative ? -value : value;
}

function basePosition(
  deviceId: string, time: Date | null, validity: string, lat: number | null, lon: number | null, kmh: number, course: number,
): DecodedPosition | null {
  const speed = kmh * KNOTS_PER_KMH;
  if (time === null || lat === null || lon === null || Math.abs(lat) > 90 || Math.abs(lon) > 180) return null;
  if (!Number.isFinite(speed) || speed < 0 || speed > MAX_SPEED_KNOTS || !Number.isFinite(course) || course < 0 || course > 360) return null;
  return { deviceId, fixTime: time, valid: validity === 'A', latitude: lat, longitude: lon, speed, course, attributes: {} };
}

// yymmdd A lat N lon E speed(≤5) hhmmss [course(6) ,? io(8) L odometer | course] ... [temperature]
const CLASSIC_BODY =
  /^(\d\d)(\d\d)(\d\d)([AV]) *(\d*)(\d\d\.\d+)([NS]) *(\d*)(\d\d\.\d+)([EW])([ \d.]{1,5})(\d\d)(\d\d)(\d\d),?(?:([ \d.]{6}),?([01])([01])([0-9A-Fa-f])([0-9A-Fa-f])([0-9A-Fa-f])([0-9A-Fa-f]{3})L([0-9A-Fa-f]{1,8})|(\d+\.\d+))?.*?([+-]\d{3}\.\d)?$/;

function decodeClassicBody(deviceId: string, body: string): DecodedPosition | null {
  const m = CLASSIC_BODY.exec(body);
  if (!m) return null;
  const g = (i: number): string => m[i] ?? '';
  const time = utc(Number(g(1)), Number(g(2)), Number(g(3)), Number(g(12)), Number(g(13)), Number(g(14)));
  const courseText = (g(15) || g(23)).trim();
  const p = basePosition(
    deviceId, time, g(4), degrees(g(5), g(6), g(7), 'S'), degrees(g(8), g(9), g(10), 'W'),
    Number(g(11).trim() || '0'), courseText === '' ? 0 : Number(courseText),
  );
  if (!p) return null;
  if (g(16)) {
    p.attributes.charge = g(16) === '0';
    p.ignition = g(17) === '1';
    const mask1 = parseInt(g(18), 16);
    p.attributes.in2 = (mask1 & 1) === 1;
    p.attributes.panic = (mask1 & 2) === 2;
    p.attributes.out2 = (mask1 & 4) === 4;
    p.attributes.door = (parseInt(g(19), 16) & 8) === 8;
    p.attributes.fuel = parseInt(g(21), 16);
    p.odometer = parseInt(g(22), 16);
  }
  if (g(24)) p.attributes.temp1 = Number(g(24));
  return p;
}

function decodeCommaBody(deviceId: string, command: string, f: string[]): DecodedPosition | null {
  // f: ddmmyy, A, lat+hem, lon+hem, km/h, hhmmss, course, [altitude, satellites] | [io, Lodometer]
  const d = /^(\d\d)(\d\d)(\d\d)$/.exec(f[0] ?? '');
  const t = /^(\d\d)(\d\d)(\d\d)$/.exec(f[5] ?? '');
  const lat = /^(\d*)(\d\d\.\d+)([NS])$/.exec(f[2] ?? '');
  const lon = /^(\d*)(\d\d\.\d+)([EW])$/.exec(f[3] ?? '');
  if (!d || !t || !lat || !lon || !/^[AV]$/.test(f[1] ?? '')) return null;
  const p = basePosition(
    deviceId,
    utc(Number(d[3]), Number(d[2]), Number(d[1]), Number(t[1]), Number(t[2]), Number(t[3])),
    f[1]!, degrees(lat[1]!, lat[2]!, lat[3]!, 'S'), degrees(lon[1]!, lon[2]!, lon[3]!, 'W'),
    Number(f[4]), Number(f[6] ?? '0'),
  );
  if (!p) return null;
  const odometer = /^L([0-9A-Fa-f]{1,8})$/.exec(f[8] ?? '');
  if (odometer) p.odometer = parseInt(odometer[1]!, 16);
  else if (f[7] !== undefined && f[8] !== undefined && /^-?\d+(\.\d+)?$/.test(f[7]) && /^\d+$/.test(f[8])) {
    p.altitude = Number(f[7]);
    p.satellites = Number(f[8]);
  }
  p.alarm = COMMAND_ALARMS[command] ?? null;
  if (IGNITION_ON.has(command)) p.ignition = true;
  if (IGNITION_OFF.has(command)) p.ignition = false;
  return p;
}

function finish(positions: DecodedPosition[], deviceId: string, kind: DecodeResult['kind'], ack?: string, alarm?: string | null): DecodeResult {
  const found = alarm ?? positions[0]?.alarm ?? null;
  return {
    positions,
    deviceId,
    kind: found && kind === 'position' ? 'alarm' : kind,
    crcValid: true,
    ...(ack ? { ack: Buffer.from(ack, 'latin1') } : {}),
    ...(found ? { events: [{ alarm: found }] } : {}),
  };
}

export function decodeTk103(frame: Buffer, session: ProtocolSession): DecodeResult {
  const text = frame.toString('latin1').trim().replace(/^\(/, '').replace(/\)$/, '');
  const comma = /^([^,]{1,20}),([A-Z0-9]{4}),(.*)$/s.exec(text);
  if (comma && /^\d+$/.test(comma[1]!)) {
    const [, id, command, rest] = comma as unknown as [string, string, string, string];
    session.deviceId = id;
    const position = decodeCommaBody(id, command, rest.split(','));
    const ack = command === 'BP05' ? `(${id}AP05)` : undefined;
    if (!position) return finish([], id, command === 'BP05' ? 'login' : 'ignored', ack, COMMAND_ALARMS[command]);
    return finish([position], id, command === 'BP05' ? 'login' : 'position', ack);
  }
  const classic = /^(.{10,15}?)([A-Z]{2}\d\d)(.*)$/s.exec(text);
  if (!classic) throw new DecodeError('malformed', 'tk103: no device id and command');
  const [, id, command, body] = classic as unknown as [string, string, string, string];
  session.deviceId = id;
  switch (command) {
    case 'BP00':
      return finish([], id, 'heartbeat', `(${id}AP01HSO)`);
    case 'BP05': {
      const position = decodeClassicBody(id, body.replace(/^\d*?(?=\d{6}[AV])/, ''));
      return finish(position ? [position] : [], id, 'login', `(${id}AP05)`);
    }
    case 'BO01': {
      const code = body.charAt(0);
      const alarm = BO01_ALARMS[code] ?? null;
      const position = decodeClassicBody(id, body.slice(1));
      if (position) position.alarm = alarm;
      return finish(position ? [position] : [], id, 'alarm', `(${id}AS01${code})`, alarm);
    }
    case 'BR00':
    case 'BR01':
    case 'BR02': {
      const position = decodeClassicBody(id, body);
      return finish(position ? [position] : [], id, position ? 'position' : 'ignored');
    }
    default:
      return finish([], id, 'ignored');
  }
}

export const tk103Protocol: Protocol = {
  name: PROTOCOL,
  defaultPort: TK103_PORT,
  transport: ['tcp'],
  splitFrames: splitTk103Frames,
  decode: decodeTk103,
};
