import type { PositionMessage } from '@corridor/contracts';
import type { Analytics } from '../adapters/analytics';

const DAY_MS = 86_400_000;
/**
 * A fix is touching when its day may already have ended by the store's clock: before the start of
 * the UTC day ten minutes from now (so the last ten minutes of a day touch too: a store's clock up
 * to ten minutes ahead of this process's still sees every row of an ended day touched).
 */
const MARGIN_MS = 10 * 60_000;

/**
 * Marks device-days whose positions changed after their day ended (migration 0005's track_touched,
 * version: the store's clock in µs): the reports' stored runs of those days (ops-api
 * clickhouse/report-track-runs.ts) are stale until computed again. Every pair of `deviceIds` and
 * `days` (YYYY-MM-DD, UTC) is marked.
 */
export function touchTrackDays(ch: Analytics) {
  return async (deviceIds: number[], days: string[]): Promise<void> => {
    if (!deviceIds.length || !days.length) return;
    await ch.client.command({
      query: `INSERT INTO ${ch.database}.track_touched (device_id, day, version)
        SELECT arrayJoin({devices:Array(UInt64)}) AS device_id, arrayJoin({days:Array(Date)}) AS day, toUInt64(toUnixTimestamp64Micro(now64(6)))`,
      query_params: { devices: deviceIds, days },
    });
  };
}

/**
 * The device-days of late fixes among positions just stored (fix time before today, with the
 * margin above), for touchTrackDays: live traffic (today's fixes) gives none, at the cost of one
 * comparison per fix.
 */
export function lateDays(positions: PositionMessage[], now = Date.now()): Map<string, Set<number>> {
  const today = Math.floor((now + MARGIN_MS) / DAY_MS) * DAY_MS;
  const out = new Map<string, Set<number>>();
  for (const p of positions) {
    const t = Date.parse(p.fixTime);
    if (t >= today) continue;
    const day = new Date(Math.floor(t / DAY_MS) * DAY_MS).toISOString().slice(0, 10);
    let devices = out.get(day);
    if (!devices) out.set(day, (devices = new Set()));
    devices.add(p.deviceId);
  }
  return out;
}
