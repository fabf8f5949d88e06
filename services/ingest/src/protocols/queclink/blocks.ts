import type { Attributes, Fix } from '../result';
import { int, kilometres, num, time } from './fields';
import type { Model } from './models';

/**
 * The location blocks of an @Track report, found by their shape rather than by a list of layouts
 * (every model and report type lays them out alike; Queclink's @Track protocols):
 * `<GPS accuracy>,<speed km/h>,<azimuth>,<altitude m>,<longitude>,<latitude>,<GPS UTC time>`, then
 * on some models a Wi-Fi list (`<count>` and per access point `<mac>,<rssi>,,,`), the cell
 * `<MCC>,<MNC>,<LAC hex>,<cell id hex>`, on the GL5xx `<csq rssi>,<csq ber>`, and (except on the
 * GL320M) one field that is reserved (`00`, or a value of the model's), the GL300's odometer (km),
 * or on the newer models an append mask (`01`-`03`): bit 0 a satellite count follows, bit 1 a
 * trigger type follows.
 * A block is anchored at its longitude and latitude (six decimals) followed by a 14-digit time; a
 * report's locations are every anchor between the header and the send time. GPS accuracy 0 is the
 * last known fix (`valid=false`).
 */
const KNOTS_PER_KMH = 1 / 1.852;
const COORDINATE = /^-?\d{1,3}\.\d{5,7}$/;
const MAC = /^[0-9A-Fa-f]{12}$/;
const HEX = /^[0-9A-Fa-f]{1,8}$/;
const MAX_WIFI = 20;
/** A fix dated more than 25 h ahead of the server clock is corrupt (the range positions.v1 accepts). */
const FUTURE_SLACK_MS = 25 * 3600 * 1000;
/** ... and one before 2000 (a GPS week rollover or a corrupt year). */
const YEAR_2000_MS = Date.UTC(2000, 0, 1);

export interface Block {
  /** Index of the GPS accuracy field (the block's first). */
  start: number;
  /** Index just past the block (and its append-mask fields). */
  end: number;
  fix: Fix | null;
  attributes: Attributes;
}

function isAnchor(v: readonly string[], at: number): boolean {
  return COORDINATE.test(v[at] ?? '') && COORDINATE.test(v[at + 1] ?? '') && time(v[at + 2]) !== null;
}

/** The serving cell at `at` (4 fields) into attributes when it is one. */
function readCell(v: readonly string[], at: number, attributes: Attributes): void {
  const [mcc, mnc, lac, cid] = v.slice(at, at + 4);
  if (mcc && mnc && lac && cid && Number(mcc) > 0 && /^\d{1,4}$/.test(mcc) && /^\d{1,4}$/.test(mnc) && HEX.test(lac) && HEX.test(cid)) {
    Object.assign(attributes, { mcc: Number(mcc), mnc: Number(mnc), lac: parseInt(lac, 16), cid: parseInt(cid, 16) });
  }
}

/** The Wi-Fi list after the time, when there is one: its access points as `wifi`; returns the fields it takes. */
function readWifi(v: readonly string[], at: number, attributes: Attributes): number {
  const count = int(v[at]);
  if (count === null || count < 1 || count > MAX_WIFI || !MAC.test(v[at + 1] ?? '')) return 0;
  const points: string[] = [];
  for (let i = 0; i < count; i++) {
    const mac = v[at + 1 + i * 5] ?? '';
    const rssi = int(v[at + 2 + i * 5]);
    if (!MAC.test(mac)) return 0;
    points.push(`${mac.toLowerCase().replace(/(..)(?!$)/g, '$1:')}/${rssi ?? ''}`);
  }
  attributes.wifi = points.join(' ');
  return 1 + count * 5;
}

/** The block whose longitude is at `lon`; `limit` is the first index it may not reach (the send time). */
function readBlock(v: readonly string[], lon: number, model: Model, limit: number): Block {
  const start = lon - 4;
  const [accuracy, kmh, course, altitude] = v.slice(start, lon);
  const attributes: Attributes = {};
  const hdop = num(accuracy);
  // 0 means no fix (Queclink's @Track manuals); a negative accuracy is garbage: no HDOP, and the fix
  // is not valid (below), never an hdop the positions contract (>= 0) would refuse
  if (hdop !== null && hdop >= 0) attributes.hdop = hdop;
  let at = lon + 3;
  at += readWifi(v, at, attributes);
  readCell(v, at, attributes);
  at += 4;
  if (model.csq) at += 2;
  if (!model.noMask && at < limit) {
    const x = v[at++] ?? '';
    const odometer = kilometres(x);
    if (odometer !== null) attributes.odometer = odometer;
    else if (/^0[0-3]$/.test(x)) {
      // an append mask defines bits 0 and 1 only: another value here is the reserved field's
      const mask = parseInt(x, 16);
      if (mask & 1 && at < limit) {
        const sats = int(v[at]);
        if (sats !== null && sats >= 0 && sats < 100) attributes.sat = sats;
        at++;
      }
      if (mask & 2 && at < limit) at++; // trigger type
    }
  }
  const fix: Fix = {
    fixTime: time(v[lon + 2])!,
    valid: hdop === null || hdop > 0,
    latitude: Number(v[lon + 1]),
    longitude: Number(v[lon]),
    speed: Math.max(0, num(kmh) ?? 0) * KNOTS_PER_KMH,
    course: num(course) ?? 0,
    altitude: num(altitude),
  };
  const t = fix.fixTime.getTime();
  const inRange =
    t >= YEAR_2000_MS &&
    t <= Date.now() + FUTURE_SLACK_MS &&
    Math.abs(fix.latitude) <= 90 &&
    Math.abs(fix.longitude) <= 180 &&
    fix.course >= 0 &&
    fix.course <= 360 &&
    fix.speed <= 869;
  return { start, end: Math.min(at, limit), fix: inRange ? fix : null, attributes };
}

/** Every location block between `from` (after the header) and `limit` (the send time). */
export function findBlocks(v: readonly string[], from: number, limit: number, model: Model): Block[] {
  const blocks: Block[] = [];
  for (let i = from + 4; i + 2 < limit; i++) {
    if (!isAnchor(v, i)) continue;
    const block = readBlock(v, i, model, limit);
    blocks.push(block);
    i = Math.max(i + 2, block.end - 1);
  }
  return blocks;
}

/**
 * A report without a fix still names its serving cell: the first run of `<MCC 3-4 digits>,<MNC
 * 2-4 digits>,<LAC hex>,<cell id hex>` after the header (the scan Traccar makes for such reports).
 */
export function findCell(v: readonly string[], from: number, limit: number): Attributes {
  for (let i = from; i + 3 < limit; i++) {
    if (
      /^\d{3,4}$/.test(v[i]!) &&
      /^\d{2,4}$/.test(v[i + 1]!) &&
      /^[0-9A-Fa-f]{4}$/.test(v[i + 2]!) &&
      /^[0-9A-Fa-f]{4,8}$/.test(v[i + 3]!)
    ) {
      const cell: Attributes = {};
      readCell(v, i, cell);
      return cell;
    }
  }
  return {};
}
