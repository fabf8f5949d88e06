import { useTranslation } from 'react-i18next';

const KMH_PER_KNOT = 1.852;

/** The locale for Intl: the chosen language with the browser's region where it matches (en-KE, sw-TZ), else a default. */
function localeFor(language: string): string {
  const browser = typeof navigator !== 'undefined' ? navigator.languages ?? [navigator.language] : [];
  const match = browser.find((l) => l.toLowerCase().startsWith(language));
  return match ?? (language === 'sw' ? 'sw-KE' : 'en-GB');
}

export interface Formatters {
  dateTime(iso: string | null | undefined): string;
  /** With seconds (a replay's moment, a fix's time). */
  dateTimeSeconds(iso: string | null | undefined): string;
  date(iso: string | null | undefined): string;
  number(n: number | null | undefined, digits?: number): string;
  /** Knots on the wire → km/h. */
  speedKnots(knots: number | null | undefined): string;
  speedKmh(kmh: number | null | undefined): string;
  /** Metres → km (or m under 1 km). */
  distance(metres: number | null | undefined): string;
  duration(seconds: number | null | undefined): string;
  relative(iso: string | null | undefined, now?: number): string;
  money(amount: number | null | undefined, currency: string): string;
}

export function formatters(language: string): Formatters {
  const locale = localeFor(language);
  const dt = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  const d = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' });
  const dts = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' });
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
  const unit = (n: number, u: string, digits = 0) => numberFormat(`u:${u}:${digits}`, { style: 'unit', unit: u, unitDisplay: 'short', maximumFractionDigits: digits }).format(n);
  const dash = '—';
  return {
    dateTime: (iso) => (iso ? dt.format(new Date(iso)) : dash),
    dateTimeSeconds: (iso) => (iso ? dts.format(new Date(iso)) : dash),
    date: (iso) => (iso ? d.format(new Date(iso)) : dash),
    number: (n, digits) => (n === null || n === undefined ? dash : num(n, digits)),
    speedKnots: (k) => (k === null || k === undefined ? dash : unit(k * KMH_PER_KNOT, 'kilometer-per-hour')),
    speedKmh: (k) => (k === null || k === undefined ? dash : unit(k, 'kilometer-per-hour')),
    distance: (m) => (m === null || m === undefined ? dash : m < 1000 ? unit(m, 'meter') : unit(m / 1000, 'kilometer', m < 10_000 ? 1 : 0)),
    duration: (s) => {
      if (s === null || s === undefined) return dash;
      const h = Math.floor(s / 3600);
      const m = Math.round((s % 3600) / 60);
      return h ? `${unit(h, 'hour')} ${unit(m, 'minute')}` : unit(m, 'minute');
    },
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
      amount === null || amount === undefined ? dash : numberFormat(`c:${currency}`, { style: 'currency', currency, maximumFractionDigits: 2 }).format(amount),
  };
}

/** Formatters in the user's language, rebuilt when it changes. */
export function useFormat(): Formatters {
  const { i18n } = useTranslation();
  let f = cache.get(i18n.language);
  if (!f) cache.set(i18n.language, (f = formatters(i18n.language)));
  return f;
}
const cache = new Map<string, Formatters>();
