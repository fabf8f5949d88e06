import { PositionMessage, positionTime, parsePositionId, POSITION_ID_DEVICE_BITS, POSITION_ID_EPOCH_MS } from '@corridor/contracts';
import type { Analytics } from '../adapters/analytics';
import { lateDays, touchTrackDays } from './track-touched';

/*
 * ClickHouse positions (the table: migrations/clickhouse/0001_baseline.sql). ReplacingMergeTree keyed
 * by (device_id, fix_time, id), the first arrival of a key kept: reads use FINAL (or keep the earliest
 * row of a key) so duplicates never show before a merge.
 */

/** SQL: the position id of a row of `device_id` at `time` (DateTime64), kind 1 when `stateRecord` holds. */
export const positionIdSql = (deviceId: string, time: string, stateRecord: string): string =>
  `((toUInt64(intDiv(toUnixTimestamp64Milli(${time}), 1000) - ${POSITION_ID_EPOCH_MS / 1000}) * 2 + if(${stateRecord}, 1, 0)) * ${2 ** POSITION_ID_DEVICE_BITS} + ${deviceId})`;

interface PositionRow {
  id: number | string;
  device_id: number | string;
  unique_id: string;
  protocol: string;
  fix_time: string;
  device_time: string;
  server_time: string;
  valid: boolean | number;
  latitude: number;
  longitude: number;
  speed: number;
  course: number;
  altitude: number | null;
  accuracy: number | null;
  satellites: number | null;
  hdop: number | null;
  ignition: boolean | number | null;
  odometer: number | null;
  power: number | null;
  battery: number | null;
  alarm: string | null;
  crc_valid: boolean | number;
  raw_frame_id: string | null;
  attributes: string;
}

/** ClickHouse DateTime64 text ('2026-01-02 03:04:05.678') → ISO 8601 UTC. */
const chTime = (iso: string): string => iso.replace('T', ' ').replace(/Z$|[+-]00:00$/, '');
const isoTime = (ch: string): string => (ch.includes('T') ? ch : ch.replace(' ', 'T') + 'Z');
const bool = (v: boolean | number | null): boolean | null => (v === null ? null : Boolean(v));

function toRow(p: PositionMessage): PositionRow {
  return {
    id: p.id,
    device_id: p.deviceId,
    unique_id: p.uniqueId,
    protocol: p.protocol,
    fix_time: chTime(positionTime(p.fixTime).toISOString()), // the store's resolution (position-id.ts), whoever produced the message
    device_time: chTime(new Date(p.deviceTime ?? p.fixTime).toISOString()),
    server_time: chTime(new Date(p.serverTime).toISOString()),
    valid: p.valid,
    latitude: p.latitude,
    longitude: p.longitude,
    speed: p.speed,
    course: p.course,
    altitude: p.altitude,
    accuracy: p.accuracy,
    satellites: p.satellites,
    hdop: p.hdop,
    ignition: p.ignition,
    odometer: p.odometer,
    power: p.power,
    battery: p.battery,
    alarm: p.alarm,
    crc_valid: p.crcValid,
    raw_frame_id: p.rawFrameId,
    attributes: JSON.stringify(p.attributes),
  };
}

function fromRow(r: PositionRow): PositionMessage {
  return PositionMessage.parse({
    id: Number(r.id),
    deviceId: Number(r.device_id),
    uniqueId: r.unique_id,
    protocol: r.protocol,
    fixTime: isoTime(r.fix_time),
    deviceTime: isoTime(r.device_time),
    serverTime: isoTime(r.server_time),
    valid: Boolean(r.valid),
    latitude: r.latitude,
    longitude: r.longitude,
    speed: r.speed,
    course: r.course,
    altitude: r.altitude,
    accuracy: r.accuracy,
    satellites: r.satellites,
    hdop: r.hdop,
    ignition: bool(r.ignition),
    odometer: r.odometer,
    power: r.power,
    battery: r.battery,
    alarm: r.alarm,
    crcValid: Boolean(r.crc_valid),
    rawFrameId: r.raw_frame_id,
    attributes: JSON.parse(r.attributes) as Record<string, string>,
  });
}

/** The columns a position writes, in the order rowText lists them. */
const COLUMNS = [
  'id',
  'device_id',
  'unique_id',
  'protocol',
  'fix_time',
  'device_time',
  'server_time',
  'valid',
  'latitude',
  'longitude',
  'speed',
  'course',
  'altitude',
  'accuracy',
  'satellites',
  'hdop',
  'ignition',
  'odometer',
  'power',
  'battery',
  'alarm',
  'crc_valid',
  'raw_frame_id',
  'attributes',
] as const;

/**
 * One row of JSONCompactEachRow: the values in COLUMNS' order, one JSON.stringify. Times go as
 * integers of milliseconds, which a DateTime64(3) column reads as its ticks (the row of a JSON
 * number; a test reads every field back), so no Date or ISO text is made per fix; fix_time to the
 * second, as positionTime does.
 */
function rowText(p: PositionMessage): string {
  const fix = Date.parse(p.fixTime);
  return JSON.stringify([
    p.id,
    p.deviceId,
    p.uniqueId,
    p.protocol,
    fix - (((fix % 1000) + 1000) % 1000),
    p.deviceTime === undefined ? fix : Date.parse(p.deviceTime),
    Date.parse(p.serverTime),
    p.valid,
    p.latitude,
    p.longitude,
    p.speed,
    p.course,
    p.altitude,
    p.accuracy,
    p.satellites,
    p.hdop,
    p.ignition,
    p.odometer,
    p.power,
    p.battery,
    p.alarm,
    p.crcValid,
    p.rawFrameId,
    JSON.stringify(p.attributes),
  ]);
}

/**
 * How insertPositions writes: `compact` (default) one INSERT text of JSONCompactEachRow rows made
 * by rowText; `objects` the row objects of before through the client's JSONEachRow encoder (kept
 * for `pnpm bench position-writer`, which measures one against the other).
 */
export type PositionEncoding = 'compact' | 'objects';

/**
 * The position writer's insert. The compact form is the one chDB and the client handle fastest of
 * those measured (bench/results/position-writer.json): the client's JSON encoder, chDB's reading
 * of the body stream back into a string and the three ISO conversions per fix were a sixth of the
 * embedded stack's main thread at saturation. Sent as one statement (`command`: over HTTP the
 * body of the request, in chDB the query text), the same rows either way. The days of late fixes
 * are marked for the reports' stored runs (track-touched.ts), after the rows are stored.
 */
export function insertPositions(ch: Analytics, encoding: PositionEncoding = 'compact') {
  const table = `${ch.database}.positions`;
  const head = `INSERT INTO ${table} (${COLUMNS.join(', ')}) FORMAT JSONCompactEachRow\n`;
  const touch = touchTrackDays(ch);
  /** Late fixes (of a day already over) make their days' stored runs stale; after the insert, so a runs computation between the two sees the rows. */
  const touchLate = async (positions: PositionMessage[]): Promise<void> => {
    for (const [day, devices] of lateDays(positions)) await touch([...devices], [day]);
  };
  return async (positions: PositionMessage[]): Promise<void> => {
    if (!positions.length) return;
    if (encoding === 'objects') {
      await ch.client.insert({ table, values: positions.map(toRow), format: 'JSONEachRow' });
      await touchLate(positions);
      return;
    }
    let body = head;
    for (const p of positions) body += rowText(p) + '\n';
    await ch.client.command({ query: body });
    await touchLate(positions);
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
              ORDER BY device_id, fix_time, id
              LIMIT {limit:UInt32}`,
      query_params: { ids: q.deviceIds, from: chTime(q.from.toISOString()), to: chTime(q.to.toISOString()), limit: q.limit },
      format: 'JSONEachRow',
    });
    return (await rs.json<PositionRow>()).map(fromRow);
  };
}

/** Positions by id (Traccar GET /positions?id=...); ids that name no stored position are left out. */
export function queryPositionsById(ch: Analytics) {
  return async (ids: number[]): Promise<PositionMessage[]> => {
    const known = ids.map((id) => ({ id, parsed: parsePositionId(id) })).filter((x) => x.parsed);
    if (!known.length) return [];
    const times = known.map((x) => x.parsed!.fixTime.getTime());
    const rs = await ch.client.query({
      query: `SELECT * FROM ${ch.database}.positions FINAL
              WHERE device_id IN {devices:Array(UInt64)} AND id IN {ids:Array(UInt64)}
                AND fix_time >= fromUnixTimestamp64Milli({from:Int64}, 'UTC') AND fix_time <= fromUnixTimestamp64Milli({to:Int64}, 'UTC')
              ORDER BY device_id, fix_time, id`,
      query_params: {
        devices: [...new Set(known.map((x) => x.parsed!.deviceId))],
        ids: known.map((x) => x.id),
        from: Math.min(...times),
        to: Math.max(...times),
      },
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

/**
 * The latest stored position of each device (the fallback when the cache lacks one), never one
 * ingest marked `clockAhead` (dated past the allowed skew ahead of the server clock).
 */
export function queryLatestPositions(ch: Analytics) {
  return async (deviceIds: number[]): Promise<PositionMessage[]> => {
    if (!deviceIds.length) return [];
    const rs = await ch.client.query({
      query: `SELECT * FROM ${ch.database}.positions FINAL WHERE device_id IN {ids:Array(UInt64)} AND NOT JSONHas(attributes, 'clockAhead')
              ORDER BY device_id, fix_time DESC, id DESC LIMIT 1 BY device_id`,
      query_params: { ids: deviceIds },
      format: 'JSONEachRow',
    });
    return (await rs.json<PositionRow>()).map(fromRow);
  };
}

/** Row mapping for other readers of this table (report streams). */
export { fromRow as positionFromRow, type PositionRow as PositionStoreRow };
