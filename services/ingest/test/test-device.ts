import { connect, type Socket } from 'node:net';
import { encodeGt06Packet } from '../src/protocols/gt06/index';
import { eventually } from '@corridor/platform/testing/eventually';

/**
 * A raw TCP client standing in for a tracker in integration tests: writes exactly the bytes it is
 * given (in as many writes as asked) and records every byte the server sends back.
 */
export class TestDevice {
  received: Buffer = Buffer.alloc(0);
  closed = false;
  /** Called after each chunk from the server was appended to `received`. */
  onData: (() => void) | undefined;
  private readonly socket: Socket;
  private readonly ready: Promise<void>;
  private readonly closedPromise: Promise<void>;
  private readonly dataWaiters = new Set<() => void>();

  constructor(port: number, host = '127.0.0.1') {
    this.socket = connect({ port, host, noDelay: true });
    this.ready = new Promise((resolve, reject) => {
      this.socket.once('connect', () => resolve());
      this.socket.once('error', reject);
    });
    this.socket.on('error', () => undefined);
    this.socket.on('data', (chunk: Buffer) => {
      this.received = Buffer.concat([this.received, chunk]);
      this.onData?.();
      for (const w of this.dataWaiters) w();
    });
    this.closedPromise = new Promise((resolve) =>
      this.socket.on('close', () => {
        this.closed = true;
        resolve();
      }),
    );
  }

  static async open(port: number): Promise<TestDevice> {
    const d = new TestDevice(port);
    await d.ready;
    return d;
  }

  /**
   * Writes one chunk and waits until it left the socket; `separate`: then lets an in-process server
   * read it (an I/O turn, no duration) so that the next write arrives in a read of its own.
   */
  async write(bytes: Buffer, separate = false): Promise<void> {
    await new Promise<void>((resolve, reject) => this.socket.write(bytes, (err) => (err ? reject(err) : resolve())));
    if (separate) await ioTurn();
  }

  /** Resolves once the server closed the connection (or rejects after `timeoutMs`). */
  waitClosed(timeoutMs = DEFAULT_CEILING_MS): Promise<void> {
    return withTimeout(this.closedPromise, timeoutMs, 'connection still open');
  }

  /** Waits until at least `bytes` bytes were received. */
  async waitReceived(bytes: number, timeoutMs = DEFAULT_CEILING_MS): Promise<Buffer> {
    if (this.received.length >= bytes) return this.received;
    let waiter: () => void = () => undefined;
    const enough = new Promise<void>((resolve) => {
      waiter = () => {
        if (this.received.length >= bytes) resolve();
      };
      this.dataWaiters.add(waiter);
    });
    try {
      await withTimeout(enough, timeoutMs, `received ${this.received.length} of ${bytes} bytes`);
    } finally {
      this.dataWaiters.delete(waiter);
    }
    return this.received;
  }

  close(): void {
    this.socket.destroy();
  }
}

/**
 * The default ceiling of every wait here: a ceiling, never an assertion on a duration. 5 s was
 * short for real Kafka on a busy 2-core CI machine; this stays under vitest's 30 s test timeout so
 * a wait that never ends still fails with what it waited for.
 */
export const DEFAULT_CEILING_MS = 20_000;

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * Lets the event loop run its I/O phase twice (a socket with data waiting is read there): no timer,
 * no duration. With the device and the server in one process over loopback, bytes a device wrote are
 * in the server's socket before the write returns, so after this a server that reads has read them.
 */
export async function ioTurn(): Promise<void> {
  for (let i = 0; i < 2; i++) await new Promise((r) => setImmediate(r));
}

/** Waits for `check` to hold: the shared eventually() (its failure names `what` and the last answer or error), in this file's argument order. */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = DEFAULT_CEILING_MS, what = 'condition'): Promise<void> {
  await eventually(what, check, { ceilingMs: timeoutMs, everyMs: 10 });
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out: ${what}`)), ms))),
  ]).finally(() => clearTimeout(timer));
}

/** GT06 frames for tests, built with ingest's own packet encoder (the decoder is tested on real captures elsewhere). */
export const gt06 = {
  login(imei: string, serial: number): Buffer {
    return encodeGt06Packet(false, 0x01, serial, Buffer.from(`0${imei}`, 'hex'));
  },
  /** 0x12 GPS + LBS location at `time` (whole seconds), northern/eastern hemisphere unless negative. */
  location(time: Date, lat: number, lon: number, serial: number, speedKph = 60, course = 90): Buffer {
    const body = Buffer.alloc(26);
    body.writeUInt8(time.getUTCFullYear() % 100, 0);
    body.writeUInt8(time.getUTCMonth() + 1, 1);
    body.writeUInt8(time.getUTCDate(), 2);
    body.writeUInt8(time.getUTCHours(), 3);
    body.writeUInt8(time.getUTCMinutes(), 4);
    body.writeUInt8(time.getUTCSeconds(), 5);
    body.writeUInt8(0xc9, 6);
    body.writeUInt32BE(Math.round(Math.abs(lat) * 1_800_000), 7);
    body.writeUInt32BE(Math.round(Math.abs(lon) * 1_800_000), 11);
    body.writeUInt8(speedKph, 15);
    body.writeUInt16BE(0x1000 | (lat >= 0 ? 0x0400 : 0) | (lon < 0 ? 0x0800 : 0) | course, 16);
    body.writeUInt16BE(639, 18); // MCC Kenya
    body.writeUInt8(2, 20);
    body.writeUInt16BE(0x1f40, 21);
    body.writeUIntBE(0xa1b2, 23, 3);
    return encodeGt06Packet(false, 0x12, serial, body);
  },
  /** 0x13 status (heartbeat): terminal info (ACC on, GPS fixed, charging), voltage level 4, GSM signal 3, no alarm. */
  heartbeat(serial: number): Buffer {
    return encodeGt06Packet(false, 0x13, serial, Buffer.from([0x46, 0x04, 0x03, 0x00, 0x01]));
  },
  ack(type: number, serial: number): Buffer {
    return encodeGt06Packet(false, type, serial);
  },
};

/** A devices.v1 registry entry for a test device. */
export { registryEntry } from '../src/testing/gt06-ingest';
