import { PositionMessage } from '@corridor/contracts';
import type { Analytics } from '../adapters/analytics';

/**
 * ClickHouse positions. ReplacingMergeTree keyed by (device_id, fix_time): a redelivered position
 * (at-least-once bus) collapses into one row; reads use FINAL so duplicates never show before a merge.
 */
export const positionsDdl = (database: string): string => `
CREATE TABLE IF NOT EXISTS ${database}.positions (
  id String,
  device_id UInt64,
  unique_id String,
  protocol LowCardinality(String),
  fix_time DateTime64(3, 'UTC'),
  device_time DateTime64(3, 'UTC'),
  server_time DateTime64(3, 'UTC'),
  valid Bool,
  latitude Float64,
  longitude Float64,
  speed Float32,
  course Float32,
  altitude Nullable(Float32),
  accuracy Nullable(Float32),
  satellites Nullable(UInt16),
  hdop Nullable(Float32),
  ignition Nullable(Bool),
  odometer Nullable(Float64),
  power Nullable(Float32),
  battery Nullable(Float32),
  alarm Nullable(String),
  crc_valid Bool,
  raw_frame_id Nullable(String),
  attributes String
) ENGINE = ReplacingMergeTree(server_time)
PARTITION BY toYYYYMM(fix_time)
ORDER BY (device_id, fix_time)`;

interface PositionRow {
  id: string; device_id: number | string; unique_id: string; protocol: string;
  fix_time: string; device_time: string; server_time: string; valid: boolean | number;
  latitude: number; longitude: number; speed: number; course: number;
  altitude: number | null; accuracy: number | null; satellites: number | null; hdop: number | null;
  ignition: boolean | number | null; odometer: number | null; power: number | null; battery: number | null;
  alarm: string | null; crc_valid: boolean | number; raw_frame_id: string | null; attributes: string;
}

/** ClickHouse DateTime64 text ('2026-01-02 03:04:05.678') → ISO 8601 UTC. */
const chTime = (iso: string): string => iso.replace('T', ' ').replace(/Z$|[+-]00:00$/, '');
const isoTime = (ch: string): string => (ch.includes('T') ? ch : ch.replace(' ', 'T') + 'Z');
const bool = (v: boolean | number | null): boolean | null => (v === null ? null : Boolean(v));

function toRow(p: PositionMessage): PositionRow {
  return {
    id: p.id, device_id: p.deviceId, unique_id: p.uniqueId, protocol: p.protocol,
    fix_time: chTime(new Date(p.fixTime).toISOString()),
    device_time: chTime(new Date(p.deviceTime ?? p.fixTime).toISOString()),
    server_time: chTime(new Date(p.serverTime).toISOString()),
    valid: p.valid, latitude: p.latitude, longitude: p.longitude, speed: p.speed, course: p.course,
    altitude: p.altitude, accuracy: p.accuracy, satellites: p.satellites, hdop: p.hdop, ignition: p.ignition,
    odometer: p.odometer, power: p.power, battery: p.battery, alarm: p.alarm, crc_valid: p.crcValid,
    raw_frame_id: p.rawFrameId, attributes: JSON.stringify(p.attributes),
  };
}

function fromRow(r: PositionRow): PositionMessage {
  return PositionMessage.parse({
    id: r.id, deviceId: Number(r.device_id), uniqueId: r.unique_id, protocol: r.protocol,
    fixTime: isoTime(r.fix_time), deviceTime: isoTime(r.device_time), serverTime: isoTime(r.server_time),
    valid: Boolean(r.valid), latitude: r.latitude, longitude: r.longitude, speed: r.speed, course: r.course,
    altitude: r.altitude, accuracy: r.accuracy, satellites: r.satellites, hdop: r.hdop, ignition: bool(r.ignition),
    odometer: r.odometer, power: r.power, battery: r.battery, alarm: r.alarm, crcValid: Boolean(r.crc_valid),
    rawFrameId: r.raw_frame_id, attributes: JSON.parse(r.attributes) as Record<string, string>,
  });
}

export async function ensurePositionsTable(ch: Analytics): Promise<void> {
  await ch.client.command({ query: positionsDdl(ch.database) });
}

export function insertPositions(ch: Analytics) {
  return async (positions: PositionMessage[]): Promise<void> => {
    if (!positions.length) return;
    await ch.client.insert({ table: `${ch.database}.positions`, values: positions.map(toRow), format: 'JSONEachRow' });
  };
}

export interface PositionHistoryQuery {
  deviceIds: number[];
  from: Date;
  to: Date;
  limit: number;
}

export function queryPositionHistory(ch: Analytics) {
  return async (q: PositionHistoryQuery): Promise<PositionMessage[]> => {
    const rs = await ch.client.query({
      query: `SELECT * FROM ${ch.database}.positions FINAL
              WHERE device_id IN {ids:Array(UInt64)}
                AND fix_time >= {from:DateTime64(3, 'UTC')} AND fix_time <= {to:DateTime64(3, 'UTC')}
              ORDER BY device_id, fix_time
              LIMIT {limit:UInt32}`,
      query_params: { ids: q.deviceIds, from: chTime(q.from.toISOString()), to: chTime(q.to.toISOString()), limit: q.limit },
      format: 'JSONEachRow',
    });
    return (await rs.json<PositionRow>()).map(fromRow);
  };
}

/** Count of distinct positions (after dedupe) per device; tests and benchmarks use it. */
export function countPositions(ch: Analytics) {
  return async (deviceIds?: number[]): Promise<number> => {
    const rs = await ch.client.query({
      query: deviceIds
        ? `SELECT count() AS n FROM ${ch.database}.positions FINAL WHERE device_id IN {ids:Array(UInt64)}`
        : `SELECT count() AS n FROM ${ch.database}.positions FINAL`,
      query_params: deviceIds ? { ids: deviceIds } : {},
      format: 'JSONEachRow',
    });
    const [row] = await rs.json<{ n: string | number }>();
    return Number(row?.n ?? 0);
  };
}

/** The latest stored position of each device (the fallback when the cache lacks one). */
export function queryLatestPositions(ch: Analytics) {
  return async (deviceIds: number[]): Promise<PositionMessage[]> => {
    if (!deviceIds.length) return [];
    const rs = await ch.client.query({
      query: `SELECT * FROM ${ch.database}.positions FINAL WHERE device_id IN {ids:Array(UInt64)}
              ORDER BY device_id, fix_time DESC LIMIT 1 BY device_id`,
      query_params: { ids: deviceIds },
      format: 'JSONEachRow',
    });
    return (await rs.json<PositionRow>()).map(fromRow);
  };
}

/** Row mapping for other readers of this table (report streams). */
export { fromRow as positionFromRow, type PositionRow as PositionStoreRow };
