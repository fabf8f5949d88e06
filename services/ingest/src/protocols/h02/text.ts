import type { DecodedPosition } from '../protocol';
import { decodeStatus } from './status';
import { MAX_SPEED_KNOTS, utcFromText } from '../text-time';

/**
 * Text H02 reports `*XX,<id>,<type>,...#` (XX = maker code: HQ, TH, ...). Field facts from the H02
 * document and Traccar's H02ProtocolDecoder:
 * - V1/V2/VI1/V19/...: hhmmss, validity (A/V, or a coding-scheme number meaning valid), lat, N/S,
 *   lon, E/W, speed (knots), course, [battery], ddmmyy, [V19: 3 SIM fields], status (8 hex), extras;
 * - V4: reply to a command: `V4,<command and its result...>,<command hhmmss>,<hhmmss>,A,...` as V1;
 * - V2/VI1: a coding-scheme number in place of A/V (valid); V5/V6/V8 as V1 with their own extras.
 * Reports without a fix (NBR, LINK, V3, VP1 cells, HTBT) are in reports.ts.
 */
export interface TextFields {
  id: string;
  type: string;
  fields: string[];
}

export function splitText(sentence: string): TextFields | null {
  const body = sentence.trim().replace(/^\*/, '').replace(/#$/, '');
  const fields = body.split(',');
  const [maker, id, type] = fields;
  if (maker === undefined || maker.length !== 2 || id === undefined || !/^\d*$/.test(id) || type === undefined) return null;
  return { id, type, fields };
}

function parseCoordinate(value: string, hemisphere: string, negative: string): number | null {
  let degrees: number;
  let minutes: number;
  const dashed = /^-(\d+)-(\d+\.\d+)$/.exec(value);
  const dotted = /^(\d*)(\d\d\.\d+)$/.exec(value); // degrees may be absent: `38.6508,W` is 0°38.6508'
  const packed = /^(\d+)(\d\d)(\d{4})$/.exec(value);
  if (dashed) [degrees, minutes] = [Number(dashed[1]), Number(dashed[2])];
  else if (dotted) [degrees, minutes] = [Number(dotted[1]), Number(dotted[2])];
  else if (packed) [degrees, minutes] = [Number(packed[1]), Number(`${packed[2]}.${packed[3]}`)];
  else return null;
  if (minutes >= 60) return null;
  const result = degrees + minutes / 60;
  return hemisphere === negative ? -result : result;
}

const EXTRA_SENSORS = [/^\d+$/, /^-?\d+$/, /^\d+\.\d+$/, /^-?\d+$/, /^[0-9A-Fa-f]+$/, /^[0-9A-Fa-f]+$/];
const HEX8 = /^[0-9A-Fa-f]{8}$/;

/** Index of the validity field: the one followed by lat, N/S, lon, E/W. */
function findValidity(fields: string[]): number {
  for (let k = 3; k + 4 < fields.length; k++) {
    if (/^[NS]$/.test(fields[k + 2] ?? '') && /^[EW]$/.test(fields[k + 4] ?? '')) return k;
  }
  return -1;
}

/** A V-type report with a position; null when the text carries no usable fix or date. */
export function decodePositionText({ id, type, fields }: TextFields): DecodedPosition | null {
  const k = findValidity(fields);
  if (k < 0) return null;
  const f = (i: number): string => (fields[i] ?? '').trim();
  const latitude = parseCoordinate(f(k + 1), f(k + 2), 'S');
  const longitude = parseCoordinate(f(k + 3), f(k + 4), 'W');
  const speed = Number(f(k + 5));
  const course = f(k + 6) === '' ? 0 : Number(f(k + 6));
  if (latitude === null || longitude === null || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
  if (!Number.isFinite(speed) || speed < 0 || speed > MAX_SPEED_KNOTS || !Number.isFinite(course) || course < 0 || course > 360)
    return null;

  const attributes: DecodedPosition['attributes'] = {};
  let dateAt = k + 7;
  if (/^\d{1,3}$/.test(f(dateAt)) && /^\d{6}$/.test(f(dateAt + 1))) {
    attributes.batteryLevel = Number(f(dateAt));
    dateAt++;
  }
  // VP1 reports carry only the date: the fix time is its midnight (as Traccar reads it).
  const fixTime = utcFromText(f(dateAt), type === 'VP1' ? '000000' : f(k - 1));
  if (fixTime === null) return null;

  const validity = f(k);
  const position: DecodedPosition = {
    deviceId: id || undefined,
    fixTime,
    valid: validity === 'A' || /^\d+$/.test(validity),
    latitude,
    longitude,
    speed,
    course,
    attributes,
  };
  if (type === 'V4') {
    attributes.result = fields.slice(3, k - 2).join(',');
  }
  let statusAt = dateAt + 1;
  if (type === 'V19') statusAt += 3;
  if (HEX8.test(f(statusAt))) {
    const status = decodeStatus(parseInt(f(statusAt), 16));
    position.alarm = status.alarm;
    position.ignition = status.ignition;
    attributes.status = status.status;
    const extras = fields.slice(statusAt + 1).map((v) => v.trim());
    if (extras.length === EXTRA_SENSORS.length && extras.every((v, i) => EXTRA_SENSORS[i]!.test(v))) {
      position.odometer = Number(extras[0]);
      attributes.temp1 = Number(extras[1]);
      attributes.fuel = Number(extras[2]);
      position.altitude = Number(extras[3]);
      attributes.lac = parseInt(extras[4]!, 16);
      attributes.cid = parseInt(extras[5]!, 16);
    } else {
      extras.forEach((value, i) => (attributes[`io${i + 1}`] = value));
    }
  }
  return position;
}
