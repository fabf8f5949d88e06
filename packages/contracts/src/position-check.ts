import { PositionMessage } from './positions';

/*
 * A hand-written check of positions.v1 values as ingest builds them, for the producer's check on
 * the in-process bus (publishValidated): PositionMessage.parse cost 12 % of the embedded stack's
 * ingest thread at saturation (issue 28, bench/results/profiles/saturation-*.txt), most of it
 * zod's machinery and the copy it returns. This check is sound, not complete: a value it accepts
 * is one PositionMessage.parse accepts and returns unchanged (every field present, in range, in
 * the schema's types, times as toISOString writes them, no key the schema would strip or fill);
 * anything else (a missing default, another time form, an unknown key) is left to the schema.
 * position-check.test.ts holds it to that against zod, on random values.
 */

const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const inRange = (v: unknown, min: number, max: number): boolean => num(v) && v >= min && v <= max;
const nullableNum = (v: unknown): boolean => v === null || num(v);
const nullableMin0 = (v: unknown): boolean => v === null || (num(v) && v >= 0);
const nullableText = (v: unknown): boolean => v === null || typeof v === 'string';
const nonEmpty = (v: unknown): boolean => typeof v === 'string' && v.length > 0;

const ZERO = 48;
/** Digits of `s` from `at` to `at + n` as a number, or -1 when one is not a digit. */
function digits(s: string, at: number, n: number): number {
  let out = 0;
  for (let i = at; i < at + n; i++) {
    const d = s.charCodeAt(i) - ZERO;
    if (d < 0 || d > 9) return -1;
    out = out * 10 + d;
  }
  return out;
}

/** 'YYYY-MM-DDTHH:MM:SS.sssZ' (Date.prototype.toISOString's form for years 0000-9999) naming a real day and time. */
function isIsoUtcMillis(s: unknown): boolean {
  if (typeof s !== 'string' || s.length !== 24) return false;
  if (s[4] !== '-' || s[7] !== '-' || s[10] !== 'T' || s[13] !== ':' || s[16] !== ':' || s[19] !== '.' || s[23] !== 'Z') return false;
  const year = digits(s, 0, 4);
  const month = digits(s, 5, 2);
  const day = digits(s, 8, 2);
  const hour = digits(s, 11, 2);
  const minute = digits(s, 14, 2);
  const second = digits(s, 17, 2);
  if (year < 0 || digits(s, 20, 3) < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23) return false;
  if (minute < 0 || minute > 59 || second < 0 || second > 59) return false;
  if (day <= 28) return true;
  // the last days of a month: the calendar's (a leap year's 29 February)
  const last = new Date(Date.UTC(2000, month, 0)).getUTCDate(); // 2000 is a leap year: 29 for February
  if (day > last) return false;
  return month !== 2 || day < 29 || (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0));
}

/** The schema's keys: any other would be stripped by its parse. */
const KEYS = new Set(Object.keys(PositionMessage.shape));

function isAttributes(a: unknown): boolean {
  if (a === null || typeof a !== 'object' || Object.getPrototypeOf(a) !== Object.prototype) return false;
  for (const k in a) {
    if (k === '__proto__' || !Object.hasOwn(a, k)) return false;
    const v = (a as Record<string, unknown>)[k];
    if (v !== null && typeof v !== 'string' && typeof v !== 'boolean' && !num(v)) return false;
  }
  return true;
}

/**
 * True when `v` is a positions.v1 value that PositionMessage.parse would return as it is (see the
 * comment at the top); false says nothing (the schema decides).
 */
export function isParsedPositionMessage(v: unknown): v is PositionMessage {
  if (v === null || typeof v !== 'object' || Object.getPrototypeOf(v) !== Object.prototype) return false;
  const p = v as Record<string, unknown>;
  for (const k in p) if (!KEYS.has(k) || !Object.hasOwn(p, k)) return false;
  const id = p.id;
  const deviceId = p.deviceId;
  const satellites = p.satellites;
  return (
    Number.isSafeInteger(id) &&
    (id as number) > 0 &&
    Number.isSafeInteger(deviceId) &&
    (deviceId as number) > 0 &&
    nonEmpty(p.uniqueId) &&
    nonEmpty(p.protocol) &&
    isIsoUtcMillis(p.fixTime) &&
    (p.deviceTime === undefined || isIsoUtcMillis(p.deviceTime)) &&
    isIsoUtcMillis(p.serverTime) &&
    typeof p.valid === 'boolean' &&
    inRange(p.latitude, -90, 90) &&
    inRange(p.longitude, -180, 180) &&
    inRange(p.speed, 0, 869) &&
    inRange(p.course, 0, 360) &&
    nullableNum(p.altitude) &&
    nullableMin0(p.accuracy) &&
    (satellites === null || (Number.isSafeInteger(satellites) && (satellites as number) >= 0)) &&
    nullableMin0(p.hdop) &&
    (p.ignition === null || typeof p.ignition === 'boolean') &&
    nullableMin0(p.odometer) &&
    nullableNum(p.power) &&
    nullableNum(p.battery) &&
    nullableText(p.alarm) &&
    typeof p.crcValid === 'boolean' &&
    nullableText(p.rawFrameId) &&
    isAttributes(p.attributes) &&
    (p.address === undefined || nullableText(p.address))
  );
}
