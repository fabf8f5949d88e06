import type { Analytics } from '../adapters/analytics';
import { deviceWindows, pageRowsFor, start, type Answer } from './report-pages';
import { afterKeySql, attributeSql, positionsSource, type ReportPositionsQuery } from './report-positions';

/**
 * The track a motion detector runs on: per device, oldest first, only what the detection reads of
 * each fix (time, position, speed, ignition, the `motion` attribute), as columns. The store sends
 * it as fixed-width binary rows (RowBinary): no text to parse, no attribute extracted but `motion`.
 * The other fields a report item shows (validity, odometer, engine hours, fuel, driver) are read afterwards
 * for the few fixes items begin and end at (queryStoredAt).
 *
 * Read like the other report streams (report-pages.ts): one streamed query on ClickHouse, pages of
 * devices on chDB (a device with more fixes than a page alone, in keyset pages), the next page
 * asked for while the current one is folded. The sort key is (device_id, fix_time, id); a
 * redelivered position (same key) is kept once, with the values of its first arrival (the earliest
 * server time), as ReplacingMergeTree(arrival_rank) keeps it (positions.ts).
 */
/** A device's rows of a batch; its arrays are views the reader reuses once the next batch is asked for. */
export interface TrackChunk {
  deviceId: number;
  length: number;
  /** Fix time, epoch ms. */
  time: Float64Array;
  /** Position ids (below 2^53). */
  id: Float64Array;
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
const SLAB_ROWS = 65_536;

/** A row: device id (UInt32), ignition and motion (Int8), 2 bytes of padding, then six Float64, so it is 8-byte aligned. */
const COLUMNS = `toUInt32(device_id), toInt8(ifNull(toInt8(ignition), -1)),
  toInt8(ifNull(toInt8(${attributeSql('attributes', 'motion', 'Nullable(Bool)')}), -1)), toUInt16(0),
  toFloat64(toUnixTimestamp64Milli(fix_time)), toFloat64(toUnixTimestamp64Milli(server_time)), toFloat64(id),
  latitude, longitude, toFloat64(toString(speed))`;
const ROW_BYTES = 56;
const ROW_F64 = ROW_BYTES / 8;
/** About 100,000 rows between two yields of a streamed answer (a chDB page is one answer). */
const BATCH_BYTES = 100_000 * ROW_BYTES;

/** Columns rows are written into; chunks are views of them (a device-day is a small part of one). */
class Slab {
  used = 0;
  readonly time = new Float64Array(SLAB_ROWS);
  readonly id = new Float64Array(SLAB_ROWS);
  readonly latitude = new Float64Array(SLAB_ROWS);
  readonly longitude = new Float64Array(SLAB_ROWS);
  readonly speed = new Float64Array(SLAB_ROWS);
  readonly ignition = new Int8Array(SLAB_ROWS);
  readonly motion = new Int8Array(SLAB_ROWS);
}

/**
 * Which fixes of a run the reader may leave out: for a device it names, a run of consecutive fixes
 * identical in position, speed, ignition and `motion` is kept through its second fix at least that
 * many ms after the run's first, and its last fix; the fixes between are dropped. The caller says
 * when a detector cannot tell the difference (track-runs.ts, for Traccar's newer motion model).
 */
export type StillRunSpan = (deviceId: number) => number | undefined;

/** Turns RowBinary bytes (in any split) into per-device chunks, keeping one row per key. */
class TrackDecoder {
  private chunk: TrackChunk | undefined;
  private slab = new Slab();
  /** Slabs filled since the last take (their chunks go out with it), and those of the take before, free again by the next. */
  private filled: Slab[] = [];
  private lent: Slab[] = [];
  private readonly free: Slab[] = [];
  private readonly done: TrackChunk[] = [];
  /** The last row read, held until the next row shows it is not redelivered with an earlier server time. */
  private held = false;
  private hDevice = 0;
  private hTime = 0;
  private hServer = 0;
  private hId = 0;
  private hLatitude = 0;
  private hLongitude = 0;
  private hSpeed = 0;
  private hIgnition = 0;
  private hMotion = 0;
  /** The open chunk's device: its still-run span (undefined: keep every fix), the current run's first time, how many of its kept fixes are past the span, whether its last slot is the run's moving tail. */
  private span: number | undefined;
  private runStart = 0;
  private pastSpan = 0;
  private tail = false;

  constructor(private readonly stillRunSpan?: StillRunSpan) {}

  /** A chunk over the rest of the slab (another slab when little is left). */
  private open(deviceId: number): TrackChunk {
    if (this.chunk) this.slab.used += this.chunk.length;
    if (SLAB_ROWS - this.slab.used < SLAB_ROWS / 8) {
      this.filled.push(this.slab);
      this.slab = this.free.pop() ?? new Slab();
      this.slab.used = 0;
    }
    const { slab } = this;
    const view = <A extends Float64Array | Int8Array>(a: A): A => a.subarray(slab.used) as A;
    const c: TrackChunk = {
      deviceId, length: 0, time: view(slab.time), id: view(slab.id), latitude: view(slab.latitude), longitude: view(slab.longitude),
      speed: view(slab.speed), ignition: view(slab.ignition), motion: view(slab.motion),
    };
    this.chunk = c;
    return c;
  }

  /** Closes the open chunk but its last row, which the still-run tail may still overwrite. */
  private rollOver(c: TrackChunk): TrackChunk {
    const last = c.length - 1;
    const next = this.open(c.deviceId);
    next.time[0] = c.time[last]!;
    next.id[0] = c.id[last]!;
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

  /** Writes the held row: into a new chunk at a new device, over the last slot for a still run's tail, else appended. */
  private commit(): void {
    this.held = false;
    let c = this.chunk;
    let at: number;
    if (!c || c.deviceId !== this.hDevice) {
      if (c?.length) this.done.push(c);
      c = this.open(this.hDevice);
      this.span = this.stillRunSpan?.(this.hDevice);
      this.startRun();
      at = c.length++;
    } else {
      const l = c.length - 1;
      const still = this.span !== undefined && c.latitude[l] === this.hLatitude && c.longitude[l] === this.hLongitude && c.speed[l] === this.hSpeed
        && c.ignition[l] === this.hIgnition && c.motion[l] === this.hMotion;
      if (still && this.tail) {
        at = l;
      } else {
        if (!still) this.startRun();
        else if (this.pastSpan >= 2) this.tail = true;
        if (c.length === c.time.length) c = this.rollOver(c);
        at = c.length++;
      }
    }
    if (this.span !== undefined && !this.tail && this.hTime - this.runStart >= this.span) this.pastSpan++;
    c.time[at] = this.hTime;
    c.id[at] = this.hId;
    c.latitude[at] = this.hLatitude;
    c.longitude[at] = this.hLongitude;
    c.speed[at] = this.hSpeed;
    c.ignition[at] = this.hIgnition;
    c.motion[at] = this.hMotion;
  }

  private startRun(): void {
    this.runStart = this.hTime;
    this.pastSpan = 0;
    this.tail = false;
  }

  /** Rows are decoded from here: an aligned copy of the bytes received, the part of a row left over first. */
  private stage = new ArrayBuffer(1 << 20);
  private staged = 0;

  push(bytes: Buffer): void {
    if (this.staged + bytes.length > this.stage.byteLength) {
      const bigger = new ArrayBuffer(Math.max(this.stage.byteLength * 2, this.staged + bytes.length));
      new Uint8Array(bigger).set(new Uint8Array(this.stage, 0, this.staged));
      this.stage = bigger;
    }
    new Uint8Array(this.stage).set(bytes, this.staged);
    this.staged += bytes.length;
    const rows = Math.floor(this.staged / ROW_BYTES);
    const u32 = new Uint32Array(this.stage, 0, rows * (ROW_BYTES / 4));
    const i8 = new Int8Array(this.stage, 0, rows * ROW_BYTES);
    const f64 = new Float64Array(this.stage, 0, rows * ROW_F64);
    for (let r = 0; r < rows; r++) {
      const f = r * ROW_F64;
      const deviceId = u32[r * (ROW_BYTES / 4)]!;
      const time = f64[f + 1]!;
      const server = f64[f + 2]!;
      const id = f64[f + 3]!;
      if (this.held && this.hDevice === deviceId && this.hTime === time && this.hId === id) {
        if (server >= this.hServer) continue; // a redelivery: keep the first arrival
      } else if (this.held) {
        this.commit();
      }
      this.held = true;
      this.hDevice = deviceId;
      this.hTime = time;
      this.hServer = server;
      this.hId = id;
      this.hLatitude = f64[f + 4]!;
      this.hLongitude = f64[f + 5]!;
      this.hSpeed = f64[f + 6]!;
      this.hIgnition = i8[r * ROW_BYTES + 4]!;
      this.hMotion = i8[r * ROW_BYTES + 5]!;
    }
    const used = rows * ROW_BYTES;
    new Uint8Array(this.stage).copyWithin(0, used, this.staged);
    this.staged -= used;
  }

  /** The chunks complete so far (all of them once `end` is true). */
  take(end = false): TrackChunk[] {
    if (end) {
      if (this.staged) throw new Error(`Analytics store: incomplete track row (${this.staged} bytes)`);
      if (this.held) this.commit();
      if (this.chunk?.length) this.done.push(this.chunk);
      this.chunk = undefined;
    }
    // the caller is done with what the last take gave it (it asks again only then): those slabs are free
    this.free.push(...this.lent);
    this.lent = this.filled;
    this.filled = [];
    return this.done.splice(0).map(trim);
  }

  /** The key of the last row read of the device read so far (the keyset of its next page). */
  get lastKey(): { time: number; id: number } | undefined {
    if (this.held) return { time: this.hTime, id: this.hId };
    const c = this.chunk;
    return c?.length ? { time: c.time[c.length - 1]!, id: c.id[c.length - 1]! } : undefined;
  }
}

const trim = (c: TrackChunk): TrackChunk => ({
  deviceId: c.deviceId, length: c.length, time: c.time.subarray(0, c.length), id: c.id.subarray(0, c.length), latitude: c.latitude.subarray(0, c.length),
  longitude: c.longitude.subarray(0, c.length), speed: c.speed.subarray(0, c.length), ignition: c.ignition.subarray(0, c.length),
  motion: c.motion.subarray(0, c.length),
});

/**
 * Reads an answer into the decoder, yielding the chunks completed every BATCH_BYTES or so (a
 * report completes each batch's items with one more query); returns the bytes read.
 */
async function* decode(answer: Answer, into: TrackDecoder): AsyncGenerator<TrackChunk[], number> {
  let bytes = 0;
  let pending = 0;
  try {
    const { stream } = await answer.result;
    for await (const part of stream as AsyncIterable<Buffer>) {
      bytes += part.length;
      pending += part.length;
      into.push(part);
      if (pending < BATCH_BYTES) continue;
      pending = 0;
      const ready = into.take();
      if (ready.length) yield ready;
    }
  } finally {
    answer.cancel();
  }
  const ready = into.take();
  if (ready.length) yield ready;
  return bytes;
}

/** The devices' tracks over the period, devices in id order, each oldest first, in chunks. */
export function streamTracks(ch: Analytics) {
  return async function* (q: ReportPositionsQuery & { stillRunSpan?: StillRunSpan }): AsyncGenerator<TrackChunk[]> {
    if (!q.deviceIds.length) return;
    const ids = [...new Set(q.deviceIds)].sort((a, b) => a - b);
    const source = positionsSource(ch, q);
    const pageRows = q.pageRows ?? (ch.kind === 'chdb' ? DEFAULT_CHDB_TRACK_ROWS : pageRowsFor(ch));
    const ask = (pageIds: number[], after?: { time: number; id: number }, limit = false): Answer =>
      start(
        ch,
        `SELECT ${COLUMNS} ${source.sql} ${after ? afterKeySql : ''} ORDER BY device_id, fix_time, id ${limit ? 'LIMIT {pageRows:UInt32} WITH TIES' : ''}`,
        { ...source.params, ids: pageIds, afterTime: after?.time, afterId: after?.id, pageRows: limit ? pageRows : undefined },
        q.signal,
        'RowBinary',
      );
    const plan = Number.isFinite(pageRows) ? await deviceWindows(ch, source, ids, pageRows, q.signal) : [{ ids, alone: false }];
    const decoder = new TrackDecoder(q.stillRunSpan);
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
        // a device with more fixes than a page: pages after the last key read (WITH TIES keeps a redelivery in one page)
        for (let after: { time: number; id: number } | undefined; ;) {
          const bytes = yield* decode(ask(w.ids, after, true), decoder);
          if (bytes < pageRows * ROW_BYTES) break;
          after = decoder.lastKey;
        }
      }
    } finally {
      next?.cancel();
    }
    const rest = decoder.take(true);
    if (rest.length) yield rest;
  };
}
