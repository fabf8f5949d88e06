import { connect, type Socket } from 'node:net';
import { once } from 'node:events';
import { eventually } from '@corridor/platform/testing/eventually';
import { gt06Location, gt06Login, gt06Packet, splitGt06Replies } from '@corridor/tools/sim/senders/gt06-encoder';

/** GT06's server command packet (0x80) and the tracker's text answer to it (0x15), from the Concox GT06 document. */
const COMMAND = 0x80;
const ANSWER = 0x15;

/** A command the server wrote to the tracker: its text and the server flag the answer echoes. */
export interface ReceivedCommand {
  text: string;
  flag: Buffer;
}

/**
 * A GT06 tracker a browser test drives itself over TCP, as the device would: it logs in, reports
 * fixes, receives the server's commands and answers them, and goes away (its connection closes).
 * Frames from tools/sim's GT06 encoder; every wait is for what the server wrote back, through
 * platform's eventually() and never vitest's global expect.poll, which belongs to one running test
 * (a test running beside another one lost it: "expect.poll() must be called inside a test").
 */
export class Gt06Tracker {
  private serial = 0;
  private pending = Buffer.alloc(0);
  /** Every frame the server wrote, in order. */
  readonly frames: Buffer[] = [];
  readonly commands: ReceivedCommand[] = [];

  private constructor(
    private readonly socket: Socket,
    readonly imei: string,
  ) {
    socket.on('data', (chunk: Buffer) => {
      const { frames, rest } = splitGt06Replies(Buffer.concat([this.pending, chunk]));
      this.pending = Buffer.from(rest);
      for (const f of frames) {
        this.frames.push(Buffer.from(f));
        // 78 78 len 0x80 | command length (4 + text) | server flag (4) | text | ...
        if (f[3] === COMMAND)
          this.commands.push({ flag: Buffer.from(f.subarray(5, 9)), text: f.subarray(9, 9 + f[4]! - 4).toString('ascii') });
      }
    });
  }

  /** Connects and logs in; resolves once the server acknowledged the login. */
  static async connect(port: number, imei: string): Promise<Gt06Tracker> {
    const socket = connect({ host: '127.0.0.1', port });
    await once(socket, 'connect');
    const t = new Gt06Tracker(socket, imei);
    await t.send(gt06Login(imei, t.next()), 0x01);
    return t;
  }

  /** A fix at this place now; resolves once the server acknowledged it. */
  async report(lat: number, lon: number, speedKph = 0): Promise<void> {
    const fix = { deviceId: this.imei, time: new Date(), lat, lon, speedKph, courseDeg: 45, altitudeM: 560, accuracyM: 5, batteryPct: 90 };
    await this.send(gt06Location(fix, this.next()), 0x22);
  }

  /** Waits for the server's next command (not answered yet: `answer` does). */
  async nextCommand(): Promise<ReceivedCommand> {
    await eventually('a command written to the tracker', () => this.commands.length > 0, { ceilingMs: 60_000, everyMs: 100 });
    return this.commands.shift()!;
  }

  /** Answers a command the server wrote with `reply` (the device's text answer); resolves once the server acknowledged it. */
  async answer(cmd: ReceivedCommand, reply: string): Promise<void> {
    const text = Buffer.from(reply, 'ascii');
    // answer content: length (4 + text), the command's server flag, the text, language 0x0002 (English)
    const content = Buffer.concat([Buffer.from([4 + text.length]), cmd.flag, text, Buffer.from([0x00, 0x02])]);
    await this.send(gt06Packet(ANSWER, content, this.next()), ANSWER);
  }

  /** The tracker goes away: its connection ends. */
  async close(): Promise<void> {
    if (this.socket.destroyed) return;
    this.socket.end();
    await once(this.socket, 'close');
  }

  private next(): number {
    this.serial = (this.serial + 1) & 0xffff;
    return this.serial;
  }

  /** Writes a frame and waits for the server's acknowledgement of it (same protocol number and serial). */
  private async send(frame: Buffer, type: number): Promise<void> {
    const serial = frame.readUInt16BE(frame.length - 6);
    const acked = () => this.frames.some((f) => f[3] === type && f.length >= 10 && f.readUInt16BE(f.length - 6) === serial);
    this.socket.write(frame);
    await eventually(`the server's acknowledgement of 0x${type.toString(16)} #${serial}`, acked, { ceilingMs: 30_000, everyMs: 50 });
  }
}
