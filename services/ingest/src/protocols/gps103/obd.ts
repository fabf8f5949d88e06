import type { Attributes } from '../result';
import { utcFromYmd } from '../text-time';

/**
 * GPS103 OBD report (facts from Traccar's Gps103ProtocolDecoder and its public captures):
 * `imei:<id>,OBD,yymmddhhmmss,<odometer>,<fuel instant>,<fuel average>,<hours>,<speed>,<load %>,
 *  <coolant °C>,<throttle %>,<rpm>,<battery V>,<trouble codes...>`; empty fields are missing values.
 * The odometer is kept as sent (as Traccar does), hours become milliseconds (Traccar's unit).
 */
export interface ObdReport {
  time: Date;
  attributes: Attributes;
}

const HOUR_MS = 3_600_000;

function num(value: string | undefined): number | null {
  const text = (value ?? '').replace('%', '').trim();
  if (!/^[-+]?\d+(\.\d+)?$/.test(text)) return null;
  return Number(text);
}

export function decodeObd(f: string[]): ObdReport | null {
  const stamp = /^(\d{6})(\d{6})$/.exec(f[2] ?? '');
  const time = stamp ? utcFromYmd(stamp[1]!, stamp[2]!) : null;
  if (time === null || f.length < 13) return null;
  const a: Attributes = {};
  const set = (key: string, value: number | null): void => {
    if (value !== null) a[key] = value;
  };
  set('odometer', num(f[3]));
  set('fuelConsumption', num(f[5]));
  const hours = num(f[6]);
  if (hours !== null) a.hours = hours * HOUR_MS;
  set('obdSpeed', num(f[7]));
  set('engineLoad', num(f[8]));
  set('coolantTemp', num(f[9]));
  set('throttle', num(f[10]));
  set('rpm', num(f[11]));
  set('battery', num(f[12]));
  const dtcs = f
    .slice(13)
    .map((v) => v.replace(/[;\s]/g, ''))
    .filter((v) => v !== '');
  if (dtcs.length) a.dtcs = dtcs.join(' ');
  return { time, attributes: a };
}
