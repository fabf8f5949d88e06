import type { Analytics } from '../adapters/analytics';

/**
 * Where the analytics tables live: a database on one node (chDB, the compose file's ClickHouse), or
 * on a named cluster (CLICKHOUSE_CLUSTER): there each table keeps its rows in a Replicated
 * `<name>_local` on every node (Keeper coordinates the replicas of a shard), and a Distributed table
 * under the name the services use sends each row to its shard. DDL runs ON CLUSTER, so one
 * statement reaches every node.
 */
export type Placement = Pick<Analytics, 'database' | 'cluster'>;

/** The Keeper path of a replicated table; {shard} and {replica} are each node's macros (the operator sets them). */
export const REPLICA_PATH = "'/clickhouse/tables/{shard}/{database}/{table}'";
export const REPLICA_NAME = "'{replica}'";

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

function identifier(what: string, value: string): string {
  if (!IDENTIFIER.test(value)) throw new Error(`${what} must be an identifier, got ${JSON.stringify(value)}`);
  return value;
}

/** ` ON CLUSTER <name>` on a cluster, nothing on one node. */
export function onCluster(p: Placement): string {
  return p.cluster ? ` ON CLUSTER ${identifier('CLICKHOUSE_CLUSTER', p.cluster)}` : '';
}

/** ReplacingMergeTree(v) → ReplicatedReplacingMergeTree('<path>', '<replica>', v). */
export function replicatedEngine(engine: string, path = REPLICA_PATH, replica = REPLICA_NAME): string {
  const m = /^(\w*MergeTree)(?:\((.*)\))?$/s.exec(engine.trim());
  if (!m) throw new Error(`not a MergeTree-family engine: ${engine}`);
  const args = [path, replica, ...(m[2]?.trim() ? [m[2].trim()] : [])];
  return `Replicated${m[1]}(${args.join(', ')})`;
}

/** A statement of a migration file, rendered for where it runs. */
export type RenderedStatement =
  | { kind: 'sql'; sql: string }
  /** Run once per partition of `source` ({partition:String} bound to its id), `target`'s partition of that id emptied first. */
  | { kind: 'each_partition'; source: string; target: string; sql: string };

/**
 * The placeholders of the migration files (README.md beside them):
 * - `{{db}}`: the database;
 * - `{{on_cluster}}`: ` ON CLUSTER <cluster>` on a cluster, nothing on one node;
 * - `{{cluster}}`: the cluster's name (only in a `{{cluster_only}}` statement);
 * - `{{local name}}`: the table that holds the rows: `name` on one node, `name_local` on a cluster;
 * - `{{engine E}}`: the MergeTree-family engine E, made Replicated on a cluster.
 */
function placeholder(name: string, arg: string | undefined, p: Placement): string {
  const needs = (what: string): string => {
    if (!arg) throw new Error(`{{${name}}} needs ${what}`);
    return arg;
  };
  switch (name) {
    case 'db':
      return identifier('CLICKHOUSE_DATABASE', p.database);
    case 'on_cluster':
      return onCluster(p);
    case 'cluster':
      if (!p.cluster) throw new Error('{{cluster}} is used outside a {{cluster_only}} statement');
      return identifier('CLICKHOUSE_CLUSTER', p.cluster);
    case 'local': {
      const table = identifier('a table name', needs('a table name'));
      return p.cluster ? `${table}_local` : table;
    }
    case 'engine': {
      const engine = needs('an engine');
      return p.cluster ? replicatedEngine(engine) : engine;
    }
    default:
      throw new Error(`unknown placeholder {{${name}}}`);
  }
}

const MARKER = /^\{\{\s*(cluster_only|each_partition\s+(\w+)\s+into\s+(\w+))\s*\}\}\s*/;
const PLACEHOLDER = /\{\{\s*(\w+)(?:\s+([^{}]*?))?\s*\}\}/g;

/**
 * Renders one statement for a placement. A statement may begin with a marker: `{{cluster_only}}`
 * (left out on one node: undefined) or `{{each_partition <source> into <target>}}`.
 */
export function renderStatement(statement: string, p: Placement): RenderedStatement | undefined {
  const marker = MARKER.exec(statement);
  if (marker?.[1] === 'cluster_only' && !p.cluster) return undefined;
  const sql = statement
    .slice(marker?.[0].length ?? 0)
    .replace(PLACEHOLDER, (_, name: string, arg: string | undefined) => placeholder(name, arg?.trim(), p));
  if (sql.includes('{{'))
    throw new Error(`a placeholder is not closed or misplaced: ${sql.slice(sql.indexOf('{{'), sql.indexOf('{{') + 60)}`);
  if (marker?.[2] && marker[3]) {
    if (!sql.includes('{partition:String}'))
      throw new Error(`{{each_partition}} statement without {partition:String}: ${sql.slice(0, 80)}`);
    return { kind: 'each_partition', source: identifier('a table name', marker[2]), target: identifier('a table name', marker[3]), sql };
  }
  return { kind: 'sql', sql };
}
