import type { Attributes } from '../result';
import { hours, int, kilometres, num, readStatus, time } from './fields';
import type { Model } from './models';

/**
 * The fields between a report's last location and its send time, read by their shape (Queclink's
 * @Track protocols; the same fields Traccar's Gl200TextProtocolDecoder reads):
 * - the GV/CV/GB/GMT series: `<mileage km>,<hour meter hhhhh:mm:ss>,<analog inputs mV>...,<backup
 *   battery %>,<device status XXYYZZ>` then, on the GV500 family, `<rpm>,<fuel consumption>,<fuel
 *   level>`; the device status field (six hex digits) anchors it: the field before it is the battery
 *   level, those between the hour meter and the battery the analog inputs (`F<n>`: a fuel level);
 * - without a device status: the first integer is the battery level (the GL series
 *   `[<mileage>,]<battery %>`, the GL5xx `<battery %>,<mode>,<motion>,...`, a GV whose status field
 *   is cut short), except on the GT501 (`<signal>,<battery %>`);
 * - ignition reports `<hour meter>,<mileage>`: the same shapes;
 * - a 14-digit time among them (CV series: the last fix time) is skipped.
 */
export function readTail(tail: readonly string[], model: Model, attributes: Attributes, options: { extras: boolean }): void {
  const fields = tail.filter((f) => time(f) === null);
  const statusAt = fields.findIndex((f) => /^[0-9A-Fa-f]{6}$/.test(f) && /[0-9]/.test(f));
  let i = 0;
  const odometer = kilometres(fields[0]);
  if (odometer !== null) {
    attributes.odometer = odometer;
    i = 1;
  }
  const hourAt = fields.findIndex((f) => hours(f) !== null);
  if (hourAt >= 0) {
    attributes.hours = hours(fields[hourAt])!;
    // the ignition reports put the mileage after the hour meter
    const after = kilometres(fields[hourAt + 1]);
    if (odometer === null && after !== null) attributes.odometer = after;
  } else if (odometer === null) {
    const second = kilometres(fields[1]);
    if (fields[0] === '' && second !== null) attributes.odometer = second; // empty hour meter, mileage
  }
  if (statusAt > 0) {
    readStatus(fields[statusAt], attributes);
    const battery = int(fields[statusAt - 1]);
    if (battery !== null && battery >= 0 && battery <= 100) attributes.batteryLevel = battery;
    const adcFrom = hourAt >= 0 && hourAt < statusAt ? hourAt + 1 : i + (hourAt < 0 && fields[i] === '' ? 1 : 0);
    fields.slice(adcFrom, statusAt - 1).forEach((f, n) => readAnalog(f, n + 1, attributes));
    if (options.extras) readEngine(fields.slice(statusAt + 1), attributes);
    return;
  }
  readBattery(fields.slice(i), model, attributes);
}

/** `F<n>` is a fuel level, a number an analog input in mV. */
function readAnalog(field: string, index: number, attributes: Attributes): void {
  if (/^F\d{1,3}$/.test(field)) attributes[`fuel${index}`] = Number(field.slice(1));
  else {
    const mv = int(field);
    if (mv !== null && mv >= 0) attributes[`adc${index}`] = mv / 1000;
  }
}

/** GV500 family after the status: rpm, fuel consumption (L/100 km), fuel level (%). */
function readEngine(fields: readonly string[], attributes: Attributes): void {
  const [rpm, consumption, fuel] = fields;
  const r = int(rpm);
  if (r !== null && r >= 0) attributes.rpm = r;
  const c = num(consumption);
  if (c !== null) attributes.fuelConsumption = c;
  const f = int(fuel);
  if (f !== null && f >= 0 && f <= 100) attributes.fuel = f;
}

function readBattery(fields: readonly string[], model: Model, attributes: Attributes): void {
  const level = (f: string | undefined): number | null => {
    const n = int(f);
    return n !== null && n >= 0 && n <= 100 ? n : null;
  };
  // the GT501 sends its signal first; the others lead with the battery level (after an odometer, hour meter or empty analog inputs)
  const battery = model.tail === 'rssiBattery' ? level(fields[1]) : level(fields.find((f) => int(f) !== null));
  if (battery !== null) attributes.batteryLevel = battery;
}
