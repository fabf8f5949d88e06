/**
 * Numeric position ids (Traccar's Position.id is an int64; JavaScript clients read JSON numbers as
 * doubles, so ids stay below 2^53). An id is derived from what identifies a stored position, never
 * assigned: the device, the fix time in whole seconds, and whether it is a fix or a state record
 * (a status or heartbeat message kept with the last known location, attributes.outdated = true).
 *
 *   id = ((seconds since 2000-01-01T00:00:00Z) · 2 + kind) · 2^20 + deviceId      kind: 0 fix, 1 state record
 *
 * So a redelivered or resent position has the same id (dedupe keeps working on it), ids sort by
 * time like Traccar's auto-increment, and the device and time can be read back from an id.
 * Bounds: device ids 1 .. 1,048,575 and fix times 2000-01-01 .. 2136-02-07. The platform stores
 * positions at one-second resolution (as Traccar's MySQL schema does): ingest truncates fix times
 * to the second, and a second fix of one device within the same second is a duplicate.
 */
export const POSITION_ID_DEVICE_BITS = 20;
export const MAX_POSITION_DEVICE_ID = 2 ** POSITION_ID_DEVICE_BITS - 1;
export const POSITION_ID_EPOCH_MS = Date.UTC(2000, 0, 1);
const DEVICE_SPAN = 2 ** POSITION_ID_DEVICE_BITS;
const MAX_SECONDS = 2 ** 32 - 1;

export type PositionKind = 'fix' | 'state';

/** The fix time as stored: truncated to the whole second (ms → 0). */
export function positionTime(fixTime: string | Date | number): Date {
  const ms = typeof fixTime === 'number' ? fixTime : typeof fixTime === 'string' ? Date.parse(fixTime) : fixTime.getTime();
  return new Date(Math.floor(ms / 1000) * 1000);
}

/** True when a position id can be made for this device and time (device 0: no registry lookup, as `pnpm decode` prints). */
export function positionIdFits(deviceId: number, fixTime: string | Date | number): boolean {
  const s = Math.floor((positionTime(fixTime).getTime() - POSITION_ID_EPOCH_MS) / 1000);
  return Number.isInteger(deviceId) && deviceId >= 0 && deviceId <= MAX_POSITION_DEVICE_ID && s >= 0 && s <= MAX_SECONDS;
}

/** The id of a device's position at a fix time (any sub-second part is ignored). Throws outside the bounds above. */
export function positionId(deviceId: number, fixTime: string | Date | number, kind: PositionKind = 'fix'): number {
  if (!positionIdFits(deviceId, fixTime)) {
    throw new RangeError(
      `no position id for device ${deviceId} at ${String(fixTime)} (device ids 0..${MAX_POSITION_DEVICE_ID}, times 2000..2136)`,
    );
  }
  const s = Math.floor((positionTime(fixTime).getTime() - POSITION_ID_EPOCH_MS) / 1000);
  return (s * 2 + (kind === 'state' ? 1 : 0)) * DEVICE_SPAN + deviceId;
}

/** What an id says: its device, its (whole-second) fix time and its kind; undefined for a number that is no position id. */
export function parsePositionId(id: number): { deviceId: number; fixTime: Date; kind: PositionKind } | undefined {
  if (!Number.isSafeInteger(id) || id <= 0) return undefined;
  const deviceId = id % DEVICE_SPAN;
  const rest = Math.floor(id / DEVICE_SPAN);
  if (deviceId === 0) return undefined;
  return { deviceId, fixTime: new Date(POSITION_ID_EPOCH_MS + Math.floor(rest / 2) * 1000), kind: rest % 2 === 1 ? 'state' : 'fix' };
}
