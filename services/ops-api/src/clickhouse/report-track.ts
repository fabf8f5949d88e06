import { POSITION_ID_DEVICE_BITS, POSITION_ID_EPOCH_MS } from '@corridor/contracts';
import type { Analytics } from '@corridor/platform';
import { NativeBlockReader, type NativeBlock } from './native-blocks';
import { positionIdSql } from '@corridor/platform';
import { pageRowsFor, pagesByDevice, start, type Answer } from './report-pages';
import { afterKeySql, attributeSql, positionsSource, type ReportPositionsQuery } from './report-positions';
import { trackRunsSource, type RunDay } from './report-track-runs';

/**
 * The track a motion detector runs on: per device, oldest first, only what the detection reads of
 * each fix (time, position, speed, ignition, the `motion` attribute), as columns. The store sends
 * it in its Native format (native-blocks.ts), columns of fixed-width numbers: no text to parse, no
 * attribute extracted but `motion`, and no id: a position id is a function of the device, the
 * whole-second fix time and the kind (position-id.ts), so the store sends the kind's bit and checks
 * that every id it reads is that function (an error, not a wrong id, if one is not).
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

/**
 * chDB buffers a whole answer: a track page of 500,000 fixes is about 21 MiB (two in flight: the
 * one being folded and the next). Pages are queries: read alone, the track of 1,000 device-days took
 * 15-20% less time in pages of 500,000 than of 250,000; in the whole report about 5% (tools/bench
 * reports), for about 100 MiB more peak memory. Real ClickHouse streams one query, unpaged.
 */
export const DEFAULT_CHDB_TRACK_ROWS = 500_000;
const SLAB_ROWS = 65_536;
const EPOCH_S = POSITION_ID_EPOCH_MS / 1000;
const DEVICE_SPAN = 2 ** POSITION_ID_DEVICE_BITS;

/**
 * A fix as the store sends it (39 bytes): device, fix time (whole seconds), server time (epoch ms:
 * of two arrivals of one position the first is kept), the id's kind bit, position, speed (the
 * Float32 it holds, knots), ignition and `motion` (-1 unknown, 0, 1).
 */
const TRACK = {
  d: 'UInt32',
  t: 'UInt32',
  s: 'Float64',
  k: 'UInt8',
  la: 'Float64',
  lo: 'Float64',
  v: 'Float32',
  i: 'Int8',
  m: 'Int8',
} as const;
const kindBit = `bitTest(id, ${POSITION_ID_DEVICE_BITS})`;
/** The track's columns selected from the positions (TRACK's names). */
export const TRACK_COLUMNS = `toUInt32(device_id) AS d, toUInt32(toUnixTimestamp(fix_time)) AS t, toFloat64(toUnixTimestamp64Milli(server_time)) AS s,
  toUInt8(${kindBit} + throwIf(id != ${positionIdSql('device_id', 'fix_time', kindBit)} OR toUnixTimestamp64Milli(fix_time) % 1000 != 0,
    'a stored position whose id is not its device, whole-second fix time and kind')) AS k,
  latitude AS la, longitude AS lo, speed AS v, toInt8(ifNull(toInt8(ignition), -1)) AS i,
  toInt8(ifNull(toInt8(${attributeSql('attributes', 'motion', 'Nullable(Bool)')}), -1)) AS m`;
/**
 * A Float32 as the store prints it (its shortest decimal that reads back as the same Float32), as a
 * double: the speed every other report path reads from the store's text. Printing it in the query
 * (toFloat64(toString(speed))) cost the store about a fifth of the track's query time (1,000
 * device-days, issue 28); here it is a lookup, as a fleet's speeds are few distinct values.
 */
const printed = new Map<number, number>();
export function printedFloat32(x: number): number {
  let d = printed.get(x);
  if (d !== undefined) return d;
  d = x;
  for (let p = 1; p <= 9; p++) {
    let shortest = Number(x.toPrecision(p));
    if (Math.fround(shortest) !== x) continue;
    // halfway between two p-digit decimals, JavaScript takes the larger and the store the even one
    const exact = x.toExponential(p + 24);
    const [digits, exponent] = exact.replace(/^-/, '').replace('.', '').split('e') as [string, string];
    if (
      /^50*$/.test(digits.slice(p)) &&
      Number(
        shortest
          .toExponential(p - 1)
          .replace(/^-/, '')
          .replace('.', '')
          .split('e')[0]!
          .slice(-1),
      ) %
        2 ===
        1
    ) {
      shortest = Number(`${x < 0 ? '-' : ''}${digits[0]}.${digits.slice(1, p)}e${exponent}`);
    }
    d = shortest;
    break;
  }
  if (printed.size > 65_536) printed.clear();
  printed.set(x, d);
  return d;
}

/** About 100,000 rows between two yields of a streamed answer (a chDB page is one answer). */
const BATCH_ROWS = 100_000;

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

/** Turns Native blocks (bytes in any split) into per-device chunks, keeping one row per key. */
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
      deviceId,
      length: 0,
      time: view(slab.time),
      id: view(slab.id),
      latitude: view(slab.latitude),
      longitude: view(slab.longitude),
      speed: view(slab.speed),
      ignition: view(slab.ignition),
      motion: view(slab.motion),
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

  /** Writes a row kept: into a new chunk at a new device, over the last slot for a still run's tail, else appended. */
  private commit(
    deviceId: number,
    time: number,
    id: number,
    latitude: number,
    longitude: number,
    speed: number,
    ignition: number,
    motion: number,
  ): void {
    let c = this.chunk;
    let at: number;
    if (!c || c.deviceId !== deviceId) {
      if (c?.length) this.done.push(c);
      c = this.open(deviceId);
      this.span = this.stillRunSpan?.(deviceId);
      this.startRun(time);
      at = c.length++;
    } else {
      const l = c.length - 1;
      const still =
        this.span !== undefined &&
        c.latitude[l] === latitude &&
        c.longitude[l] === longitude &&
        c.speed[l] === speed &&
        c.ignition[l] === ignition &&
        c.motion[l] === motion;
      if (still && this.tail) {
        // the run's moving tail: the same values at a later time
        c.time[l] = time;
        c.id[l] = id;
        return;
      }
      if (!still) this.startRun(time);
      else if (this.pastSpan >= 2) this.tail = true;
      if (c.length === c.time.length) c = this.rollOver(c);
      at = c.length++;
    }
    if (this.span !== undefined && !this.tail && time - this.runStart >= this.span) this.pastSpan++;
    c.time[at] = time;
    c.id[at] = id;
    c.latitude[at] = latitude;
    c.longitude[at] = longitude;
    c.speed[at] = speed;
    c.ignition[at] = ignition;
    c.motion[at] = motion;
  }

  private commitHeld(): void {
    this.held = false;
    this.commit(this.hDevice, this.hTime, this.hId, this.hLatitude, this.hLongitude, this.hSpeed, this.hIgnition, this.hMotion);
  }

  private startRun(time: number): void {
    this.runStart = time;
    this.pastSpan = 0;
    this.tail = false;
  }

  private readonly reader = new NativeBlockReader(TRACK);
  /** Rows read (before a redelivery is dropped or a still run shortened). */
  rows = 0;

  push(bytes: Buffer): void {
    this.reader.push(bytes);
    for (let b = this.reader.next(); b; b = this.reader.next()) this.read(b);
  }

  /**
   * The rows of a block, of each key the first arrival. The row held (its key's first arrival so
   * far, written once the next key shows up) is an index into the block while it is in this block,
   * and is copied into the h* fields only when the block ends.
   */
  private read(b: NativeBlock<typeof TRACK>): void {
    const { d, t, s, k, la, lo, v, i, m } = b.columns;
    let hr = -1;
    for (let r = 0; r < b.rows; r++) {
      const deviceId = d[r]!;
      const seconds = t[r]!;
      if (hr >= 0) {
        if (d[hr] === deviceId && t[hr] === seconds && k[hr] === k[r]) {
          if (s[r]! < s[hr]!) hr = r; // else a redelivery: keep the first arrival
          continue;
        }
        this.commit(d[hr]!, t[hr]! * 1000, this.idOf(d[hr]!, t[hr]!, k[hr]!), la[hr]!, lo[hr]!, printedFloat32(v[hr]!), i[hr]!, m[hr]!);
      } else if (this.held) {
        if (this.hDevice === deviceId && this.hTime === seconds * 1000 && this.hId === this.idOf(deviceId, seconds, k[r]!)) {
          if (s[r]! < this.hServer) {
            this.held = false;
            hr = r;
          }
          continue;
        }
        this.commitHeld();
      }
      hr = r;
    }
    if (hr >= 0) {
      this.held = true;
      this.hDevice = d[hr]!;
      this.hTime = t[hr]! * 1000;
      this.hServer = s[hr]!;
      this.hId = this.idOf(d[hr]!, t[hr]!, k[hr]!);
      this.hLatitude = la[hr]!;
      this.hLongitude = lo[hr]!;
      this.hSpeed = printedFloat32(v[hr]!);
      this.hIgnition = i[hr]!;
      this.hMotion = m[hr]!;
    }
    this.rows += b.rows;
  }

  private idOf(deviceId: number, seconds: number, kind: number): number {
    return ((seconds - EPOCH_S) * 2 + kind) * DEVICE_SPAN + deviceId;
  }

  /** The chunks complete so far (all of them once `end` is true). */
  take(end = false): TrackChunk[] {
    if (end) {
      this.reader.end();
      if (this.held) this.commitHeld();
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
  deviceId: c.deviceId,
  length: c.length,
  time: c.time.subarray(0, c.length),
  id: c.id.subarray(0, c.length),
  latitude: c.latitude.subarray(0, c.length),
  longitude: c.longitude.subarray(0, c.length),
  speed: c.speed.subarray(0, c.length),
  ignition: c.ignition.subarray(0, c.length),
  motion: c.motion.subarray(0, c.length),
});

/**
 * Reads an answer into the decoder, yielding the chunks completed every BATCH_ROWS or so (a
 * report completes each batch's items with one more query); returns the rows read.
 */
async function* decode(answer: Answer, into: TrackDecoder): AsyncGenerator<TrackChunk[], number> {
  const first = into.rows;
  let yielded = first;
  try {
    const { stream } = await answer.result;
    for await (const part of stream as AsyncIterable<Buffer>) {
      into.push(part);
      if (into.rows - yielded < BATCH_ROWS) continue;
      yielded = into.rows;
      const ready = into.take();
      if (ready.length) yield ready;
    }
  } finally {
    answer.cancel();
  }
  const ready = into.take();
  if (ready.length) yield ready;
  return into.rows - first;
}

/**
 * Days read from the stored runs (report-track-runs.ts) instead of the positions: the fresh
 * device-days (freshRunDays) of devices whose still-run span is `spanSeconds` (the same span the
 * reader thins their runs by, in seconds; a device without one is read from its positions).
 */
export interface StoredRuns {
  fresh: RunDay[];
  spanSeconds: Map<number, number>;
}

/** The devices' tracks over the period, devices in id order, each oldest first, in chunks. */
export function streamTracks(ch: Analytics) {
  return async function* (q: ReportPositionsQuery & { stillRunSpan?: StillRunSpan; runs?: StoredRuns }): AsyncGenerator<TrackChunk[]> {
    if (!q.deviceIds.length) return;
    const ids = [...new Set(q.deviceIds)].sort((a, b) => a - b);
    const withRuns = q.runs?.fresh.length ? q.runs : undefined;
    const source = withRuns ? trackRunsSource(ch, q, TRACK_COLUMNS, withRuns.fresh, withRuns.spanSeconds) : positionsSource(ch, q);
    const select = withRuns ? 'd, t, s, k, la, lo, v, i, m' : TRACK_COLUMNS;
    const pageRows = q.pageRows ?? (ch.kind === 'chdb' ? DEFAULT_CHDB_TRACK_ROWS : pageRowsFor(ch));
    const ask = (pageIds: number[], after?: { time: number; id: number }, limit = false): Answer =>
      start(
        ch,
        `SELECT ${select} ${source.sql} ${after ? afterKeySql : ''} ORDER BY device_id, fix_time, id ${limit ? 'LIMIT {pageRows:UInt32} WITH TIES' : ''}`,
        { ...source.params, ids: pageIds, afterTime: after?.time, afterId: after?.id, pageRows: limit ? pageRows : undefined },
        q.signal,
        'Native',
      );
    const decoder = new TrackDecoder(q.stillRunSpan);
    yield* pagesByDevice(ch, {
      source,
      ids,
      pageRows,
      signal: q.signal,
      ask,
      read: (answer) => decode(answer, decoder),
      lastKey: () => decoder.lastKey,
    });
    const rest = decoder.take(true);
    if (rest.length) yield rest;
  };
}
