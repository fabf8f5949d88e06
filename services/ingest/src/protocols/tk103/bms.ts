import { ByteReader } from '../byte-reader';
import type { Attributes } from '../result';

/**
 * Battery-management reports of TK103 trackers on electric vehicles (facts from Traccar's
 * Tk103ProtocolDecoder and its public test captures):
 * - BS50: hex bytes, little-endian: 3 header bytes, cell count, 24 cell voltages (mV), charge
 *   state (0 = charging), current (0.1 A), battery (0.01 V), batteryLevel %, overheat, charge and
 *   discharge protection flags, drop line, balanced, cycles, fault alarm, 6 reserved bytes,
 *   temperature count, power and equilibrium temperatures, 7 battery temperatures (°C + 40),
 *   calibration capacity (0.01), discharge capacity;
 * - BS51: `key:hex` groups; the values are big-endian (the capture's current reads 30000 = 0 A and
 *   its cell voltages 3.8 V only so): 0x90 cumulative and gathered voltage (0.1 V), current
 *   ((x - 30000) × 0.1 A), soc (0.1 %); 0x91 highest and lowest cell voltage (mV) with their cell
 *   numbers; 0x92 highest and lowest temperature (°C + 40) with their sensor numbers; 0x96 a frame
 *   number and cell temperatures. Other keys are not described publicly and are skipped.
 */
const PROTOCOL = 'tk103';
const HEX = /^(?:[0-9A-Fa-f]{2})+$/;

export function decodeBs50(payload: string): Attributes | null {
  if (!HEX.test(payload)) return null;
  const r = new ByteReader(Buffer.from(payload, 'hex'), PROTOCOL);
  const a: Attributes = {};
  r.skip(3);
  const cells = r.u8();
  for (let i = 1; i <= 24; i++) {
    const millivolts = r.u16le();
    if (i <= cells) a[`battery${i}`] = millivolts / 1000;
  }
  a.charge = r.u8() === 0;
  a.current = r.u16le() / 10;
  a.battery = r.u16le() / 100;
  a.batteryLevel = r.u8();
  a.batteryOverheat = r.u8() > 0;
  a.chargeProtection = r.u8() > 0;
  a.dischargeProtection = r.u8() > 0;
  r.skip(2); // drop line, balanced
  a.cycles = r.u16le();
  a.faultAlarm = r.u8();
  r.skip(6);
  const temperatures = r.u8();
  a.powerTemp = r.u8() - 40;
  a.equilibriumTemp = r.u8() - 40;
  for (let i = 1; i <= 7; i++) {
    const t = r.u8() - 40;
    if (i <= temperatures) a[`batteryTemp${i}`] = t;
  }
  a.calibrationCapacity = r.u16le() / 100;
  a.dischargeCapacity = r.u32le();
  return a;
}

function bs51Group(key: number, r: ByteReader, a: Attributes): void {
  switch (key) {
    case 0x90:
      a.cumulativeVoltage = r.u16() / 10;
      a.gatherVoltage = r.u16() / 10;
      a.current = (r.u16() - 30000) / 10;
      a.soc = r.u16() / 10;
      break;
    case 0x91:
      a.maxCellVoltage = r.u16() / 1000;
      a.maxCellVoltageCount = r.u8();
      a.minCellVoltage = r.u16() / 1000;
      a.minCellVoltageCount = r.u8();
      break;
    case 0x92:
      a.maxTemp = r.u8() - 40;
      a.maxTempCount = r.u8();
      a.minTemp = r.u8() - 40;
      a.minTempCount = r.u8();
      break;
    case 0x96:
      r.skip(1); // frame number
      for (let i = 1; r.remaining > 0; i++) a[`cellTemp${i}`] = r.u8() - 40;
      break;
    default:
  }
}

export function decodeBs51(payload: string): Attributes | null {
  const a: Attributes = {};
  for (const group of payload.split(',')) {
    const m = /^([0-9A-Fa-f]{2}):((?:[0-9A-Fa-f]{2})+)$/.exec(group);
    if (!m) return null;
    bs51Group(parseInt(m[1]!, 16), new ByteReader(Buffer.from(m[2]!, 'hex'), PROTOCOL), a);
  }
  return a;
}
