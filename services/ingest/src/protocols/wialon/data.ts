import type { Attributes, Fix } from '../result';
import { MAX_SPEED_KNOTS } from '../text-time';
import { readParams } from './params';

/**
 * The short (`#SD#`) and extended (`#D#`) data of Wialon IPS (Gurtam's document, versions 1.1 and
 * 2.0), fields separated by `;`, `NA` for a value the device does not have:
 * `date DDMMYY; time hhmmss[.fraction] (UTC); latitude DDMM.MM; N|S; longitude DDDMM.MM; E|W;
 * speed km/h; course °; height m; satellites` and, in the extended packet, `; hdop; inputs; outputs;
 * adc (comma-separated); ibutton; params` (params.ts). A packet whose date and time are NA takes the
 * arrival time, as the document says the server does.
 *
 * A value that does not parse is answered with the document's error code (`#ASD#`/`#AD#`):
 * 0 time, 10 coordinates, 11 speed, course or height, 12 satellites or hdop, 13 inputs or outputs,
 * 14 adc, 15 params; -1 a packet of the wrong number of fields.
 */
export const SHORT_FIELDS = 10;
export const EXTENDED_FIELDS = 16;
const KNOTS_PER_KMH = 1 / 1.852;
const NUMBER = /^[-+]?\d+(\.\d+)?$/;
const COORDINATE = /^(\d+)(\d\d(?:\.\d+)?)$/;
/** A device time more than 25 h ahead of the server clock is wrong (the range positions.v1 accepts). */
const FUTURE_SLACK_MS = 25 * 3600 * 1000;

export interface WialonData {
  /** Null when the packet has no coordinates: its attributes are a state record. */
  fix: Fix | null;
  attributes: Attributes;
  /** The device's time, null when NA (the arrival time is used). */
  time: Date | null;
}

/** A packet field the document's error code refuses. */
export class DataError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const na = (v: string | undefined): boolean => v === undefined || v === 'NA' || v === '';

function number(v: string | undefined, code: number, what: string): number | null {
  if (na(v)) return null;
  if (!NUMBER.test(v!)) throw new DataError(code, `${what} is not a number (${v})`);
  return Number(v);
}

function timeOf(date: string, time: string): Date | null {
  if (na(date) && na(time)) return null;
  const d = /^(\d\d)(\d\d)(\d\d)$/.exec(date);
  const t = /^(\d\d)(\d\d)(\d\d)(?:\.(\d{1,9}))?$/.exec(time);
  if (!d || !t) throw new DataError(0, `date ${date} or time ${time} is not DDMMYY and hhmmss`);
  const [day, month, year] = [Number(d[1]), Number(d[2]), 2000 + Number(d[3])];
  const [h, mi, s] = [Number(t[1]), Number(t[2]), Number(t[3])];
  const ms = t[4] ? Math.floor(Number(`0.${t[4]}`) * 1000) : 0;
  const value = new Date(Date.UTC(year, month - 1, day, h, mi, s, ms));
  if (month < 1 || month > 12 || value.getUTCDate() !== day || h > 23 || mi > 59 || s > 59)
    throw new DataError(0, `no such date and time (${date} ${time})`);
  if (value.getTime() > Date.now() + FUTURE_SLACK_MS) throw new DataError(0, `date ${date} is in the future`);
  return value;
}

function coordinate(value: string, hemisphere: string, negative: string, max: number): number | null {
  if (na(value)) return null;
  const m = COORDINATE.exec(value);
  if (!m || (hemisphere !== negative && hemisphere !== (negative === 'S' ? 'N' : 'E')))
    throw new DataError(10, `coordinate ${value};${hemisphere} is not DDMM.MM and a hemisphere`);
  // minutes of 60 and more are read as Traccar reads them (a real device sends 5364.0167 for 54.0669)
  const degrees = Number(m[1]) + Number(m[2]) / 60;
  if (degrees > max) throw new DataError(10, `coordinate ${value} out of range`);
  return hemisphere === negative ? -degrees : degrees;
}

/** The fields of one SD or D packet (without the 2.0 checksum); `now` is the arrival time. */
export function readData(fields: readonly string[], now: Date): WialonData {
  const extended = fields.length === EXTENDED_FIELDS;
  if (!extended && fields.length !== SHORT_FIELDS)
    throw new DataError(-1, `${fields.length} fields (a short packet has ${SHORT_FIELDS}, an extended one ${EXTENDED_FIELDS})`);
  const [date, time, lat1, lat2, lon1, lon2, speed, course, height, sats] = fields as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const deviceTime = timeOf(date, time);
  const latitude = coordinate(lat1, lat2, 'S', 90);
  const longitude = coordinate(lon1, lon2, 'W', 180);
  const kmh = number(speed, 11, 'speed');
  const degrees = number(course, 11, 'course');
  const altitude = number(height, 11, 'height');
  if ((kmh !== null && (kmh < 0 || kmh * KNOTS_PER_KMH > MAX_SPEED_KNOTS)) || (degrees !== null && (degrees < 0 || degrees > 360)))
    throw new DataError(11, `speed ${speed} or course ${course} out of range`);
  const satellites = number(sats, 12, 'satellites');
  if (satellites !== null && (!Number.isInteger(satellites) || satellites < 0))
    throw new DataError(12, `satellites ${sats} is not a count`);
  const attributes: Attributes = {};
  if (satellites !== null) attributes.sat = satellites;
  if (extended) readExtended(fields.slice(SHORT_FIELDS), attributes);
  if (latitude === null || longitude === null) return { fix: null, attributes, time: deviceTime };
  return {
    fix: {
      fixTime: deviceTime ?? now,
      // the document has no validity flag: a fix from fewer than 3 satellites is the last known one
      valid: satellites === null || satellites >= 3,
      latitude,
      longitude,
      speed: (kmh ?? 0) * KNOTS_PER_KMH,
      course: degrees ?? 0,
      altitude,
    },
    attributes,
    time: deviceTime,
  };
}

/** hdop; inputs; outputs; adc; ibutton; params. */
function readExtended(fields: readonly string[], attributes: Attributes): void {
  const [hdop, inputs, outputs, adc, ibutton, params] = fields as [string, string, string, string, string, string];
  const h = number(hdop, 12, 'hdop');
  if (h !== null) attributes.hdop = h;
  for (const [key, value] of [
    ['input', inputs],
    ['output', outputs],
  ] as const) {
    if (na(value)) continue;
    if (!/^\d+$/.test(value)) throw new DataError(13, `${key}s ${value} is not a bit field`);
    attributes[key] = Number(value);
  }
  if (!na(adc)) {
    adc.split(',').forEach((v, i) => {
      const n = number(v, 14, `adc${i + 1}`);
      if (n !== null) attributes[`adc${i + 1}`] = n;
    });
  }
  if (!na(ibutton)) attributes.driverUniqueId = ibutton;
  if (!na(params)) {
    const p = readParams(params);
    if (!p) throw new DataError(15, `params ${params.slice(0, 40)} are not name:type:value`);
    Object.assign(attributes, p);
  }
}
