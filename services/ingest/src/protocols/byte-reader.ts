import { DecodeError } from './protocol';

/**
 * Bounds-checked cursor over a binary frame, shared by the binary decoders (GT06, Teltonika,
 * Meitrack CCE). Every read past the end throws DecodeError('truncated') naming the protocol, so a
 * short or damaged frame never becomes a RangeError or a wrong value.
 */
export class ByteReader {
  private at: number;

  constructor(
    private readonly buf: Buffer,
    private readonly protocol: string,
    start = 0,
    private readonly end = buf.length,
  ) {
    this.at = start;
  }

  get offset(): number {
    return this.at;
  }

  get remaining(): number {
    return this.end - this.at;
  }

  private need(n: number): number {
    if (n < 0 || n > this.end - this.at) {
      throw new DecodeError('truncated', `${this.protocol}: needed ${n} bytes at offset ${this.at}, ${this.end - this.at} left`);
    }
    const start = this.at;
    this.at += n;
    return start;
  }

  /** The byte `ahead` positions from the cursor without moving it (undefined past the end). */
  peek(ahead = 0): number | undefined {
    return this.at + ahead < this.end ? this.buf[this.at + ahead] : undefined;
  }

  u8(): number {
    return this.buf.readUInt8(this.need(1));
  }
  i8(): number {
    return this.buf.readInt8(this.need(1));
  }
  u16(): number {
    return this.buf.readUInt16BE(this.need(2));
  }
  i16(): number {
    return this.buf.readInt16BE(this.need(2));
  }
  u24(): number {
    return this.buf.readUIntBE(this.need(3), 3);
  }
  u32(): number {
    return this.buf.readUInt32BE(this.need(4));
  }
  i32(): number {
    return this.buf.readInt32BE(this.need(4));
  }
  /** Unsigned 64-bit value; past 2^53 precision is lost (the callers read ids and millisecond times). */
  u64(): number {
    return Number(this.buf.readBigUInt64BE(this.need(8)));
  }
  u16le(): number {
    return this.buf.readUInt16LE(this.need(2));
  }
  i16le(): number {
    return this.buf.readInt16LE(this.need(2));
  }
  u32le(): number {
    return this.buf.readUInt32LE(this.need(4));
  }
  i32le(): number {
    return this.buf.readInt32LE(this.need(4));
  }
  f32(): number {
    return this.buf.readFloatBE(this.need(4));
  }

  bytes(n: number): Buffer {
    const start = this.need(n);
    return this.buf.subarray(start, start + n);
  }

  skip(n: number): void {
    this.need(n);
  }

  /** Moves back `n` bytes (never before the start of the buffer). */
  rewind(n: number): void {
    this.at = Math.max(0, this.at - n);
  }
}
