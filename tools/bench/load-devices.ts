/**
 * GT06 trackers for the ingest load benchmarks, meant to run in a child process of their own (so
 * their sockets and CPU do not count against the stack's): `LoadDevices` (the parent's handle)
 * starts this file with LOAD_DEVICES_ROLE=devices. Each tracker logs in, then sends location
 * frames keeping at most `window` of them unacknowledged, as a tracker uploading from its memory
 * does; what it cannot send yet stays in its backlog (the device is slowed down). Two loads:
 * - `closed`: every tracker sends as fast as its acks allow (the capacity);
 * - `rate`: frames fall due at a total rate, spread evenly over the trackers.
 * The figures are the trackers' own: acknowledged frames, the time from each frame's write to its
 * ack (p50, p99), the backlog left at the end.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { gt06Location, gt06Login } from '../sim/senders/gt06-encoder';
import { quantile } from './stats';

export interface LoadResult {
  acked: number;
  seconds: number;
  p50Ms: number;
  p99Ms: number;
  /** Frames due but not yet written when the load ended (the window was full). */
  backlog: number;
}

export type LoadCommand = { cmd: 'closed'; seconds: number; window: number } | { cmd: 'rate'; perSecond: number; seconds: number; window: number };

export const loadImei = (i: number): string => String(358_100_000_000_000 + i).padStart(15, '0');

// ---------------------------------------------------------------- child side

class Tracker {
  private received: Buffer = Buffer.alloc(0);
  private serial = 1;
  private seq = 0;
  /** serial → write time */
  private readonly inflight = new Map<number, number>();
  private wake: (() => void) | undefined;

  constructor(readonly socket: Socket, readonly index: number, private readonly t0: number) {
    socket.on('data', (chunk: Buffer) => {
      this.received = this.received.length ? Buffer.concat([this.received, chunk]) : chunk;
      while (this.received.length >= 10) {
        const serial = this.received.readUInt16BE(4);
        this.received = this.received.subarray(10);
        const sentAt = this.inflight.get(serial);
        if (sentAt === undefined) continue;
        this.inflight.delete(serial);
        latencies.push(performance.now() - sentAt);
        acked++;
      }
      this.wake?.();
    });
  }

  get outstanding(): number {
    return this.inflight.size;
  }

  send(): void {
    const serial = (this.serial = (this.serial % 65_535) + 1);
    const time = new Date(this.t0 + this.seq++ * 1000);
    const fix = { deviceId: loadImei(this.index), time, lat: -1.3 - (this.seq % 1000) / 10_000, lon: 36.8 + this.index / 10_000, speedKph: 60, courseDeg: 90, altitudeM: 1600, accuracyM: 5, batteryPct: 90 };
    this.inflight.set(serial, performance.now());
    this.socket.write(gt06Location(fix, serial));
  }

  /** Resolves at the next ack (or after `ms`). */
  next(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }
}

let acked = 0;
let latencies: number[] = [];

async function open(port: number, index: number, t0: number): Promise<Tracker> {
  const socket = connect({ host: '127.0.0.1', port, noDelay: true });
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  socket.on('error', () => undefined);
  const got = new Promise<void>((resolve) => socket.once('data', () => resolve()));
  socket.write(gt06Login(loadImei(index), 1));
  await got;
  return new Tracker(socket, index, t0);
}

async function runLoad(trackers: Tracker[], c: LoadCommand): Promise<LoadResult> {
  acked = 0;
  latencies = [];
  const started = performance.now();
  const end = started + c.seconds * 1000;
  let backlog = 0;
  await Promise.all(
    trackers.map(async (t, i) => {
      // rate: this tracker's frames fall due every `every` ms, staggered across trackers
      const every = c.cmd === 'rate' ? (trackers.length * 1000) / c.perSecond : 0;
      let due = started + (every * i) / trackers.length;
      let owed = 0;
      while (performance.now() < end) {
        if (c.cmd === 'rate') {
          const now = performance.now();
          while (due <= now) {
            owed++;
            due += every;
          }
        } else owed = c.window;
        while (owed > 0 && t.outstanding < c.window) {
          t.send();
          owed--;
        }
        const wait = c.cmd === 'rate' && t.outstanding < c.window ? Math.max(1, due - performance.now()) : 50;
        await t.next(Math.min(wait, end - performance.now()));
      }
      backlog += owed;
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const r = (v: number): number => Math.round(v * 10) / 10;
  return { acked, seconds, p50Ms: r(quantile(latencies, 0.5)), p99Ms: r(quantile(latencies, 0.99)), backlog };
}

async function child(): Promise<void> {
  const port = Number(process.env.PORT);
  const count = Number(process.env.COUNT);
  const t0 = Number(process.env.T0);
  const say = (o: object): void => void process.stdout.write(JSON.stringify(o) + '\n');
  const trackers: Tracker[] = [];
  for (let from = 0; from < count; from += 100) {
    trackers.push(...(await Promise.all(Array.from({ length: Math.min(100, count - from) }, (_, k) => open(port, from + k, t0)))));
  }
  say({ event: 'ready', connected: trackers.length });
  for await (const line of createInterface({ input: process.stdin })) {
    const c = JSON.parse(line) as LoadCommand | { cmd: 'exit' };
    if (c.cmd === 'exit') break;
    // let the acks of the previous load arrive before counting anew
    while (trackers.some((t) => t.outstanding > 0)) await new Promise((r) => setTimeout(r, 20));
    say({ event: 'done', ...(await runLoad(trackers, c)) });
  }
  for (const t of trackers) t.socket.destroy();
  process.exit(0);
}

if (process.env.LOAD_DEVICES_ROLE === 'devices') await child();

// ---------------------------------------------------------------- parent side

/** The trackers' child process, driven line by line. */
export class LoadDevices {
  private readonly child: ChildProcess;
  private readonly events: Record<string, unknown>[] = [];
  private wake: (() => void) | undefined;

  constructor(port: number, count: number, t0: number) {
    this.child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
      env: { ...process.env, LOAD_DEVICES_ROLE: 'devices', PORT: String(port), COUNT: String(count), T0: String(t0) },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    createInterface({ input: this.child.stdout! }).on('line', (l) => {
      this.events.push(JSON.parse(l) as Record<string, unknown>);
      this.wake?.();
    });
  }

  private async next(event: string): Promise<Record<string, unknown>> {
    for (;;) {
      const i = this.events.findIndex((e) => e.event === event);
      if (i >= 0) return this.events.splice(i, 1)[0]!;
      await new Promise<void>((r) => (this.wake = r));
    }
  }

  async ready(): Promise<number> {
    return Number((await this.next('ready')).connected);
  }

  async run(c: LoadCommand): Promise<LoadResult> {
    this.child.stdin!.write(JSON.stringify(c) + '\n');
    return (await this.next('done')) as unknown as LoadResult;
  }

  async stop(): Promise<void> {
    this.child.stdin!.write(JSON.stringify({ cmd: 'exit' }) + '\n');
    await new Promise((r) => this.child.once('exit', r));
  }
}
