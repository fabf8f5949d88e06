import { useTranslation } from 'react-i18next';
import {
  distanceIn,
  DISTANCE_SYMBOL,
  PREFERENCE_DEFAULTS,
  speedIn,
  SPEED_SYMBOL,
  type CoordinateFormat,
  type DistanceUnit,
  type Preferences,
  type SpeedUnit,
} from '@corridor/contracts/preferences';
import { usePreferences } from '../session/preferences';

const KMH_PER_KNOT = 1.852;

/** The locale for Intl: the chosen language with the browser's region where it matches (en-KE, sw-TZ), else a default. */
function localeFor(language: string): string {
  const browser = typeof navigator !== 'undefined' ? (navigator.languages ?? [navigator.language]) : [];
  const match = browser.find((l) => l.toLowerCase().startsWith(language));
  return match ?? (language === 'sw' ? 'sw-KE' : 'en-GB');
}

/** What the formatters show a user in: their units, time zone and coordinate format (packages/contracts preferences.ts). */
export type FormatPreferences = Pick<Preferences, 'speedUnit' | 'distanceUnit' | 'timezone' | 'coordinateFormat'>;

export interface Formatters {
  dateTime(iso: string | null | undefined): string;
  /** With seconds (a replay's moment, a fix's time). */
  dateTimeSeconds(iso: string | null | undefined): string;
  date(iso: string | null | undefined): string;
  number(n: number | null | undefined, digits?: number): string;
  /** Knots on the wire → the user's speed unit (km/h by default). */
  speedKnots(knots: number | null | undefined): string;
  /** km/h (the domain reports' unit) → the user's speed unit. */
  speedKmh(kmh: number | null | undefined): string;
  /** Metres → the user's distance unit (km, miles or nautical miles; metres under 1 km). */
  distance(metres: number | null | undefined): string;
  /** Seconds → "1 hr 59 min" (minutes rounded, never "60 min"). */
  duration(seconds: number | null | undefined): string;
  /** A position in the user's coordinate format (decimal degrees, degrees and minutes, or degrees, minutes and seconds). */
  coordinates(latitude: number | null | undefined, longitude: number | null | undefined): string;
  relative(iso: string | null | undefined, now?: number): string;
  money(amount: number | null | undefined, currency: string): string;
  /** The user's units, for headers and inputs. */
  units: { speed: SpeedUnit; distance: DistanceUnit; speedSymbol: string; distanceSymbol: string };
  /** A speed in knots as a number in the user's unit (charts, inputs). */
  speedValue(knots: number): number;
  /** Metres as a number in the user's distance unit. */
  distanceValue(metres: number): number;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** One coordinate in a format: dd −1.29210°, ddm 1° 17.526′ S, dms 1° 17′ 31.6″ S. */
function coordinate(value: number, axis: 'lat' | 'lon', format: CoordinateFormat, num: (n: number, digits: number) => string): string {
  if (format === 'dd') return `${num(value, 5)}°`;
  const hemisphere = axis === 'lat' ? (value < 0 ? 'S' : 'N') : value < 0 ? 'W' : 'E';
  const abs = Math.abs(value);
  let degrees = Math.floor(abs);
  if (format === 'ddm') {
    let minutes = Math.round((abs - degrees) * 60 * 1000) / 1000;
    if (minutes >= 60) {
      degrees += 1;
      minutes = 0;
    }
    return `${degrees}° ${num(minutes, 3)}′ ${hemisphere}`;
  }
  let totalSeconds = Math.round((abs - degrees) * 3600 * 10) / 10;
  if (totalSeconds >= 3600) {
    degrees += 1;
    totalSeconds = 0;
  }
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = Math.round((totalSeconds - minutes * 60) * 10) / 10;
  return `${degrees}° ${pad(minutes)}′ ${num(seconds, 1)}″ ${hemisphere}`;
}

export function formatters(language: string, prefs: FormatPreferences = PREFERENCE_DEFAULTS): Formatters {
  const locale = localeFor(language);
  const timeZone = prefs.timezone ?? undefined;
  const dt = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone });
  const d = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone });
  const dts = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium', timeZone });
  const rel = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  // one Intl.NumberFormat per shape, made once: making one costs far more than formatting with it
  // (the live map formats 2,000 speeds per update)
  const numberFormats = new Map<string, Intl.NumberFormat>();
  const numberFormat = (key: string, options: Intl.NumberFormatOptions): Intl.NumberFormat => {
    let nf = numberFormats.get(key);
    if (!nf) numberFormats.set(key, (nf = new Intl.NumberFormat(locale, options)));
    return nf;
  };
  const num = (n: number, digits = 0) => numberFormat(`n:${digits}`, { maximumFractionDigits: digits, minimumFractionDigits: 0 }).format(n);
  const unit = (n: number, u: string, digits = 0) =>
    numberFormat(`u:${u}:${digits}`, { style: 'unit', unit: u, unitDisplay: 'short', maximumFractionDigits: digits }).format(n);
  const dash = '—';
  const speedUnit = prefs.speedUnit;
  const distanceUnit = prefs.distanceUnit;
  // Intl has km/h and mph; knots and nautical miles are written with their symbol
  const speed = (kn: number): string => {
    const v = speedIn(kn, speedUnit);
    if (speedUnit === 'kmh') return unit(v, 'kilometer-per-hour');
    if (speedUnit === 'mph') return unit(v, 'mile-per-hour');
    return `${num(v, 0)} ${SPEED_SYMBOL.kn}`;
  };
  const distance = (m: number): string => {
    if (distanceUnit === 'km' && m < 1000) return unit(m, 'meter');
    const v = distanceIn(m, distanceUnit);
    const digits = v < 10 ? 1 : 0;
    if (distanceUnit === 'km') return unit(v, 'kilometer', digits);
    if (distanceUnit === 'mi') return unit(v, 'mile', digits);
    return `${num(v, digits)} ${DISTANCE_SYMBOL.nmi}`;
  };
  return {
    dateTime: (iso) => (iso ? dt.format(new Date(iso)) : dash),
    dateTimeSeconds: (iso) => (iso ? dts.format(new Date(iso)) : dash),
    date: (iso) => (iso ? d.format(new Date(iso)) : dash),
    number: (n, digits) => (n === null || n === undefined ? dash : num(n, digits)),
    speedKnots: (k) => (k === null || k === undefined ? dash : speed(k)),
    speedKmh: (k) => (k === null || k === undefined ? dash : speed(k / KMH_PER_KNOT)),
    distance: (m) => (m === null || m === undefined ? dash : distance(m)),
    duration: (s) => {
      if (s === null || s === undefined) return dash;
      const total = Math.round(Math.max(0, s) / 60);
      const h = Math.floor(total / 60);
      const m = total % 60;
      return h ? `${unit(h, 'hour')} ${unit(m, 'minute')}` : unit(m, 'minute');
    },
    coordinates: (lat, lon) =>
      lat === null || lat === undefined || lon === null || lon === undefined
        ? dash
        : `${coordinate(lat, 'lat', prefs.coordinateFormat, num)}, ${coordinate(lon, 'lon', prefs.coordinateFormat, num)}`,
    relative: (iso, now = Date.now()) => {
      if (!iso) return dash;
      const s = Math.round((Date.parse(iso) - now) / 1000);
      const a = Math.abs(s);
      if (a < 60) return rel.format(s, 'second');
      if (a < 3600) return rel.format(Math.round(s / 60), 'minute');
      if (a < 86400) return rel.format(Math.round(s / 3600), 'hour');
      return rel.format(Math.round(s / 86400), 'day');
    },
    money: (amount, currency) =>
      amount === null || amount === undefined
        ? dash
        : numberFormat(`c:${currency}`, { style: 'currency', currency, maximumFractionDigits: 2 }).format(amount),
    units: {
      speed: speedUnit,
      distance: distanceUnit,
      speedSymbol: SPEED_SYMBOL[speedUnit],
      distanceSymbol: DISTANCE_SYMBOL[distanceUnit],
    },
    speedValue: (kn) => speedIn(kn, speedUnit),
    distanceValue: (m) => distanceIn(m, distanceUnit),
  };
}

/** Formatters in the user's language and preferences, rebuilt when either changes. */
export function useFormat(): Formatters {
  const { i18n } = useTranslation();
  const p = usePreferences();
  const key = `${i18n.language}|${p.speedUnit}|${p.distanceUnit}|${p.timezone ?? ''}|${p.coordinateFormat}`;
  let f = cache.get(key);
  if (!f) cache.set(key, (f = formatters(i18n.language, p)));
  return f;
}
const cache = new Map<string, Formatters>();
