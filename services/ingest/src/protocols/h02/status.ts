/**
 * H02 vehicle status word (32 bits, active low), facts from Traccar's H02ProtocolDecoder and the
 * H02 document: one alarm per report, checked in this order (first cleared bit wins).
 */
const ALARM_BITS: { bits: number[]; alarm: string }[] = [
  { bits: [0], alarm: 'vibration' },
  { bits: [1, 18], alarm: 'sos' },
  { bits: [2], alarm: 'overspeed' },
  { bits: [19], alarm: 'powerCut' },
];
/** Bit 10 set = ignition (ACC) on. */
const IGNITION_BIT = 10;

export interface H02Status {
  status: number;
  alarm: string | null;
  ignition: boolean;
}

function bitSet(value: number, bit: number): boolean {
  return ((value >>> bit) & 1) === 1;
}

export function decodeStatus(status: number): H02Status {
  const hit = ALARM_BITS.find((entry) => entry.bits.some((bit) => !bitSet(status, bit)));
  return { status, alarm: hit?.alarm ?? null, ignition: bitSet(status, IGNITION_BIT) };
}

/** Battery byte of the binary report → percent (H02 document scale: 1..6 steps, 0..100 direct, F1..F6). */
export function decodeBatteryLevel(value: number): number | null {
  if (value === 0) return null;
  if (value <= 3) return (value - 1) * 10;
  if (value <= 6) return (value - 1) * 20;
  if (value <= 100) return value;
  if (value >= 0xf1 && value <= 0xf6) return value - 0xf0;
  return null;
}
