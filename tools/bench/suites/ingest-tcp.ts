/**
 * Ingest's TCP device ports under load, on the parts the environment names (real Kafka, PostgreSQL,
 * Redis when set; chDB unless CLICKHOUSE_URL; else the embedded ones):
 * - positions/s end to end from 1,000 concurrent GT06 devices (each sends a location, waits for
 *   its ack, sends the next, as a tracker with a backlog does) into ClickHouse, counted after
 *   dedupe; and the rate the devices saw acknowledged, with ack latency percentiles;
 * - memory per idle connection: 10,000 logged-in GT06 connections held open (fewer when the
 *   file-descriptor limit, `ulimit -n`, is lower: the count is recorded), measured as the growth of
 *   the ingest process's RSS and V8 heap after a forced GC.
 * The devices run in a child process (this file, started with INGEST_TCP_BENCH_ROLE=devices), so
 * their sockets and CPU do not count against ingest's, and each process has its own fd limit.
 * Frames come from the simulator's GT06 encoder (tools/sim/senders/gt06-encoder.ts).
 */
import { spawn, execSync, type ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { gt06Location, gt06Login } from '../../sim/senders/gt06-encoder';
import { quantile } from '../stats';

const LOAD_DEVICES = 1000;
const FRAMES_PER_DEVICE = 20;
const IDLE_TARGET = 10_000;
const ROLE = process.env.INGEST_TCP_BENCH_ROLE;
const imei = (base: number, i: number): string => String(base + i).padStart(15, '0');
const LOAD_BASE = 358_000_000_000_000;
const IDLE_BASE = 357_000_000_000_000;

// ---------------------------------------------------------------- device side (child process)

interface DeviceSocket {
  socket: Socket;
  received: Buffer;
  waiter: (() => void) | undefined;
}

function openDevice(port: number, id: string): Promise<DeviceSocket> {
  return new Promise((resolve, reject) => {
    const d: DeviceSocket = { socket: connect({ host: '127.0.0.1', port, noDelay: true }), received: Buffer.alloc(0), waiter: undefined };
    d.socket.once('error', reject);
    d.socket.on('data', (chunk: Buffer) => {
      d.received = Buffer.concat([d.received, chunk]);
      d.waiter?.();
    });
    d.socket.once('connect', () => {
      d.socket.off('error', reject);
      d.socket.on('error', () => undefined);
      request(d, gt06Login(id, 1)).then(() => resolve(d), reject);
    });
  });
}

/** Writes a frame and waits for one 10-byte GT06 ack. */
function request(d: DeviceSocket, frame: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no ack within 60 s')), 60_000);
    d.waiter = () => {
      if (d.received.length < 10) return;
      d.received = d.received.subarray(10);
      d.waiter = undefined;
      clearTimeout(timer);
      resolve();
    };
    d.socket.write(frame);
  });
}

async function openMany(port: number, count: number, base: number): Promise<{ devices: DeviceSocket[]; failed: number }> {
  const devices: DeviceSocket[] = [];
  let failed = 0;
  for (let from = 0; from < count; from += 250) {
    const batch = await Promise.allSettled(
      Array.from({ length: Math.min(250, count - from) }, (_, k) => openDevice(port, imei(base, from + k))),
    );
    for (const r of batch)
      if (r.status === 'fulfilled') devices.push(r.value);
      else failed++;
  }
  return { devices, failed };
}

async function deviceProcess(): Promise<void> {
  const port = Number(process.env.PORT);
  const count = Number(process.env.COUNT);
  const mode = process.env.MODE;
  const say = (o: object): void => void process.stdout.write(JSON.stringify(o) + '\n');
  const { devices, failed } = await openMany(port, count, mode === 'idle' ? IDLE_BASE : LOAD_BASE);
  say({ event: 'ready', connected: devices.length, failed });
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) {
    if (line === 'go' && mode === 'load') {
      const t0 = Date.UTC(2026, 2, 1, 6, 0, 0);
      const latencies: number[] = [];
      const started = performance.now();
      await Promise.all(
        devices.map(async (d, i) => {
          for (let k = 0; k < FRAMES_PER_DEVICE; k++) {
            const fix = {
              deviceId: '',
              time: new Date(t0 + k * 10_000),
              lat: -1.3 - i / 10_000,
              lon: 36.8 + k / 10_000,
              speedKph: 60,
              courseDeg: 90,
              altitudeM: 1600,
              accuracyM: 5,
              batteryPct: 100,
            };
            const sent = performance.now();
            await request(d, gt06Location(fix, k + 2));
            latencies.push(performance.now() - sent);
          }
        }),
      );
      const ms = performance.now() - started;
      latencies.sort((a, b) => a - b);
      const pct = (p: number): number => Math.round((latencies.length ? quantile(latencies, p) : 0) * 10) / 10;
      say({ event: 'done', acked: latencies.length, ms, p50: pct(0.5), p99: pct(0.99) });
    }
    if (line === 'exit') break;
  }
  for (const d of devices) d.socket.destroy();
  process.exit(0);
}

if (ROLE === 'devices') await deviceProcess();

// ---------------------------------------------------------------- ingest side (this process)

class Devices {
  private readonly child: ChildProcess;
  private readonly events: Record<string, unknown>[] = [];
  private wake: (() => void) | undefined;

  constructor(mode: 'idle' | 'load', port: number, count: number) {
    this.child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
      env: { ...process.env, INGEST_TCP_BENCH_ROLE: 'devices', MODE: mode, PORT: String(port), COUNT: String(count) },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    createInterface({ input: this.child.stdout! }).on('line', (l) => {
      this.events.push(JSON.parse(l) as Record<string, unknown>);
      this.wake?.();
    });
  }

  async next(event: string): Promise<Record<string, unknown>> {
    for (;;) {
      const i = this.events.findIndex((e) => e.event === event);
      if (i >= 0) return this.events.splice(i, 1)[0]!;
      await new Promise<void>((r) => (this.wake = r));
    }
  }

  send(line: string): void {
    this.child.stdin!.write(line + '\n');
  }

  async stop(): Promise<void> {
    this.send('exit');
    await new Promise((r) => this.child.once('exit', r));
  }
}

function fdLimit(): number {
  try {
    return Number(execSync('ulimit -n', { shell: '/bin/bash' }).toString().trim()) || 1024;
  } catch {
    return 1024;
  }
}

function forceGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

export default async function run(): Promise<Record<string, number | string>> {
  const { build } = await import('@corridor/ingest');
  const { countPositions } = await import('@corridor/platform');
  const { benchAdapters, load1m, partsOf, primaryBenchKind } = await import('../parts');
  const adapters = await benchAdapters(await primaryBenchKind());
  const svc = await build({ ...adapters, logger: adapters.logger, identitySecret: 'ingest-tcp-bench-secret-0123456789' });
  await svc.start();
  const port = await svc.ports.tcp.gt06.listen(0, '127.0.0.1');
  const gc = forceGc();
  const out: Record<string, number | string> = { parts: partsOf(adapters), load_start: load1m() };
  try {
    // idle connections: the fd limit is per process; keep a margin for ingest's own files
    const idleCount = Math.min(IDLE_TARGET, fdLimit() - 1000);
    for (let i = 0; i < idleCount; i++)
      svc.registry.apply({
        id: 100_000 + i,
        uniqueId: imei(IDLE_BASE, i),
        name: `idle ${i}`,
        disabled: false,
        companyId: null,
        groupId: null,
        status: 'online',
        deleted: false,
      });
    await svc.ports.archive.flush();
    const settle = async (): Promise<NodeJS.MemoryUsage> => {
      for (let i = 0; i < 3; i++) {
        gc();
        await new Promise((r) => setTimeout(r, 500));
      }
      return process.memoryUsage();
    };
    const before = await settle();
    const idle = new Devices('idle', port, idleCount);
    const ready = await idle.next('ready');
    await new Promise((r) => setTimeout(r, 2000)); // archive flushed, buffers settled
    await svc.ports.archive.flush();
    const after = await settle();
    const held = svc.ports.tcp.gt06.connectionCount;
    out.idle_connections = held;
    out.idle_connections_fd_limit = fdLimit();
    out.idle_connect_failures = Number(ready.failed);
    out.idle_rss_bytes_per_connection = Math.round((after.rss - before.rss) / held);
    out.idle_heap_bytes_per_connection = Math.round((after.heapUsed - before.heapUsed) / held);
    out.idle_external_bytes_per_connection = Math.round((after.external - before.external) / held);
    await idle.stop();
    while (svc.ports.tcp.gt06.connectionCount > 0) await new Promise((r) => setTimeout(r, 100));

    // load: 1,000 devices, FRAMES_PER_DEVICE locations each, one outstanding frame per device
    const ids: number[] = [];
    for (let i = 0; i < LOAD_DEVICES; i++) {
      ids.push(1 + i);
      svc.registry.apply({
        id: 1 + i,
        uniqueId: imei(LOAD_BASE, i),
        name: `load ${i}`,
        disabled: false,
        companyId: null,
        groupId: null,
        status: 'online',
        deleted: false,
      });
    }
    const load = new Devices('load', port, LOAD_DEVICES);
    const loadReady = await load.next('ready');
    const total = Number(loadReady.connected) * FRAMES_PER_DEVICE;
    const count = countPositions(adapters.analytics);
    const started = performance.now();
    load.send('go');
    const done = await load.next('done');
    while ((await count(ids)) < total) await new Promise((r) => setTimeout(r, 100));
    const stored = performance.now();
    out.load_devices = Number(loadReady.connected);
    out.load_positions = total;
    out.tcp_acked_positions_per_s = Math.round(Number(done.acked) / (Number(done.ms) / 1000));
    out.tcp_to_clickhouse_positions_per_s = Math.round(total / ((stored - started) / 1000));
    out.ack_latency_p50_ms = Number(done.p50);
    out.ack_latency_p99_ms = Number(done.p99);
    out.load_end = load1m();
    out.note =
      `devices in a child process; idle count bounded by ulimit -n (${fdLimit()}) minus 1000; ` +
      'RSS per connection is noisy (startup garbage returned to the OS can outweigh it): heap and external are the stable figures';
    await load.stop();
  } finally {
    await svc.close();
    await adapters.close();
  }
  return out;
}
