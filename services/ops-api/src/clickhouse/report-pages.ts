import type { Readable } from 'node:stream';
import type { Analytics } from '@corridor/platform';

/**
 * Reads a long result ordered by device for the reports in bounded memory, as JSONCompactEachRow
 * tuples in small batches, parsed one by one as they are consumed.
 *
 * Real ClickHouse streams the whole result of one query over HTTP. chDB materializes each answer in
 * process, so there the read goes in pages of about `pageRows` rows: a first query counts each
 * device's rows, then consecutive devices are read together while their rows fit a page, and a
 * device with more rows than a page is read alone in keyset pages (`LIMIT n WITH TIES` on its sort
 * key, each page after the last key read). A page names its devices, so ClickHouse reads only their
 * granules (a keyset across devices reads a granule of every part per page, several times slower).
 *
 * Tables are ReplacingMergeTree without FINAL: a redelivered row is a second row with the same key.
 * Rows of one key arrive next to each other (never split across pages); the reader keeps the one
 * `newer` prefers (the row a merge would keep) and drops the rest.
 *
 * Stopping early (the consumer returns, or `signal` aborts) destroys the answer's stream and aborts
 * the query in flight: an HTTP request to ClickHouse is cancelled; chDB cannot interrupt a running
 * statement, so there the current page completes in the background and no further page is asked for.
 */
export interface DeviceRowsRead<K extends { deviceId: number }> {
  /** Selected columns; the first is device_id. */
  columns: string;
  /** `FROM … WHERE …` for the rows of the devices bound as {ids:Array(UInt64)} (the reader binds them), with its parameters. */
  source: { sql: string; params: Record<string, unknown> };
  /** `AND …`: the rows of `key.deviceId` after `key` in sort order. */
  after(key: K): { sql: string; params: Record<string, unknown> };
  /** Sort key columns, device_id first, e.g. 'device_id, fix_time'. */
  orderBy: string;
  keyOf(row: unknown[]): K;
  sameKey(a: K, b: K): boolean;
  /** Of two rows with the same key, whether `b` is the one to keep rather than `a`. */
  newer(a: unknown[], b: unknown[]): boolean;
}

export interface PageOptions {
  /** Rows per query; Infinity = one streamed query. */
  pageRows: number;
  /** Rows per yielded batch. */
  batchRows?: number;
  signal?: AbortSignal;
}

/** chDB buffers a whole answer: pages of this many rows keep that buffer to a few MiB. */
const DEFAULT_CHDB_PAGE_ROWS = 20_000;
const DEFAULT_BATCH_ROWS = 1_000;

export const pageRowsFor = (ch: Analytics, asked?: number): number => asked ?? (ch.kind === 'chdb' ? DEFAULT_CHDB_PAGE_ROWS : Infinity);

const NEWLINE = 0x0a;

/** A query under way: its answer, and how to stop it. */
export interface Answer {
  result: Promise<{ stream: Readable }>;
  cancel(): void;
}

/** Starts a query; `cancel` aborts it in flight (or destroys its answer), idempotently. */
export function start(
  ch: Analytics,
  query: string,
  params: Record<string, unknown>,
  signal?: AbortSignal,
  format = 'JSONCompactEachRow',
): Answer {
  const stop = new AbortController();
  const result = ch.client.exec({
    query: `${query} FORMAT ${format}`,
    query_params: params,
    abort_signal: signal ? AbortSignal.any([signal, stop.signal]) : stop.signal,
  });
  result.catch(() => undefined); // a cancelled prefetch is never awaited
  return {
    result,
    cancel() {
      stop.abort();
      result.then(
        (r) => r.stream.destroy(),
        () => undefined,
      );
    },
  };
}

/** Calls `each` on every row of an answer (JSON arrays, one a line), yielding whatever `each` asks to yield. */
async function* rowsOf<T>(answer: Answer, each: (row: unknown[]) => T | undefined): AsyncGenerator<T> {
  try {
    const { stream } = await answer.result;
    let rest: Buffer | undefined;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const buf = rest ? Buffer.concat([rest, chunk]) : chunk;
      let from = 0;
      for (let nl = buf.indexOf(NEWLINE, from); nl !== -1; nl = buf.indexOf(NEWLINE, from)) {
        const line = buf.toString('utf8', from, nl);
        from = nl + 1;
        let row: unknown;
        try {
          row = JSON.parse(line);
        } catch {
          row = undefined;
        }
        // a failure after the answer started comes as text at the end of the stream
        if (!Array.isArray(row)) throw new Error(`Analytics store: ${line.slice(0, 500)}`);
        const out = each(row);
        if (out !== undefined) yield out;
      }
      rest = from < buf.length ? buf.subarray(from) : undefined;
    }
    if (rest?.length) throw new Error(`Analytics store: incomplete row ${rest.toString('utf8', 0, 200)}`);
  } finally {
    answer.cancel(); // a no-op once the answer was read through; else stops it
  }
}

/** The rows of one query as JSON arrays, read as they are consumed; stopping early cancels the query. */
export const queryRows = (ch: Analytics, query: string, params: Record<string, unknown>, signal?: AbortSignal): AsyncGenerator<unknown[]> =>
  rowsOf(start(ch, query, params, signal), (r) => r);

/** A page: several devices read whole, or one device read in keyset pages. */
export interface DeviceWindow {
  ids: number[];
  alone: boolean;
}

/**
 * A read's `FROM … WHERE …` with its parameters; `countSql`, when given, is a cheaper query of the
 * same per-device row counts (device_id, count, in device order) than counting `sql`'s rows.
 */
export interface RowsSource {
  sql: string;
  params: Record<string, unknown>;
  countSql?: string;
}

/**
 * Groups devices (in id order) into pages of about `pageRows` rows from their row counts (devices
 * without rows are left out): consecutive devices while their rows fit, a bigger device alone.
 */
export async function deviceWindows(
  ch: Analytics,
  source: RowsSource,
  ids: number[],
  pageRows: number,
  signal?: AbortSignal,
): Promise<DeviceWindow[]> {
  const { sql, params } = source;
  const out: DeviceWindow[] = [];
  let open: DeviceWindow | undefined;
  let rows = 0;
  const counts = queryRows(
    ch,
    source.countSql ?? `SELECT device_id, count() ${sql} GROUP BY device_id ORDER BY device_id`,
    { ...params, ids },
    signal,
  );
  for await (const [id, n] of counts) {
    const count = Number(n);
    if (count > pageRows) {
      out.push({ ids: [Number(id)], alone: true });
      open = undefined;
      continue;
    }
    if (!open || rows + count > pageRows) {
      open = { ids: [], alone: false };
      out.push(open);
      rows = 0;
    }
    open.ids.push(Number(id));
    rows += count;
  }
  return out;
}

/** How pagesByDevice reads: the query of a page, and the reader of its answer. */
export interface PagedRead<K, T> {
  source: RowsSource;
  /** Sorted, distinct. */
  ids: number[];
  /** Rows a page holds (Infinity: one query for every device, unpaged). */
  pageRows: number;
  signal?: AbortSignal;
  /** Starts the query of these devices' rows (after `after`, limited to a page `WITH TIES` when `limit`). */
  ask(ids: number[], after?: K, limit?: boolean): Answer;
  /** Reads an answer, yielding what it makes of it, and returns how many rows it held. */
  read(answer: Answer): AsyncGenerator<T, number>;
  /** The key of the last row read (undefined: none yet). */
  lastKey(): K | undefined;
}

/**
 * Reads devices' rows page by page (deviceWindows): a page of several devices in one query, the
 * next such page asked for while this one is read (chDB works in its own thread); a device with
 * more rows than a page alone, in keyset pages after the last key read (WITH TIES keeps every row
 * of a key in one page).
 */
export async function* pagesByDevice<K, T>(ch: Analytics, r: PagedRead<K, T>): AsyncGenerator<T> {
  const plan = Number.isFinite(r.pageRows)
    ? await deviceWindows(ch, r.source, r.ids, r.pageRows, r.signal)
    : [{ ids: r.ids, alone: false }];
  let next: Answer | undefined;
  try {
    for (let i = 0; i < plan.length; i++) {
      const w = plan[i]!;
      if (!w.alone) {
        const answer = next ?? r.ask(w.ids);
        const following = plan[i + 1];
        next = following && !following.alone ? r.ask(following.ids) : undefined;
        yield* r.read(answer);
        continue;
      }
      next = undefined;
      for (let after: K | undefined; ;) {
        const rows = yield* r.read(r.ask(w.ids, after, true));
        after = r.lastKey();
        if (rows < r.pageRows || after === undefined) break;
      }
    }
  } finally {
    next?.cancel();
  }
}

export async function* deviceRows<K extends { deviceId: number }>(
  ch: Analytics,
  read: DeviceRowsRead<K>,
  deviceIds: number[],
  opts: PageOptions,
): AsyncGenerator<unknown[][]> {
  if (!deviceIds.length) return;
  const ids = [...new Set(deviceIds)].sort((a, b) => a - b);
  const batchRows = opts.batchRows ?? DEFAULT_BATCH_ROWS;
  let batch: unknown[][] = [];
  let kept: unknown[] | undefined; // the row kept for the current key, not yet in a batch
  let keptKey: K | undefined;

  /** Keeps one row per key; returns a full batch when there is one. */
  function each(row: unknown[]): unknown[][] | undefined {
    const key = read.keyOf(row);
    if (kept && read.sameKey(keptKey!, key)) {
      if (read.newer(kept, row)) kept = row;
      return undefined;
    }
    if (kept) batch.push(kept);
    kept = row;
    keptKey = key;
    if (batch.length < batchRows) return undefined;
    const full = batch;
    batch = [];
    return full;
  }

  const ask = (windowIds: number[], after?: K, limit = false): Answer => {
    const cond = after ? read.after(after) : { sql: '', params: {} };
    return start(
      ch,
      `SELECT ${read.columns} ${read.source.sql} ${cond.sql} ORDER BY ${read.orderBy} ${limit ? 'LIMIT {pageRows:UInt32} WITH TIES' : ''}`,
      { ...read.source.params, ...cond.params, ids: windowIds, ...(limit ? { pageRows: opts.pageRows } : {}) },
      opts.signal,
    );
  };

  /** The rows of an answer through `each`, then how many there were. */
  async function* counted(answer: Answer): AsyncGenerator<unknown[][], number> {
    let count = 0;
    yield* rowsOf(answer, (row) => {
      count++;
      return each(row);
    });
    return count;
  }
  yield* pagesByDevice(ch, {
    source: read.source,
    ids,
    pageRows: opts.pageRows,
    signal: opts.signal,
    ask,
    read: counted,
    lastKey: () => (kept ? keptKey : undefined),
  });
  if (kept) batch.push(kept);
  if (batch.length) yield batch;
}
