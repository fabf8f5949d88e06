import { networkAttributes, type Cell } from '../network';
import type { Attributes } from '../result';
import { int, MOTION_STATES, num } from './fields';
import type { Model } from './models';

/**
 * The @Track reports that carry no location (Queclink's @Track protocols; field orders as Traccar's
 * Gl200TextProtocolDecoder reads them). `at` is the index of the first field after the device name.
 */

/**
 * GTINF device information: `<motion state>,<ICCID>,<signal>,<BER>,<external power supply>,
 * <external power mV | GL: odometer km>,<second power mV | reserved>,<backup battery V>,<charging>,...`.
 */
export function readInfo(v: readonly string[], at: number, model: Model): Attributes {
  const f = (i: number): string | undefined => v[at + i];
  const a: Attributes = {};
  const state = f(0) && /^[0-9A-Fa-f]{2}$/.test(f(0)!) ? MOTION_STATES[parseInt(f(0)!, 16)] : undefined;
  if (state) Object.assign(a, state);
  if (f(1) && /^[0-9A-Za-z]{18,22}$/.test(f(1)!)) a.iccid = f(1)!;
  const rssi = int(f(2));
  if (rssi !== null && rssi >= 0 && rssi <= 99) a.rssi = rssi;
  const powerOrOdometer = f(5);
  if (powerOrOdometer && num(powerOrOdometer) !== null) {
    if (powerOrOdometer.includes('.')) a.odometer = Math.round(Number(powerOrOdometer) * 1000);
    else a.power = Number(powerOrOdometer) / 1000;
  }
  const second = int(f(6));
  if (second !== null && second > 1000 && !['GV350M', 'GV310LAU'].includes(model.name)) a.power2 = second / 1000;
  const battery = num(f(7));
  if (battery !== null && battery < 10) a.battery = battery;
  if (f(8) === '1') a.charge = true;
  else if (f(8) === '0') a.charge = false;
  return a;
}

/** GTINF of the GT300 (no protocol version): `<ICCID>,<signal>,...`. */
export function readGt300Info(v: readonly string[], at: number): Attributes {
  const a: Attributes = {};
  if (v[at] && /^[0-9A-Za-z]{18,22}$/.test(v[at]!)) a.iccid = v[at]!;
  const rssi = int(v[at + 1]);
  if (rssi !== null && rssi >= 0 && rssi <= 99) a.rssi = rssi;
  return a;
}

/** GTVER: `<device type>,<firmware version hex>,<hardware version hex>`. */
export function readVersion(v: readonly string[], at: number): Attributes {
  const a: Attributes = {};
  if (v[at]) a.deviceType = v[at]!;
  if (/^[0-9A-Fa-f]{4}$/.test(v[at + 1] ?? '')) a.versionFw = v[at + 1]!;
  if (/^[0-9A-Fa-f]{4}$/.test(v[at + 2] ?? '')) a.versionHw = v[at + 2]!;
  return a;
}

/** Groups of `<MCC>,<MNC>,<LAC hex>,<cell id hex>,<rssi>` (every `stride` fields) from `at` to `end`. */
function cellsFrom(v: readonly string[], at: number, end: number, stride: number): Cell[] {
  const cells: Cell[] = [];
  for (let i = at; i + 4 < end; i += stride) {
    const [mcc, mnc, lac, cid, rssi] = v.slice(i, i + 5);
    if (
      !mcc ||
      !/^\d{1,4}$/.test(mcc) ||
      !/^\d{1,4}$/.test(mnc ?? '') ||
      !/^[0-9A-Fa-f]{1,8}$/.test(lac ?? '') ||
      !/^[0-9A-Fa-f]{1,8}$/.test(cid ?? '')
    )
      continue;
    cells.push({ mcc: Number(mcc), mnc: Number(mnc), lac: parseInt(lac!, 16), cid: parseInt(cid!, 16), rssi: int(rssi) ?? 0 });
  }
  return cells;
}

/** GTGSM: `<fix type>` then up to seven cells of `<MCC>,<MNC>,<LAC>,<cell id>,<rssi>,<reserved>`. */
export function readGsm(v: readonly string[], end: number): Attributes {
  return networkAttributes(cellsFrom(v, 4, end, 6), []);
}

/**
 * GTLBS (GL50 series): `<trigger>,<report type>,<battery %>,<reserved>,<motion>,<reserved>,
 * <reserved>,<expansion mask>` then seven cells of `<MCC>,<MNC>,<LAC>,<cell id>,<rssi>,<reserved>`.
 */
export function readLbs(v: readonly string[], at: number, end: number): Attributes {
  const a: Attributes = networkAttributes(cellsFrom(v, at + 8, end, 6), []);
  const battery = int(v[at + 2]);
  if (battery !== null && battery >= 0 && battery <= 100) a.batteryLevel = battery;
  return a;
}

/** GTWIF: `<count>` access points of `<mac>,<rssi>,,,,` then `,,,,<battery %>`. */
export function readWifiReport(v: readonly string[], at: number, end: number): Attributes {
  const count = int(v[at]) ?? 0;
  const points: string[] = [];
  for (let i = 0; i < count && i < 30; i++) {
    const mac = v[at + 1 + i * 5];
    if (!mac || !/^[0-9A-Fa-f]{12}$/.test(mac)) break;
    points.push(`${mac.toLowerCase().replace(/(..)(?!$)/g, '$1:')}/${int(v[at + 2 + i * 5]) ?? ''}`);
  }
  const a = networkAttributes([], points);
  const battery = int(v[end - 1]);
  if (battery !== null && battery >= 0 && battery <= 100) a.batteryLevel = battery;
  return a;
}

/**
 * GTDTT: data from a serial accessory, `,,<data type>,<length>,<data hex>`: the text as `data`; a
 * fuel sensor's `COMB,<n>,<level>` line gives `fuel` (as Traccar reads it).
 */
export function readTransparent(v: readonly string[], end: number): Attributes {
  const hexData = v[end - 1] ?? '';
  if (!/^([0-9A-Fa-f]{2})+$/.test(hexData)) return {};
  const data = Buffer.from(hexData, 'hex').toString('latin1');
  const a: Attributes = { data: data.replace(/[^\x20-\x7e\r\n]/g, '') };
  const comb = /COMB,[^,]*,(-?\d+(?:\.\d+)?)/.exec(data);
  if (comb) a.fuel = Number(comb[1]);
  return a;
}
