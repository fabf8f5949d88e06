import type { ClickHouseClient } from '@clickhouse/client';

/** The analytics store: ClickHouse over HTTP, or chDB (the ClickHouse engine in process). Same client API. */
export interface Analytics {
  readonly kind: 'clickhouse' | 'chdb';
  readonly client: ClickHouseClient;
  /** The database the tables live in. */
  readonly database: string;
  /** The ClickHouse cluster the tables are spread over (CLICKHOUSE_CLUSTER); unset on a single node and in chDB. */
  readonly cluster?: string;
  ping(): Promise<void>;
  close(): Promise<void>;
}
