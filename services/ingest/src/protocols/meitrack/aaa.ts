import type { DecodedPosition } from '../protocol';
import { Alarms, positionOf, type Attributes } from '../result';
import { MEITRACK_EVENT_ALARMS } from './events';

/**
 * AAA position report (facts from the Meitrack GPRS protocol documents and Traccar's
 * MeitrackProtocolDecoder): event code, lat, lon (signed decimal degrees), yymmddhhmmss (UTC),
 * A/V, satellites, GSM signal, speed km/h, course, hdop, altitude m, odometer m, runtime s,
 * `mcc|mnc|lac|cid` (hex lac/cid), io status (2 hex input + 2 hex output), analog values
 * (`battery|power|rtc|mcu|gps` in volts on T-series, otherwise hex `ad1|ad2|ad3|battery|power`,
 * battery and power in 0.01 V as Traccar reads them when the model is not configured), then
 * optional event-specific data (event 37: driver id), reserved, protocol version, fuel (4 hex:
 * integer byte + hundredths) and temperatures (`<index 2 hex><value 4 hex>|...`, 0.01 °C signed
 * from protocol version 3, older: signed byte + hundredths).
 */
const KNOTS_PER_KMH = 1 / 1.852;
const MAX_SPEED_KNOTS = 869;
const FUTURE_SLACK_MS = 25 * 3600 * 1000;
const EVENT_DRIVER_ID = 37;

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

function readAnalog(field: string | undefined, a: Attributes): void {
  const analog = (field ?? '').split('|');
  if (analog.length >= 2 && analog.slice(0, 2).every((v) => /^\d+\.\d+$/.test(v))) {
    a.battery = Number(analog[0]);
    a.power = Number(analog[1]);
  } else if (analog.length >= 5) {
    analog.slice(0, 3).forEach((v, i) => {
      const value = hex(v);
      if (value !== null) a[`adc${i + 1}`] = value;
    });
    const battery = hex(analog[3]);
    const power = hex(analog[4]);
    if (battery !== null) a.battery = battery / 100;
    if (power !== null) a.power = power / 100;
  }
}

function readTemperatures(field: string | undefined, protocol: number, a: Attributes): void {
  if (!field || !/^[0-9A-Fa-f]{6}(\|[0-9A-Fa-f]{6})*$/.test(field)) return;
  for (const t of field.split('|')) {
    const index = parseInt(t.slice(0, 2), 16);
    if (protocol >= 3) {
      a[`temp${index}`] = Math.round((parseInt(t.slice(2), 16) << 16) >> 16) / 100;
    } else {
      const whole = (parseInt(t.slice(2, 4), 16) << 24) >> 24;
      const hundredths = parseInt(t.slice(4), 16) / 100;
      a[`temp${index}`] = Math.round((whole + (whole < 0 ? -hundredths : hundredths)) * 100) / 100;
    }
  }
}

/** AAA fields from the event code on (f[0] = event); null when the fields do not make a fix. */
export function decodeAaa(deviceId: string, f: string[]): DecodedPosition | null {
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
  const a: Attributes = { event, rssi: num(f[6]), runtime: num(f[12]) };
  const satellites = num(f[5]);
  if (satellites !== null && Number.isInteger(satellites) && satellites >= 0) a.sat = satellites;
  const hdop = num(f[9]);
  if (hdop !== null && hdop >= 0) a.hdop = hdop;
  const altitude = num(f[10]);
  if (altitude !== null) a.altitude = altitude;
  const odometer = num(f[11]);
  if (odometer !== null) a.odometer = odometer;
  const [mcc, mnc, lac, cid] = (f[13] ?? '').split('|');
  if (num(mcc) && num(mnc)) Object.assign(a, { mcc: num(mcc), mnc: num(mnc), lac: hex(lac), cid: hex(cid) });
  const io = f[14] ?? '';
  if (/^[0-9A-Fa-f]{4}$/.test(io)) Object.assign(a, { input: hex(io.slice(0, 2)), output: hex(io.slice(2)) });
  readAnalog(f[15], a);
  const eventData = f[16];
  if (eventData) a[event === EVENT_DRIVER_ID ? 'driverUniqueId' : 'eventData'] = eventData;
  const protocol = num(f[18]) ?? 0;
  const fuel = f[19];
  if (fuel && /^[0-9A-Fa-f]{4}$/.test(fuel)) a.fuel = parseInt(fuel.slice(0, 2), 16) + parseInt(fuel.slice(2), 16) / 100;
  readTemperatures(f[20], protocol, a);
  const alarms = new Alarms();
  alarms.add(MEITRACK_EVENT_ALARMS.get(event));
  return positionOf({ fixTime: time, valid: f[4] === 'A', latitude, longitude, speed, course }, a, alarms, deviceId);
}
