import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Analytics } from '../adapters/analytics';
import { createChdbAnalytics } from '../adapters/clickhouse-chdb';
import { mainClusterDdl, mainSingleNodeDdl } from '../../test/fixtures/clickhouse-main-schema';
import { readMigrations, splitStatements } from './migration-files';
import { recordsDdl } from './migration-records';
import { onCluster, renderStatement, replicatedEngine, type Placement } from './migration-render';

/**
 * The migration files rendered for one node and for a cluster. No ClickHouse cluster (nor Keeper,
 * nor a ClickHouse server) can run on this machine, so the cluster DDL is checked as text and with
 * ClickHouse's own parser (chDB's formatQuery), not executed; the single-node DDL runs in the
 * migration tests (packages/platform/test/clickhouse-migrations.test.ts).
 */
const single: Placement = { database: 'corridor' };
const cluster: Placement = { database: 'corridor', cluster: 'corridor' };
const files = readMigrations();

let ch: Analytics;
beforeAll(async () => {
  ch = await createChdbAnalytics({ path: ':memory:', database: 'render_test' });
});
afterAll(async () => {
  await ch?.close();
});

/** ClickHouse's parser: the statement formatted back in one canonical form, or its syntax error. */
async function format(statement: string): Promise<string> {
  const rs = await ch.client.query({ query: 'SELECT formatQuery({q:String}) AS f', query_params: { q: statement }, format: 'JSONEachRow' });
  return (await rs.json<{ f: string }>())[0]!.f;
}

/** Every statement of a file as it runs at a placement (each_partition statements with their SQL). */
const rendered = (statements: string[], p: Placement): string[] =>
  statements.map((s) => renderStatement(s, p)).flatMap((r) => (r ? [r.sql] : []));

describe('placeholders', () => {
  it('names the database, the storage table, the engine and the cluster clause for where the statement runs', () => {
    const statement =
      'CREATE TABLE IF NOT EXISTS {{db}}.{{local t}}{{on_cluster}} (a UInt8) ENGINE = {{engine ReplacingMergeTree(a)}} ORDER BY a';
    expect(renderStatement(statement, single)).toEqual({
      kind: 'sql',
      sql: 'CREATE TABLE IF NOT EXISTS corridor.t (a UInt8) ENGINE = ReplacingMergeTree(a) ORDER BY a',
    });
    expect(renderStatement(statement, cluster)).toEqual({
      kind: 'sql',
      sql: "CREATE TABLE IF NOT EXISTS corridor.t_local ON CLUSTER corridor (a UInt8) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/{table}', '{replica}', a) ORDER BY a",
    });
  });

  it('leaves a {{cluster_only}} statement out on one node and renders {{cluster}} in it on a cluster', () => {
    const statement =
      '{{cluster_only}}\nCREATE TABLE {{db}}.t{{on_cluster}} AS {{db}}.t_local ENGINE = Distributed({{cluster}}, {{db}}, t_local, rand())';
    expect(renderStatement(statement, single)).toBeUndefined();
    expect(renderStatement(statement, cluster)?.sql).toBe(
      'CREATE TABLE corridor.t ON CLUSTER corridor AS corridor.t_local ENGINE = Distributed(corridor, corridor, t_local, rand())',
    );
    expect(() => renderStatement('SELECT {{cluster}}', single)).toThrow(/outside a \{\{cluster_only\}\}/);
  });

  it('reads an {{each_partition}} marker, and wants the statement to select its partition', () => {
    const statement =
      '{{each_partition a_old into a}}\nINSERT INTO {{db}}.a SELECT * FROM {{db}}.a_old WHERE _partition_id = {partition:String}';
    expect(renderStatement(statement, single)).toEqual({
      kind: 'each_partition',
      source: 'a_old',
      target: 'a',
      sql: 'INSERT INTO corridor.a SELECT * FROM corridor.a_old WHERE _partition_id = {partition:String}',
    });
    expect(() => renderStatement('{{each_partition a_old into a}} INSERT INTO {{db}}.a SELECT * FROM {{db}}.a_old', single)).toThrow(
      /\{partition:String\}/,
    );
  });

  it('refuses what it does not know, and names that are not identifiers', () => {
    expect(() => renderStatement('SELECT {{database}}', single)).toThrow(/unknown placeholder \{\{database\}\}/);
    expect(() => renderStatement('SELECT {{local}}', single)).toThrow(/needs a table name/);
    expect(() => renderStatement('SELECT {{local a;b}}', single)).toThrow(/identifier/);
    expect(() => renderStatement('SELECT {{db', single)).toThrow(/not closed/);
    expect(() => renderStatement('SELECT 1 FROM {{db}}.t', { database: 'x; DROP TABLE y' })).toThrow(/identifier/);
    expect(() => renderStatement('SELECT 1 {{on_cluster}}', { database: 'corridor', cluster: 'x y' })).toThrow(/identifier/);
  });

  it('makes every MergeTree engine replicated with the shard and replica macros, and refuses others', () => {
    expect(replicatedEngine('MergeTree')).toBe("ReplicatedMergeTree('/clickhouse/tables/{shard}/{database}/{table}', '{replica}')");
    expect(replicatedEngine('ReplacingMergeTree(inserted_at)')).toBe(
      "ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/{table}', '{replica}', inserted_at)",
    );
    expect(() => replicatedEngine('Log')).toThrow(/MergeTree/);
    expect(onCluster(single)).toBe('');
    expect(onCluster(cluster)).toBe(' ON CLUSTER corridor');
  });
});

describe('statements of a file', () => {
  it('end with ; at the end of a line; whole-line comments are left out', () => {
    expect(splitStatements('-- a comment; with a semicolon\nCREATE TABLE a\n  (x UInt8);\n\n-- b\nDROP TABLE b;\n')).toEqual([
      'CREATE TABLE a\n  (x UInt8)',
      'DROP TABLE b',
    ]);
    expect(() => splitStatements('CREATE TABLE a (x UInt8)\n')).toThrow(/does not end with ';'/);
  });
});

describe('the migration files', () => {
  it('are numbered from 0001 without gaps', () => {
    expect(files.map((f) => f.version)).toEqual(files.map((_, i) => i + 1));
    expect(files[0]?.name).toBe('0001_baseline');
  });

  it.each(files.map((f) => [f.name, f] as const))(
    '%s: every statement is ClickHouse syntax on one node and on a cluster (its own parser)',
    async (_, file) => {
      for (const p of [single, cluster])
        for (const sql of rendered(file.statements, p)) await expect(format(sql), sql).resolves.toBeTruthy();
    },
  );

  it.each(files.map((f) => [f.name, f] as const))(
    '%s: on a cluster every DDL statement runs ON CLUSTER and every table it makes is replicated or distributed',
    (_, file) => {
      for (const sql of rendered(file.statements, cluster)) {
        if (/^\s*(CREATE|ALTER|DROP|RENAME|TRUNCATE)\b/i.test(sql)) expect(sql, sql).toContain(' ON CLUSTER corridor');
        if (/^\s*CREATE TABLE/i.test(sql)) expect(sql, sql).toMatch(/ENGINE = (Replicated\w*MergeTree\(|Distributed\()/);
      }
    },
  );

  it('0001 is the schema main created, statement for statement, on one node and on a cluster', async () => {
    const baseline = files[0]!;
    const mainSingle = mainSingleNodeDdl('corridor').filter((s) => s.startsWith('CREATE')); // main's ALTER re-applied the default TTL, which 0001 has
    const mainCluster = mainClusterDdl('corridor', 'corridor').filter((s) => s.startsWith('CREATE'));
    expect(await Promise.all(rendered(baseline.statements, single).map(format))).toEqual(await Promise.all(mainSingle.map(format)));
    expect(await Promise.all(rendered(baseline.statements, cluster).map(format))).toEqual(await Promise.all(mainCluster.map(format)));
  });

  it('the migrations table and the steps table are one replica set over every node of a cluster', async () => {
    for (const sql of recordsDdl(cluster)) {
      expect(sql).toContain(' ON CLUSTER corridor');
      expect(sql).toContain("ENGINE = ReplicatedMergeTree('/clickhouse/tables/all/{database}/{table}', '{shard}-{replica}')");
      await expect(format(sql)).resolves.toContain('ON CLUSTER corridor');
    }
    for (const sql of recordsDdl(single)) expect(sql).toMatch(/ENGINE = MergeTree\n/);
  });

  it('is checked by a parser that refuses what is not ClickHouse', async () => {
    await expect(
      format('CREATE TABLE t ON CLUSTER c AS t_local ENGINE = Distributed(c, d, t_local, cityHash64(device_id)'),
    ).rejects.toThrow(/Syntax error/);
  });
});
