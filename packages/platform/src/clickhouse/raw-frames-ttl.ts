import type { Analytics } from '../adapters/analytics';
import { onCluster } from './migration-render';

/** The storage table of raw_frames (raw_frames_local on a cluster), whose TTL drops expired parts. */
const storage = (ch: Analytics): string => (ch.cluster ? 'raw_frames_local' : 'raw_frames');

/** The days raw frames are kept, read from the table's definition (ClickHouse writes the TTL as toIntervalDay(n)). */
export async function rawFramesTtlDays(ch: Analytics): Promise<number | undefined> {
  const rs = await ch.client.query({
    query: 'SELECT create_table_query AS ddl FROM system.tables WHERE database = {db:String} AND name = {table:String}',
    query_params: { db: ch.database, table: storage(ch) },
    format: 'JSONEachRow',
  });
  const ddl = (await rs.json<{ ddl: string }>())[0]?.ddl;
  if (ddl === undefined) throw new Error(`${ch.database}.${storage(ch)} does not exist (migration 0001 makes it)`);
  const m = /\bTTL\b.*?(?:toIntervalDay\((\d+)\)|INTERVAL (\d+) DAY)/is.exec(ddl);
  return m ? Number(m[1] ?? m[2]) : undefined;
}

/**
 * RAW_FRAME_TTL_DAYS, a setting of the schema: the migrate step sets raw_frames' TTL to it when it
 * differs (an ALTER rewrites the TTL of every part, so it runs only then). Returns whether it changed.
 */
export async function applyRawFramesTtl(ch: Analytics, days: number): Promise<boolean> {
  if (!Number.isInteger(days) || days < 1) throw new RangeError(`RAW_FRAME_TTL_DAYS must be a positive number of days, got ${days}`);
  if ((await rawFramesTtlDays(ch)) === days) return false;
  await ch.client.command({
    query: `ALTER TABLE ${ch.database}.${storage(ch)}${onCluster(ch)} MODIFY TTL toDateTime(received_at) + INTERVAL ${days} DAY`,
  });
  return true;
}
