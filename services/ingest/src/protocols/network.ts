import type { Attributes } from './result';

/**
 * Cell towers and Wi-Fi access points a device reports, as attributes every protocol writes the
 * same way: the serving (first) cell as `mcc`, `mnc`, `lac`, `cid`, and the whole lists as text for
 * a later geolocation: `cells` = `mcc/mnc/lac/cid/rssi` space-separated, `wifi` = `mac/signal`.
 */
export interface Cell {
  mcc: number;
  mnc: number;
  lac: number;
  cid: number;
  rssi: number;
}

/** `aa:bb:cc:dd:ee:ff` from six bytes. */
export function macOf(bytes: Buffer): string {
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join(':');
}

export function networkAttributes(cells: Cell[], wifi: string[]): Attributes {
  const a: Attributes = {};
  const serving = cells[0];
  if (serving) Object.assign(a, { mcc: serving.mcc, mnc: serving.mnc, lac: serving.lac, cid: serving.cid });
  if (cells.length) a.cells = cells.map((c) => `${c.mcc}/${c.mnc}/${c.lac}/${c.cid}/${c.rssi}`).join(' ');
  if (wifi.length) a.wifi = wifi.join(' ');
  return a;
}
