import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Analytics } from '@corridor/platform';
import { createChdbAnalytics } from '@corridor/platform/adapters/clickhouse-chdb';
import { rawFramesDdl } from './raw-frames-table';

/** raw_frames on one node (run in chDB) and on a cluster (ClickHouse's parser: no cluster can run here). */
let ch: Analytics;
beforeAll(async () => {
  ch = await createChdbAnalytics({ path: ':memory:', database: 'raw_frames_layout' });
});
afterAll(async () => {
  await ch?.close();
});

describe('raw_frames layout', () => {
  it('on one node: the table with its TTL, then the TTL applied, both runnable twice', async () => {
    const ddl = rawFramesDdl({ database: ch.database }, 9);
    expect(ddl).toHaveLength(2);
    expect(ddl[0]).toContain('ENGINE = MergeTree\n');
    expect(ddl[1]).toBe(`ALTER TABLE ${ch.database}.raw_frames MODIFY TTL toDateTime(received_at) + INTERVAL 9 DAY`);
    for (let i = 0; i < 2; i++) for (const query of ddl) await ch.client.command({ query });
  });

  it('on a cluster: replicated local tables sharded by unique id, the TTL altered on them ON CLUSTER', async () => {
    const [local, distributed, ttl] = rawFramesDdl({ database: 'corridor', cluster: 'corridor' }, 30);
    expect(local).toContain("CREATE TABLE IF NOT EXISTS corridor.raw_frames_local ON CLUSTER corridor (");
    expect(local).toContain("ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/{database}/{table}', '{replica}')");
    expect(distributed).toContain('ENGINE = Distributed(corridor, corridor, raw_frames_local, cityHash64(unique_id))');
    expect(ttl).toBe('ALTER TABLE corridor.raw_frames_local ON CLUSTER corridor MODIFY TTL toDateTime(received_at) + INTERVAL 30 DAY');
    for (const statement of [local!, distributed!, ttl!]) {
      const rs = await ch.client.query({ query: 'SELECT formatQuery({q:String}) AS f', query_params: { q: statement }, format: 'JSONEachRow' });
      expect((await rs.json<{ f: string }>())[0]?.f).toContain('ON CLUSTER corridor');
    }
  });

  it('refuses a TTL that is not a positive number of days', () => {
    expect(() => rawFramesDdl({ database: 'corridor' }, 0)).toThrow(RangeError);
  });
});
