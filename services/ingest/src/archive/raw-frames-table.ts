import type { Analytics } from '@corridor/platform';

/**
 * ClickHouse raw_frames (the table: packages/platform/migrations/clickhouse/0001_baseline.sql): every
 * frame a device port received, as hex, with what decoding made of it, so a support engineer can
 * replay a device's day through `pnpm decode`. Positions carry the id (positions.raw_frame_id).
 * Rows expire after RAW_FRAME_TTL_DAYS, which the migrate step applies.
 */
const RAW_FRAMES_TABLE = 'raw_frames';

/** The table's qualified name (queries name the database: a chDB session is shared by a process). */
export const rawFramesTable = (ch: Analytics): string => `${ch.database}.${RAW_FRAMES_TABLE}`;

export interface RawFrameRow {
  id: string;
  received_at: string;
  protocol: string;
  transport: string;
  device_id: number | string;
  unique_id: string;
  remote_address: string;
  frame_hex: string;
  outcome: string;
  error_reason: string;
  positions: number;
  crc_valid: boolean | number;
}

/** ClickHouse DateTime64 text for an instant. */
export const chTime = (d: Date): string => d.toISOString().replace('T', ' ').replace('Z', '');

export interface RawFrameQuery {
  ids?: string[];
  uniqueId?: string;
  deviceId?: number;
  from?: Date;
  to?: Date;
  limit?: number;
}

/** Frames in arrival order; by id, or one device's frames in a time range (the replay a support engineer runs). */
export function queryRawFrames(ch: Analytics) {
  return async (q: RawFrameQuery): Promise<RawFrameRow[]> => {
    const where: string[] = [];
    const params: Record<string, unknown> = { limit: q.limit ?? 10_000 };
    if (q.ids) {
      where.push('id IN {ids:Array(String)}');
      params.ids = q.ids;
    }
    if (q.uniqueId !== undefined) {
      where.push('unique_id = {uid:String}');
      params.uid = q.uniqueId;
    }
    if (q.deviceId !== undefined) {
      where.push('device_id = {did:UInt64}');
      params.did = q.deviceId;
    }
    if (q.from) {
      where.push("received_at >= {from:DateTime64(3, 'UTC')}");
      params.from = chTime(q.from);
    }
    if (q.to) {
      where.push("received_at <= {to:DateTime64(3, 'UTC')}");
      params.to = chTime(q.to);
    }
    const rs = await ch.client.query({
      query: `SELECT * FROM ${rawFramesTable(ch)} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY received_at, id LIMIT {limit:UInt32}`,
      query_params: params,
      format: 'JSONEachRow',
    });
    return rs.json<RawFrameRow>();
  };
}
