import { createLogger, systemClock } from '@corridor/platform';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionRegistry } from '../commands/connection-registry';
import type { FrameSink, FrameVerdict, ReceivedFrame } from '../frames/received-frame';
import { gt06Protocol } from '../protocols/gt06/index';
import { metricValue } from '../../test/metrics';
import { gt06, ioTurn, sleep, TestDevice, waitFor } from '../../test/test-device';
import { IntakeGate } from '../positions/intake-gate';
import { ConnectionBudget } from './connection-budget';
import { DeviceTcpServer, type TcpServerLimits } from './tcp-server';
import { TurnScheduler } from './turn-scheduler';

/** Connection mechanics with a stand-in for the durable path: ordering, limits, idle, budget. */
const logger = createLogger('test', 'silent');
const IMEI = '359710049099999';
const limits: TcpServerLimits = {
  idleTimeoutMs: 60_000,
  maxConnections: 100,
  maxFrameBytes: 1024,
  maxBufferedBytes: 4096,
  maxServerBufferedBytes: 1 << 20,
};

/** A sink whose verdicts the test releases batch by batch (or at once when `auto`). */
class ControlledSink implements FrameSink {
  readonly frames: ReceivedFrame[] = [];
  /** Frames per batch handed over, in order. */
  readonly batches: number[] = [];
  private readonly pending: (() => void)[] = [];
  constructor(private readonly auto = false) {}
  handleBatch(frames: readonly ReceivedFrame[]): Promise<FrameVerdict[]> {
    this.frames.push(...frames);
    this.batches.push(frames.length);
    const verdicts = frames.map((frame): FrameVerdict =>
      frame.result ? { action: 'ack', ...(frame.result.ack ? { ack: frame.result.ack } : {}) } : { action: 'skip', reason: 'error' },
    );
    if (this.auto) return Promise.resolve(verdicts);
    return new Promise((resolve) => this.pending.push(() => resolve(verdicts)));
  }
  release(n = 1): void {
    for (let i = 0; i < n; i++) this.pending.shift()?.();
  }
  get waiting(): number {
    return this.pending.length;
  }
}

let server: DeviceTcpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const roomy = (): IntakeGate => new IntakeGate({ maxPending: 10_000, minPending: 1000, targetDelayMs: 500 });

async function start(
  sink: FrameSink,
  overrides: Partial<TcpServerLimits> = {},
  gate = roomy(),
  fdBudget = new ConnectionBudget({ limit: undefined, logger }),
  turns?: TurnScheduler,
): Promise<number> {
  server = new DeviceTcpServer({
    protocol: gt06Protocol,
    handler: sink,
    gate,
    ...(turns ? { turns } : {}),
    fdBudget,
    connections: new ConnectionRegistry(),
    limits: { ...limits, ...overrides },
    clock: systemClock,
    logger,
  });
  return server.listen(0, '127.0.0.1');
}

const t = new Date(Date.UTC(2025, 4, 1, 12, 0, 0));

describe('DeviceTcpServer', () => {
  it('hands the frames queued meanwhile over as one batch and writes its acks only after the batch resolved, after every earlier ack', async () => {
    const sink = new ControlledSink();
    const port = await start(sink);
    const device = await TestDevice.open(port);
    await device.write(gt06.login(IMEI, 1));
    await waitFor(() => sink.waiting === 1, 2000, 'login handed over');
    // two frames arrive while the login is being handled: they wait, then go as one batch
    await device.write(Buffer.concat([gt06.location(t, 1, 36, 2), gt06.location(t, 1, 36, 3)]));
    await waitFor(() => server!.connections[0]?.backlog === 3, 5000, 'both locations queued');
    expect(sink.batches).toEqual([1]);
    expect(device.received.length).toBe(0);
    sink.release();
    await device.waitReceived(10);
    expect(device.received.toString('hex')).toBe(gt06.ack(0x01, 1).toString('hex'));
    await waitFor(() => sink.waiting === 1, 5000, 'the second batch handed over');
    expect(sink.batches).toEqual([1, 2]);
    // neither location acknowledged before its batch resolved: the server wrote the login's ack alone
    // (read on its side of the socket, so no wait for bytes to travel)
    expect(server!.connections[0]!.bytesWritten).toBe(10);
    sink.release();
    await device.waitReceived(30);
    expect(device.received.toString('hex')).toBe(Buffer.concat([gt06.ack(0x01, 1), gt06.ack(0x12, 2), gt06.ack(0x12, 3)]).toString('hex'));
    expect(sink.frames.map((f) => f.uniqueId)).toEqual([IMEI, IMEI, IMEI]);
    device.close();
  });

  it('with maxBatchFrames 1 hands frames over one at a time', async () => {
    const sink = new ControlledSink();
    const port = await start(sink, { maxBatchFrames: 1 });
    const device = await TestDevice.open(port);
    await device.write(Buffer.concat([gt06.login(IMEI, 1), gt06.location(t, 1, 36, 2), gt06.location(t, 1, 36, 3)]));
    await waitFor(() => server!.connections[0]?.backlog === 3 && sink.waiting === 1, 5000, 'all three read, the first handed over');
    for (let i = 0; i < 3; i++) {
      await waitFor(() => sink.waiting === 1, 5000, 'the next frame handed over');
      sink.release();
    }
    await device.waitReceived(30);
    expect(sink.batches).toEqual([1, 1, 1]);
    device.close();
  });

  it('serves a new tracker’s login between slices of other connections’ positions, not after all of them (no login waits behind positions)', async () => {
    // the durable path answers at once, as an ingest thread's posted publishes do: before slices,
    // every connection's whole queue was worked through in the turn that read it, a login read in
    // that turn was handed over after every position, and its ack went out with all of theirs
    const sink = new ControlledSink(true);
    const turns = new TurnScheduler(16);
    const port = await start(sink, {}, roomy(), undefined, turns);
    const STREAMERS = 20;
    const FIXES = 40;
    const streamers = await Promise.all(Array.from({ length: STREAMERS }, () => TestDevice.open(port)));
    for (const [i, d] of streamers.entries()) await d.write(gt06.login(`3597100490${String(i).padStart(5, '0')}`, 1));
    await Promise.all(streamers.map((d) => d.waitReceived(10)));
    const latecomer = await TestDevice.open(port);
    await waitFor(() => server!.connectionCount === STREAMERS + 1, 5000, 'the latecomer accepted');
    const streamerAcks = (): number => streamers.reduce((n, d) => n + (d.received.length - 10) / 10, 0);
    let streamerAcksAtLogin: number | undefined;
    latecomer.onData = () => (streamerAcksAtLogin ??= streamerAcks());
    const handedBefore = sink.frames.length;
    // every streamer's backlog, then the login, all in the server's socket before its next read
    const writes = streamers.map((d) =>
      d.write(Buffer.concat(Array.from({ length: FIXES }, (_, k) => gt06.location(new Date(t.getTime() + k * 1000), 1, 36, 2 + k)))),
    );
    writes.push(latecomer.write(gt06.login(IMEI, 1)));
    await Promise.all(writes);
    await latecomer.waitReceived(10);
    expect(latecomer.received.toString('hex')).toBe(gt06.ack(0x01, 1).toString('hex'));
    const handed = sink.frames.slice(handedBefore);
    const positionsBeforeLogin = handed.findIndex((f) => f.uniqueId === IMEI);
    expect(positionsBeforeLogin).toBeGreaterThanOrEqual(0);
    expect(positionsBeforeLogin).toBeLessThan((STREAMERS * FIXES) / 4);
    expect(streamerAcksAtLogin).toBeLessThan((STREAMERS * FIXES) / 4);
    // and no position lost or out of order: every streamer's acks, in order, one per fix
    const expected = Buffer.concat([gt06.ack(0x01, 1), ...Array.from({ length: FIXES }, (_, k) => gt06.ack(0x12, 2 + k))]).toString('hex');
    await Promise.all(streamers.map((d) => d.waitReceived(10 + FIXES * 10)));
    for (const d of streamers) expect(d.received.toString('hex')).toBe(expected);
    expect(turns.slices).toBeGreaterThan((STREAMERS * FIXES) / 16);
    for (const d of [...streamers, latecomer]) d.close();
  });

  it('refuses connections beyond MAX_CONNECTIONS and counts them', async () => {
    const port = await start(new ControlledSink(true), { maxConnections: 2 });
    const before = await metricValue('ingest_connections_refused_total', { protocol: 'gt06', reason: 'max_connections' });
    const a = await TestDevice.open(port);
    const b = await TestDevice.open(port);
    await waitFor(() => server!.connectionCount === 2);
    const c = await TestDevice.open(port);
    await c.waitClosed();
    expect(await metricValue('ingest_connections_refused_total', { protocol: 'gt06', reason: 'max_connections' })).toBe(before + 1);
    expect(a.closed || b.closed).toBe(false);
    a.close();
    b.close();
  });

  it('closes at accept a connection past the open-file budget, counts it, and takes the next once one closed', async () => {
    const fdBudget = new ConnectionBudget({ limit: 10, reserve: 8, logger }); // room for 2 device connections
    const port = await start(new ControlledSink(true), {}, roomy(), fdBudget);
    const before = await metricValue('ingest_connections_refused_total', { protocol: 'gt06', reason: 'fd_budget' });
    const a = await TestDevice.open(port);
    const b = await TestDevice.open(port);
    await waitFor(() => server!.connectionCount === 2 && fdBudget.open === 2);
    const c = await TestDevice.open(port);
    await c.waitClosed();
    expect(await metricValue('ingest_connections_refused_total', { protocol: 'gt06', reason: 'fd_budget' })).toBe(before + 1);
    expect(await metricValue('ingest_connection_budget', {})).toBe(2);
    expect(a.closed || b.closed).toBe(false);
    a.close();
    await waitFor(() => fdBudget.open === 1, 5000, 'the closed connection’s file given back');
    const d = await TestDevice.open(port);
    await d.write(gt06.login(IMEI, 1));
    await d.waitReceived(10); // accepted and served
    expect(fdBudget.open).toBe(2);
    b.close();
    d.close();
  });

  it('closes a connection whose frame exceeds MAX_FRAME_BYTES', async () => {
    const sink = new ControlledSink(true);
    const port = await start(sink, { maxFrameBytes: 64 });
    const device = await TestDevice.open(port);
    const long = Buffer.concat([Buffer.from([0x79, 0x79, 0x01, 0x00]), Buffer.alloc(300)]);
    await device.write(long);
    await device.waitClosed();
    expect(sink.frames[0]?.error?.reason).toBe('frame_too_large');
  });

  it('stops reading while the server budget is full and resumes as it drains', async () => {
    const sink = new ControlledSink();
    const frame = (i: number): Buffer => gt06.location(new Date(t.getTime() + i * 1000), 1, 36, 10 + i);
    const frameBytes = frame(0).length;
    const port = await start(sink, { maxBufferedBytes: 10 * frameBytes, maxServerBufferedBytes: 2 * frameBytes });
    const device = await TestDevice.open(port);
    await device.write(Buffer.concat([frame(0), frame(1)]));
    await waitFor(() => server!.connections[0]?.isPaused === true, 10_000, 'reading paused with the budget full');
    const [connection] = server!.connections;
    // what the device sends now stays in the socket: nothing more is read while the budget is full
    for (let i = 2; i < 6; i++) await device.write(frame(i));
    // the bytes are in the server's socket: an I/O turn would have read them were reading not paused
    await ioTurn();
    expect(connection!.backlog).toBe(2);
    while (sink.frames.length < 6) {
      const handed = sink.frames.length;
      sink.release();
      await waitFor(() => sink.frames.length > handed || sink.frames.length === 6, 10_000, 'the next frame read and handed over');
    }
    sink.release(6);
    await waitFor(() => connection!.backlog === 0 && !connection!.isPaused, 10_000, 'drained and reading');
    device.close();
  });

  it('admits frames through the service-wide intake gate: past its limit positions stay held and connections pause, a login goes through, then they resume as room frees up', async () => {
    const sink = new ControlledSink();
    const gate = new IntakeGate({ maxPending: 2, minPending: 2, targetDelayMs: 500 });
    const port = await start(sink, {}, gate);
    const a = await TestDevice.open(port);
    await a.write(Buffer.concat([gt06.login(IMEI, 1), gt06.location(t, 1, 36, 2), gt06.location(t, 1, 36, 3), gt06.location(t, 1, 36, 4)]));
    await waitFor(() => server!.connections[0]?.isPaused === true, 10_000, 'first connection paused');
    expect(gate.pendingFixes).toBe(2); // login and one location admitted, two locations held
    expect(server!.connections[0]!.backlog).toBe(4);
    // a login carries no fix: it is admitted past the full gate (logins first), its connection keeps reading
    const b = await TestDevice.open(port);
    await b.write(gt06.login('359710049099998', 1));
    await waitFor(() => gate.pendingFixes === 3, 10_000, 'the second login admitted');
    expect(server!.connections[1]?.isPaused).toBe(false);
    const maxPending: number[] = [];
    while (a.received.length < 40 || b.received.length < 10) {
      const waiting = sink.frames.length;
      sink.release();
      maxPending.push(gate.pendingFixes);
      await waitFor(
        () => sink.frames.length > waiting || (a.received.length >= 40 && b.received.length >= 10) || sink.waiting > 0,
        10_000,
        'progress',
      );
    }
    expect(Math.max(...maxPending)).toBeLessThanOrEqual(3);
    expect(a.received.toString('hex')).toBe(
      Buffer.concat([gt06.ack(0x01, 1), gt06.ack(0x12, 2), gt06.ack(0x12, 3), gt06.ack(0x12, 4)]).toString('hex'),
    );
    expect(b.received.toString('hex')).toBe(gt06.ack(0x01, 1).toString('hex'));
    await waitFor(
      () => gate.pendingFixes === 0 && server!.connections.every((c) => !c.isPaused && c.backlog === 0),
      10_000,
      'both drained and reading',
    );
    a.close();
    b.close();
  });

  it('does not close a connection as idle while its frames wait for the bus', async () => {
    const sink = new ControlledSink();
    const port = await start(sink, { idleTimeoutMs: 100 });
    const device = await TestDevice.open(port);
    await device.write(gt06.login(IMEI, 1));
    // about time itself: the idle timeout (100 ms) passes, three times over, while the login waits for its verdict
    await sleep(300);
    expect(device.closed).toBe(false);
    sink.release();
    await device.waitReceived(10);
    await device.waitClosed(2000); // idle once nothing waits
  });
});
