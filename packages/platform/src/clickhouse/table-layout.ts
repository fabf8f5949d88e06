import type { Analytics } from '../adapters/analytics';

/**
 * One analytics table, laid out for where it runs:
 * - a single node (chDB, the compose file's ClickHouse): one MergeTree-family table under its name;
 * - a cluster (CLICKHOUSE_CLUSTER set): on every node a Replicated table `<name>_local` (Keeper
 *   coordinates the replicas of a shard), and in front of it a Distributed table under the name
 *   the services read and write, which sends each row to the shard its device hashes to. Every row
 *   of one device lives on one shard, so FINAL (run per shard) still collapses its duplicates and a
 *   device's fixes stay ordered where window functions read them. The DDL runs ON CLUSTER, so one
 *   statement reaches every node (each service runs it at start; it is idempotent).
 */
export interface TableLayout {
  /** The name the services use (the Distributed table on a cluster). */
  name: string;
  /** The column definitions, between the parentheses. */
  columns: string;
  /** A MergeTree-family engine with its arguments, without the Replicated prefix: 'ReplacingMergeTree(server_time)', 'MergeTree'. */
  engine: string;
  /** PARTITION BY, ORDER BY, TTL, SETTINGS. */
  clauses: string;
  /** The expression choosing a row's shard: a hash of the device, so a device's rows stay together. */
  shardingKey: string;
}

/** Where the analytics tables live: a database, on one node or on a named cluster. */
export type Placement = Pick<Analytics, 'database' | 'cluster'>;

/** The Keeper path of a replicated table; {shard} and {replica} are each node's macros (the operator sets them). */
export const REPLICA_PATH = "'/clickhouse/tables/{shard}/{database}/{table}'";
export const REPLICA_NAME = "'{replica}'";

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** ` ON CLUSTER <name>` on a cluster, nothing on one node. */
export function onCluster(p: Placement): string {
  if (!p.cluster) return '';
  if (!IDENTIFIER.test(p.cluster)) throw new Error(`CLICKHOUSE_CLUSTER must be an identifier, got ${JSON.stringify(p.cluster)}`);
  return ` ON CLUSTER ${p.cluster}`;
}

/** The table that holds the rows: the table itself on one node, `<name>_local` on a cluster. */
export const storageTable = (p: Placement, name: string): string => `${p.database}.${p.cluster ? `${name}_local` : name}`;

/** ReplacingMergeTree(v) → ReplicatedReplacingMergeTree('<path>', '{replica}', v). */
export function replicatedEngine(engine: string): string {
  const m = /^(\w*MergeTree)(?:\((.*)\))?$/s.exec(engine.trim());
  if (!m) throw new Error(`not a MergeTree-family engine: ${engine}`);
  const args = [REPLICA_PATH, REPLICA_NAME, ...(m[2]?.trim() ? [m[2].trim()] : [])];
  return `Replicated${m[1]}(${args.join(', ')})`;
}

/** The statements that create the table where it runs (each idempotent: IF NOT EXISTS). */
export function tableDdl(p: Placement, t: TableLayout): string[] {
  if (!p.cluster) return [`CREATE TABLE IF NOT EXISTS ${p.database}.${t.name} (\n${t.columns}\n) ENGINE = ${t.engine}\n${t.clauses}`];
  const local = storageTable(p, t.name);
  return [
    `CREATE TABLE IF NOT EXISTS ${local}${onCluster(p)} (\n${t.columns}\n) ENGINE = ${replicatedEngine(t.engine)}\n${t.clauses}`,
    `CREATE TABLE IF NOT EXISTS ${p.database}.${t.name}${onCluster(p)} AS ${local}\nENGINE = Distributed(${p.cluster}, ${p.database}, ${t.name}_local, ${t.shardingKey})`,
  ];
}

/** Runs the table's statements. */
export async function createTable(ch: Analytics, t: TableLayout): Promise<void> {
  for (const query of tableDdl(ch, t)) await ch.client.command({ query });
}
