import { onCluster, storageTable, tableDdl, type Analytics, type Placement, type TableLayout } from '@corridor/platform';

/**
 * ClickHouse raw_frames: every frame a device port received, as hex, with what decoding made of it,
 * so a support engineer can replay a device's day through `pnpm decode`. Positions carry the id
 * (positions.raw_frame_id). MergeTree ordered by device and time; rows expire after the TTL.
 */
export const RAW_FRAMES_TABLE = 'raw_frames';

/** The table's qualified name (queries name the database: a chDB session is shared by a process). */
export const rawFramesTable = (ch: Analytics): string => `${ch.database}.${RAW_FRAMES_TABLE}`;

/** The table; its TTL (RAW_FRAME_TTL_DAYS) is part of the layout. Sharded by device unique id (frames of unidentified devices have device_id 0). */
export function rawFramesLayout(ttlDays: number): TableLayout {
  return {
    name: RAW_FRAMES_TABLE,
    columns: `  id String,
  received_at DateTime64(3, 'UTC'),
  protocol LowCardinality(String),
  transport LowCardinality(String),
  device_id UInt64,
  unique_id String,
  remote_address String,
  frame_hex String,
  outcome LowCardinality(String),
  error_reason String,
  positions UInt16,
  crc_valid Bool`,
    engine: 'MergeTree',
    clauses: `PARTITION BY toYYYYMMDD(received_at)
ORDER BY (device_id, unique_id, received_at)
TTL toDateTime(received_at) + INTERVAL ${ttlDays} DAY
SETTINGS ttl_only_drop_parts = 1`,
    shardingKey: 'cityHash64(unique_id)',
  };
}

/** The statements creating the table where it runs (one node, or a cluster: table-layout.ts), then applying the TTL. */
export function rawFramesDdl(placement: Placement, ttlDays: number): string[] {
  if (!Number.isInteger(ttlDays) || ttlDays < 1) throw new RangeError(`raw frame TTL must be a positive number of days, got ${ttlDays}`);
  return [
    ...tableDdl(placement, rawFramesLayout(ttlDays)),
    // a changed RAW_FRAME_TTL_DAYS applies to an existing table (on a cluster, to the local tables holding the rows)
    `ALTER TABLE ${storageTable(placement, RAW_FRAMES_TABLE)}${onCluster(placement)} MODIFY TTL toDateTime(received_at) + INTERVAL ${ttlDays} DAY`,
  ];
}

/** Creates the table, and applies a changed RAW_FRAME_TTL_DAYS to an existing one. */
export async function ensureRawFramesTable(ch: Analytics, ttlDays: number): Promise<void> {
  for (const query of rawFramesDdl(ch, ttlDays)) await ch.client.command({ query });
}

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
