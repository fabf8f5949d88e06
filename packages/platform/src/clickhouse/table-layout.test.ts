import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Analytics } from '../adapters/analytics';
import { createChdbAnalytics } from '../adapters/clickhouse-chdb';
import { eventsTable } from './events';
import { positionsTable } from './positions';
import { onCluster, replicatedEngine, storageTable, tableDdl, type TableLayout } from './table-layout';

/**
 * The analytics tables on one node and on a cluster. No ClickHouse cluster (nor Keeper, nor a
 * ClickHouse server) can run on this machine, so the cluster DDL is checked as text and with
 * ClickHouse's own parser (chDB's formatQuery), not executed; the single-node DDL runs in chDB.
 */
const layouts: TableLayout[] = [positionsTable, eventsTable];
const cluster = { database: 'corridor', cluster: 'corridor' };

let ch: Analytics;
beforeAll(async () => {
  ch = await createChdbAnalytics({ path: ':memory:', database: 'layout_test' });
});
afterAll(async () => {
  await ch?.close();
});

/** ClickHouse's parser: the statement formatted back, or its syntax error. */
async function parse(statement: string): Promise<string> {
  const rs = await ch.client.query({ query: 'SELECT formatQuery({q:String}) AS f', query_params: { q: statement }, format: 'JSONEachRow' });
  return (await rs.json<{ f: string }>())[0]!.f;
}

describe('single node (chDB, compose)', () => {
  it.each(layouts.map((l) => [l.name, l] as const))('%s: one MergeTree-family table under its own name, no cluster clause', (_, layout) => {
    const [ddl, ...rest] = tableDdl({ database: 'corridor' }, layout);
    expect(rest).toEqual([]);
    expect(ddl).toMatch(new RegExp(`^CREATE TABLE IF NOT EXISTS corridor\\.${layout.name} \\(`));
    expect(ddl).toContain(`ENGINE = ${layout.engine}\n`);
    expect(ddl).not.toMatch(/ON CLUSTER|Replicated|Distributed/);
    expect(storageTable({ database: 'corridor' }, layout.name)).toBe(`corridor.${layout.name}`);
  });

  it('creates the tables in chDB, twice without harm', async () => {
    for (const layout of layouts) {
      for (let i = 0; i < 2; i++) for (const query of tableDdl({ database: ch.database }, layout)) await ch.client.command({ query });
      const rs = await ch.client.query({ query: 'SELECT engine FROM system.tables WHERE database = {db:String} AND name = {t:String}', query_params: { db: ch.database, t: layout.name }, format: 'JSONEachRow' });
      expect((await rs.json<{ engine: string }>())[0]?.engine).toBe(layout.engine.replace(/\(.*$/, ''));
    }
  });
});

describe('cluster (CLICKHOUSE_CLUSTER)', () => {
  it('puts a replicated local table on every node and a Distributed table sharded by device in front', () => {
    const [local, distributed] = tableDdl(cluster, positionsTable);
    expect(local).toMatch(/^CREATE TABLE IF NOT EXISTS corridor\.positions_local ON CLUSTER corridor \(/);
    expect(local).toContain("ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/{table}', '{replica}', arrival_rank)");
    expect(local).toContain('ORDER BY (device_id, fix_time, id)');
    expect(distributed).toBe('CREATE TABLE IF NOT EXISTS corridor.positions ON CLUSTER corridor AS corridor.positions_local\nENGINE = Distributed(corridor, corridor, positions_local, cityHash64(device_id))');
    expect(storageTable(cluster, 'positions')).toBe('corridor.positions_local');
  });

  it('keeps every column, the ordering and the partitioning of the single-node table', () => {
    for (const layout of layouts) {
      const [single] = tableDdl({ database: 'corridor' }, layout);
      const [local] = tableDdl(cluster, layout);
      const body = (ddl: string) => ddl!.slice(ddl!.indexOf('('), ddl!.indexOf(') ENGINE'));
      expect(body(local!)).toBe(body(single!));
      expect(local!.slice(local!.indexOf('\nPARTITION'))).toBe(single!.slice(single!.indexOf('\nPARTITION')));
    }
  });

  it('shards every table by its device, so FINAL on each shard sees all of a key', () => {
    for (const layout of layouts) expect(layout.shardingKey).toMatch(/^cityHash64\((device_id|unique_id)\)$/);
  });

  it.each(layouts.map((l) => [l.name, l] as const))('%s: every statement is ClickHouse syntax (its own parser)', async (_, layout) => {
    for (const statement of [...tableDdl(cluster, layout), ...tableDdl({ database: 'corridor' }, layout)]) {
      const formatted = await parse(statement);
      expect(formatted).toContain('CREATE TABLE IF NOT EXISTS');
      if (statement.includes('ON CLUSTER')) expect(formatted).toContain('ON CLUSTER corridor');
    }
  });

  it('is checked by a parser that refuses what is not ClickHouse', async () => {
    await expect(parse('CREATE TABLE t ON CLUSTER c AS t_local ENGINE = Distributed(c, d, t_local, cityHash64(device_id)')).rejects.toThrow(/Syntax error/);
  });

  it('makes every MergeTree engine replicated with the shard and replica macros, and refuses others', () => {
    expect(replicatedEngine('MergeTree')).toBe("ReplicatedMergeTree('/clickhouse/tables/{shard}/{database}/{table}', '{replica}')");
    expect(replicatedEngine('ReplacingMergeTree(inserted_at)')).toBe("ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/{table}', '{replica}', inserted_at)");
    expect(() => replicatedEngine('Log')).toThrow(/MergeTree/);
  });

  it('names the cluster only when it is an identifier', () => {
    expect(onCluster({ database: 'corridor' })).toBe('');
    expect(onCluster(cluster)).toBe(' ON CLUSTER corridor');
    expect(() => onCluster({ database: 'corridor', cluster: 'x; DROP TABLE y' })).toThrow(/identifier/);
  });
});
