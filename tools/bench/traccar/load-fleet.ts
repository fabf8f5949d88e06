/**
 * The load generator of `pnpm bench traccar`: GT06 trackers over TCP spread over several child
 * processes (this file with LOAD_FLEET_ROLE=trackers), so that it can offer more than one Node
 * process can write and time (one process topped out near 7,600 fixes/s; four reach well past
 * 30,000 on this machine when the server keeps up). The same generator drives Traccar and Corridor.
 *
 * Each tracker logs in (its login ack timed), then sends 0x22 locations keeping at most `window`
 * unacknowledged, as a tracker uploading from its memory does; what it cannot send yet stays in its
 * backlog. `closed`: every tracker sends as fast as its acks allow (saturation); `rate`: frames
 * fall due at a total rate spread evenly over the trackers. `logins`: that many new trackers
 * connect during the load and log in, and the time to each login ack is recorded. A login has
 * LOGIN_TIMEOUT_MS (30 s) of its own whatever is left of the phase, and the phase waits for its
 * logins after its load ends (the phase's rate is taken over the load alone): a login sent late in
 * a phase once counted as unacknowledged when the phase ended a few seconds later, which made a
 * slow server (Traccar on H2 at load 50, whose logins wait behind its database writes) read as one
 * that never answers.
 * Latencies go into log-scale histograms (2 % wide buckets) that the parent adds up.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { gt06Location, gt06Login } from '../../sim/senders/gt06-encoder';

export type FleetCommand =
  | { cmd: 'closed'; seconds: number; window: number; logins?: number }
  | { cmd: 'rate'; perSecond: number; seconds: number; window: number; logins?: number };

export interface FleetResult {
  acked: number;
  seconds: number;
  /** Ack latency (frame written → ack read), ms. */
  p50Ms: number;
  p99Ms: number;
  /** Frames due but not written when the phase ended. */
  backlog: number;
  /** New trackers logging in during the load: acked at all (within LOGIN_TIMEOUT_MS), acked within 1 s, and the slowest (LOGIN_TIMEOUT_MS when one got no ack). */
  logins: { tried: number; acked: number; within1s: number; p50Ms: number; p99Ms: number; maxMs: number };
}

/** How long a tracker waits for its login ack before it counts as refused. */
const LOGIN_TIMEOUT_MS = Number(process.env.LOGIN_TIMEOUT_MS ?? 30_000);

const BASE_MS = 0.05;
const GROWTH = Math.log(1.02);
const BUCKETS = 1000;
const bucketOf = (ms: number): number => Math.max(0, Math.min(BUCKETS - 1, Math.floor(Math.log(Math.max(ms, BASE_MS) / BASE_MS) / GROWTH)));
const bucketMs = (i: number): number => BASE_MS * Math.exp((i + 0.5) * GROWTH);

function quantileOf(hist: number[], q: number): number {
  const total = hist.reduce((a, b) => a + b, 0);
  if (!total) return NaN;
  let seen = 0;
  for (let i = 0; i < hist.length; i++) {
    seen += hist[i]!;
    if (seen >= q * total) return Math.round(bucketMs(i) * 10) / 10;
  }
  return NaN;
}

export const fleetImei = (i: number): string => String(358_200_000_000_000 + i).padStart(15, '0');

// ---------------------------------------------------------------- child side

let hist = new Array<number>(BUCKETS).fill(0);
let acked = 0;

class Tracker {
  private received: Buffer = Buffer.alloc(0);
  private serial = 1;
  private seq = 0;
  private readonly inflight = new Map<number, number>();
  private wake: (() => void) | undefined;

  constructor(
    readonly socket: Socket,
    readonly index: number,
    private readonly t0: number,
  ) {
    socket.on('data', (chunk: Buffer) => {
      this.received = this.received.length ? Buffer.concat([this.received, chunk]) : chunk;
      while (this.received.length >= 10) {
        const len = this.received[2]!;
        const size = len + 5;
        if (this.received.length < size) break;
        const serial = this.received.readUInt16BE(size - 6);
        this.received = this.received.subarray(size);
        const sentAt = this.inflight.get(serial);
        if (sentAt === undefined) continue;
        this.inflight.delete(serial);
        hist[bucketOf(performance.now() - sentAt)]!++;
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
    const fix = {
      deviceId: fleetImei(this.index),
      time,
      lat: -1.3 - (this.seq % 1000) / 10_000,
      lon: 36.8 + this.index / 10_000,
      speedKph: 60,
      courseDeg: 90,
      altitudeM: 1600,
      accuracyM: 5,
      batteryPct: 90,
    };
    this.inflight.set(serial, performance.now());
    this.socket.write(gt06Location(fix, serial));
  }

  next(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }
}

/** Connects and logs in; resolves with the tracker and its login ack time (undefined when none came within `timeoutMs`). */
async function open(
  host: string,
  port: number,
  index: number,
  t0: number,
  timeoutMs: number,
): Promise<{ tracker?: Tracker; loginMs?: number }> {
  const socket = connect({ host, port, noDelay: true });
  socket.on('error', () => undefined);
  const connected = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    socket.once('connect', () => (clearTimeout(timer), resolve(true))).once('error', () => (clearTimeout(timer), resolve(false)));
  });
  if (!connected) {
    socket.destroy();
    return {};
  }
  const sent = performance.now();
  const got = new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), Math.max(1, timeoutMs - (performance.now() - sent)));
    socket.once('data', () => (clearTimeout(timer), resolve(true)));
  });
  socket.write(gt06Login(fleetImei(index), 1));
  if (!(await got)) {
    socket.destroy();
    return {};
  }
  return { tracker: new Tracker(socket, index, t0), loginMs: performance.now() - sent };
}

async function runLoad(
  trackers: Tracker[],
  c: FleetCommand,
  spare: { host: string; port: number; next: () => number; t0: number },
): Promise<FleetResult> {
  acked = 0;
  hist = new Array<number>(BUCKETS).fill(0);
  const started = performance.now();
  const end = started + c.seconds * 1000;
  let backlog = 0;
  // new trackers logging in during the load, spread over its middle half
  const loginHist = new Array<number>(BUCKETS).fill(0);
  let loginsAcked = 0;
  let loginsWithin1s = 0;
  let loginMax = 0;
  const extra: Tracker[] = [];
  const logins = Array.from({ length: c.logins ?? 0 }, async (_, k) => {
    await new Promise((r) => setTimeout(r, c.seconds * 1000 * (0.25 + (0.5 * k) / Math.max(1, c.logins ?? 1))));
    const r = await open(spare.host, spare.port, spare.next(), spare.t0, LOGIN_TIMEOUT_MS);
    if (r.tracker) extra.push(r.tracker);
    if (r.loginMs !== undefined) {
      loginsAcked++;
      if (r.loginMs <= 1000) loginsWithin1s++;
      loginHist[bucketOf(r.loginMs)]!++;
      loginMax = Math.max(loginMax, r.loginMs);
    } else loginMax = Math.max(loginMax, LOGIN_TIMEOUT_MS);
  });
  await Promise.all(
    trackers.map(async (t, i) => {
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
        await t.next(Math.min(wait, Math.max(1, end - performance.now())));
      }
      if (c.cmd === 'rate') backlog += owed;
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const ackedInLoad = acked;
  await Promise.all(logins);
  for (const t of extra) t.socket.destroy();
  return {
    acked: ackedInLoad,
    seconds,
    p50Ms: quantileOf(hist, 0.5),
    p99Ms: quantileOf(hist, 0.99),
    backlog,
    logins: {
      tried: c.logins ?? 0,
      acked: loginsAcked,
      within1s: loginsWithin1s,
      p50Ms: quantileOf(loginHist, 0.5),
      p99Ms: quantileOf(loginHist, 0.99),
      maxMs: Math.round(loginMax),
    },
    // the parent merges histograms
    ...({ hist, loginHist } as object),
  };
}

async function child(): Promise<void> {
  const host = process.env.HOST ?? '127.0.0.1';
  const port = Number(process.env.PORT);
  const from = Number(process.env.FROM);
  const count = Number(process.env.COUNT);
  const t0 = Number(process.env.T0);
  const spareFrom = Number(process.env.SPARE_FROM);
  const spares = Number(process.env.SPARES);
  let spareIndex = 0;
  const say = (o: object): void => void process.stdout.write(JSON.stringify(o) + '\n');
  const trackers: Tracker[] = [];
  const loginMs: number[] = [];
  for (let k = 0; k < count; k += 50) {
    const opened = await Promise.all(Array.from({ length: Math.min(50, count - k) }, (_, j) => open(host, port, from + k + j, t0, 30_000)));
    for (const o of opened) {
      if (o.tracker) trackers.push(o.tracker);
      if (o.loginMs !== undefined) loginMs.push(o.loginMs);
    }
  }
  say({ event: 'ready', connected: trackers.length, loginMaxMs: Math.round(Math.max(0, ...loginMs)) });
  for await (const line of createInterface({ input: process.stdin })) {
    const c = JSON.parse(line) as FleetCommand | { cmd: 'exit' };
    if (c.cmd === 'exit') break;
    const deadline = performance.now() + 30_000;
    while (trackers.some((t) => t.outstanding > 0) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    say({ event: 'done', ...(await runLoad(trackers, c, { host, port, t0, next: () => spareFrom + (spareIndex++ % spares) })) });
  }
  for (const t of trackers) t.socket.destroy();
  process.exit(0);
}

if (process.env.LOAD_FLEET_ROLE === 'trackers') await child();

// ---------------------------------------------------------------- parent side

/** `count` trackers over `processes` child processes against host:port; tracker i is fleetImei(first + i). */
export class LoadFleet {
  private readonly children: { proc: ChildProcess; events: Record<string, unknown>[]; wake?: () => void }[] = [];

  /** Spare trackers (logging in during phases): `spares` per process from `spareFrom` on. */
  constructor(opts: {
    host?: string;
    port: number;
    first: number;
    count: number;
    processes: number;
    t0: number;
    spareFrom: number;
    spares: number;
  }) {
    const per = Math.ceil(opts.count / opts.processes);
    for (let p = 0; p < opts.processes; p++) {
      const from = opts.first + p * per;
      const count = Math.min(per, opts.count - p * per);
      if (count <= 0) break;
      const proc = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
        env: {
          ...process.env,
          LOAD_FLEET_ROLE: 'trackers',
          HOST: opts.host ?? '127.0.0.1',
          PORT: String(opts.port),
          FROM: String(from),
          COUNT: String(count),
          T0: String(opts.t0),
          SPARE_FROM: String(opts.spareFrom + p * opts.spares),
          SPARES: String(opts.spares),
        },
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      const c: (typeof this.children)[number] = { proc, events: [] };
      createInterface({ input: proc.stdout! }).on('line', (l) => {
        c.events.push(JSON.parse(l) as Record<string, unknown>);
        c.wake?.();
      });
      this.children.push(c);
    }
  }

  private async next(c: (typeof this.children)[number], event: string): Promise<Record<string, unknown>> {
    for (;;) {
      const i = c.events.findIndex((e) => e.event === event);
      if (i >= 0) return c.events.splice(i, 1)[0]!;
      await new Promise<void>((r) => (c.wake = r));
    }
  }

  /** Connected trackers, and the slowest login ack while connecting. */
  async ready(): Promise<{ connected: number; loginMaxMs: number }> {
    const all = await Promise.all(this.children.map((c) => this.next(c, 'ready')));
    return { connected: all.reduce((n, r) => n + Number(r.connected), 0), loginMaxMs: Math.max(...all.map((r) => Number(r.loginMaxMs))) };
  }

  /** Runs one phase on every child at once (a rate and a login count are split among them). */
  async run(c: FleetCommand): Promise<FleetResult> {
    const n = this.children.length;
    const share = (k: number, total: number): number => Math.floor(total / n) + (k < total % n ? 1 : 0);
    this.children.forEach((child, k) => {
      const part: FleetCommand =
        c.cmd === 'rate'
          ? { ...c, perSecond: c.perSecond / n, logins: share(k, c.logins ?? 0) }
          : { ...c, logins: share(k, c.logins ?? 0) };
      child.proc.stdin!.write(JSON.stringify(part) + '\n');
    });
    const results = (await Promise.all(this.children.map((child) => this.next(child, 'done')))) as unknown as (FleetResult & {
      hist: number[];
      loginHist: number[];
    })[];
    const hists = new Array<number>(BUCKETS).fill(0);
    const logins = new Array<number>(BUCKETS).fill(0);
    for (const r of results) r.hist.forEach((v, i) => (hists[i]! += v));
    for (const r of results) r.loginHist.forEach((v, i) => (logins[i]! += v));
    const seconds = Math.max(...results.map((r) => r.seconds));
    return {
      acked: results.reduce((a, r) => a + r.acked, 0),
      seconds,
      p50Ms: quantileOf(hists, 0.5),
      p99Ms: quantileOf(hists, 0.99),
      backlog: results.reduce((a, r) => a + r.backlog, 0),
      logins: {
        tried: results.reduce((a, r) => a + r.logins.tried, 0),
        acked: results.reduce((a, r) => a + r.logins.acked, 0),
        within1s: results.reduce((a, r) => a + r.logins.within1s, 0),
        p50Ms: quantileOf(logins, 0.5),
        p99Ms: quantileOf(logins, 0.99),
        maxMs: Math.max(...results.map((r) => r.logins.maxMs)),
      },
    };
  }

  /** The load processes' pids (their CPU is the generator's). */
  pids(): number[] {
    return this.children.map((c) => c.proc.pid!).filter((p) => p !== undefined);
  }

  async stop(): Promise<void> {
    await Promise.all(
      this.children.map(async (c) => {
        c.proc.stdin!.write(JSON.stringify({ cmd: 'exit' }) + '\n');
        await new Promise((r) => (c.proc.exitCode !== null ? r(undefined) : c.proc.once('exit', r)));
      }),
    );
  }
}
