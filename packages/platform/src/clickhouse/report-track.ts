import type { Analytics } from '../adapters/analytics';
import { deviceWindows, pageRowsFor, start, type Answer } from './report-pages';
import { attributeSql, positionsSource, type ReportPositionsQuery } from './report-positions';

/**
 * The track a motion detector runs on: per device, oldest first, only what the detection reads of
 * each fix (time, position, speed, ignition, the `motion` attribute), as columns. The store sends
 * it as fixed-width binary rows (RowBinary): no text to parse, no attribute extracted but `motion`.
 * The fields a report item shows (ids, odometer, engine hours, fuel, driver) are read afterwards
 * for the few fixes items begin and end at (queryFixesAt).
 *
 * Read like the other report streams (report-pages.ts): one streamed query on ClickHouse, pages of
 * devices on chDB (a device with more fixes than a page alone, in keyset pages), the next page
 * asked for while the current one is folded. A redelivered fix (same device and fix time) is kept
 * once, with the values of the latest server time, as ReplacingMergeTree keeps it.
 */
export interface TrackChunk {
  deviceId: number;
  length: number;
  /** Fix time, epoch ms. */
  time: Float64Array;
  latitude: Float64Array;
  longitude: Float64Array;
  /** knots, as the store prints the Float32 it holds (what a reader of its text gets). */
  speed: Float64Array;
  /** -1 unknown, 0 off, 1 on. */
  ignition: Int8Array;
  /** The `motion` attribute: -1 absent, 0 false, 1 true. */
  motion: Int8Array;
}

/** chDB buffers a whole answer: a track page of 250,000 fixes is about 11 MiB. */
export const DEFAULT_CHDB_TRACK_ROWS = 250_000;
const CHUNK_ROWS = 16_384;

const COLUMNS = `toUInt32(device_id), toFloat64(toUnixTimestamp64Milli(fix_time)), toFloat64(toUnixTimestamp64Milli(server_time)),
  latitude, longitude, toFloat64(toString(speed)), toInt8(ifNull(toInt8(ignition), -1)),
  toInt8(ifNull(toInt8(${attributeSql('attributes', 'motion', 'Nullable(Bool)')}), -1))`;
const ROW_BYTES = 4 + 8 * 5 + 1 + 1;

/** Turns RowBinary bytes (in any split) into per-device chunks, keeping one row per fix. */
class TrackDecoder {
  private rest: Buffer | undefined;
  private chunk: TrackChunk | undefined;
  private lastServer = 0;
  private readonly done: TrackChunk[] = [];

  private open(deviceId: number): TrackChunk {
    const c: TrackChunk = {
      deviceId, length: 0, time: new Float64Array(CHUNK_ROWS), latitude: new Float64Array(CHUNK_ROWS), longitude: new Float64Array(CHUNK_ROWS),
      speed: new Float64Array(CHUNK_ROWS), ignition: new Int8Array(CHUNK_ROWS), motion: new Int8Array(CHUNK_ROWS),
    };
    this.chunk = c;
    return c;
  }

  /** Closes the open chunk but its last row, which a redelivery in the next bytes may still replace. */
  private rollOver(c: TrackChunk): TrackChunk {
    const last = c.length - 1;
    const next = this.open(c.deviceId);
    next.time[0] = c.time[last]!;
    next.latitude[0] = c.latitude[last]!;
    next.longitude[0] = c.longitude[last]!;
    next.speed[0] = c.speed[last]!;
    next.ignition[0] = c.ignition[last]!;
    next.motion[0] = c.motion[last]!;
    next.length = 1;
    c.length = last;
    this.done.push(c);
    return next;
  }

  push(bytes: Buffer): void {
    const buf = this.rest ? Buffer.concat([this.rest, bytes]) : bytes;
    const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    let o = 0;
    for (; o + ROW_BYTES <= buf.length; o += ROW_BYTES) {
      const deviceId = dv.getUint32(o, true);
      const time = dv.getFloat64(o + 4, true);
      const server = dv.getFloat64(o + 12, true);
      let c = this.chunk;
      if (c && c.deviceId === deviceId && c.length && c.time[c.length - 1] === time) {
        if (server <= this.lastServer) continue; // a redelivery: keep the newest
        c.length--;
      } else if (!c || c.deviceId !== deviceId) {
        if (c?.length) this.done.push(c);
        c = this.open(deviceId);
      } else if (c.length === CHUNK_ROWS) {
        c = this.rollOver(c);
      }
      const i = c.length++;
      c.time[i] = time;
      c.latitude[i] = dv.getFloat64(o + 20, true);
      c.longitude[i] = dv.getFloat64(o + 28, true);
      c.speed[i] = dv.getFloat64(o + 36, true);
      c.ignition[i] = dv.getInt8(o + 44);
      c.motion[i] = dv.getInt8(o + 45);
      this.lastServer = server;
    }
    this.rest = o < buf.length ? buf.subarray(o) : undefined;
  }

  /** The chunks complete so far (all of them once `end` is true). */
  take(end = false): TrackChunk[] {
    if (end) {
      if (this.rest?.length) throw new Error(`Analytics store: incomplete track row (${this.rest.length} bytes)`);
      if (this.chunk?.length) this.done.push(this.chunk);
      this.chunk = undefined;
    }
    return this.done.splice(0).map(trim);
  }

  /** The last fix time read of the device read so far (the keyset of its next page). */
  get lastTime(): number | undefined {
    const c = this.chunk;
    return c?.length ? c.time[c.length - 1] : undefined;
  }
}

const trim = (c: TrackChunk): TrackChunk => ({
  deviceId: c.deviceId, length: c.length, time: c.time.subarray(0, c.length), latitude: c.latitude.subarray(0, c.length),
  longitude: c.longitude.subarray(0, c.length), speed: c.speed.subarray(0, c.length), ignition: c.ignition.subarray(0, c.length),
  motion: c.motion.subarray(0, c.length),
});

/** Reads an answer into the decoder, yielding chunks as they complete; returns the bytes read. */
async function* decode(answer: Answer, into: TrackDecoder): AsyncGenerator<TrackChunk[], number> {
  let bytes = 0;
  try {
    const { stream } = await answer.result;
    for await (const part of stream as AsyncIterable<Buffer>) {
      bytes += part.length;
      into.push(part);
      const ready = into.take();
      if (ready.length) yield ready;
    }
  } finally {
    answer.cancel();
  }
  return bytes;
}

/** The devices' tracks over the period, devices in id order, each oldest first, in chunks. */
export function streamTracks(ch: Analytics) {
  return async function* (q: ReportPositionsQuery): AsyncGenerator<TrackChunk[]> {
    if (!q.deviceIds.length) return;
    const ids = [...new Set(q.deviceIds)].sort((a, b) => a - b);
    const source = positionsSource(ch, q);
    const pageRows = q.pageRows ?? (ch.kind === 'chdb' ? DEFAULT_CHDB_TRACK_ROWS : pageRowsFor(ch));
    const ask = (pageIds: number[], after?: number, limit = false): Answer =>
      start(
        ch,
        `SELECT ${COLUMNS} ${source.sql} ${after === undefined ? '' : `AND fix_time > fromUnixTimestamp64Milli({after:Int64}, 'UTC')`}
         ORDER BY device_id, fix_time ${limit ? 'LIMIT {pageRows:UInt32} WITH TIES' : ''}`,
        { ...source.params, ids: pageIds, after, pageRows: limit ? pageRows : undefined },
        q.signal,
        'RowBinary',
      );
    const plan = Number.isFinite(pageRows) ? await deviceWindows(ch, source, ids, pageRows, q.signal) : [{ ids, alone: false }];
    const decoder = new TrackDecoder();
    let next: Answer | undefined;
    try {
      for (let i = 0; i < plan.length; i++) {
        const w = plan[i]!;
        if (!w.alone) {
          const answer = next ?? ask(w.ids);
          const following = plan[i + 1];
          next = following && !following.alone ? ask(following.ids) : undefined;
          yield* decode(answer, decoder);
          continue;
        }
        next = undefined;
        // a device with more fixes than a page: pages after the last fix time read (WITH TIES keeps a redelivery in one page)
        for (let after: number | undefined; ;) {
          const bytes = yield* decode(ask(w.ids, after, true), decoder);
          if (bytes < pageRows * ROW_BYTES) break;
          after = decoder.lastTime;
        }
      }
    } finally {
      next?.cancel();
    }
    const rest = decoder.take(true);
    if (rest.length) yield rest;
  };
}
