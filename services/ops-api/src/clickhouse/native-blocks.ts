/**
 * A reader of ClickHouse's Native output format for answers whose columns all have a fixed width
 * (the format as the server writes it over HTTP and chDB writes it, protocol revision 0: no block
 * info, no serialization kinds). A block is
 *
 *   VarUInt columns, VarUInt rows, then per column: String name, String type, rows values
 *
 * with String = VarUInt length + bytes, and fixed-width values little-endian, one after another
 * (https://clickhouse.com/docs/interfaces/formats/Native, "Data format" of the native protocol).
 * Columnar: a column of a block is one copy into an aligned typed array, with no per-value
 * decoding, which is why the report track uses it (report-track.ts: the RowBinary rows it read
 * before cost the engine more to write and Node more to read).
 */

const WIDTHS = { UInt8: 1, Int8: 1, UInt16: 2, UInt32: 4, Float32: 4, Float64: 8 } as const;
export type NativeType = keyof typeof WIDTHS;

type ArrayOf<T extends NativeType> = T extends 'UInt8'
  ? Uint8Array
  : T extends 'Int8'
    ? Int8Array
    : T extends 'UInt16'
      ? Uint16Array
      : T extends 'UInt32'
        ? Uint32Array
        : T extends 'Float32'
          ? Float32Array
          : Float64Array;

const arrayOf = (type: NativeType, buffer: ArrayBuffer, length: number): ArrayOf<NativeType> => {
  switch (type) {
    case 'UInt8':
      return new Uint8Array(buffer, 0, length);
    case 'Int8':
      return new Int8Array(buffer, 0, length);
    case 'UInt16':
      return new Uint16Array(buffer, 0, length);
    case 'UInt32':
      return new Uint32Array(buffer, 0, length);
    case 'Float32':
      return new Float32Array(buffer, 0, length);
    case 'Float64':
      return new Float64Array(buffer, 0, length);
  }
};

/** The columns an answer must have, in order: name → type. */
export type NativeColumns = Record<string, NativeType>;

export interface NativeBlock<C extends NativeColumns> {
  rows: number;
  /** Views valid until the next block is asked for (the reader reuses their memory). */
  columns: { [K in keyof C]: ArrayOf<C[K]> };
}

/** Reads a VarUInt (LEB128) at `at`: [value, next offset], or undefined when the bytes end first. */
function readVarUInt(buf: Buffer, at: number): [number, number] | undefined {
  let value = 0;
  let scale = 1;
  for (let i = at; i < buf.length; i++) {
    const b = buf[i]!;
    value += (b & 0x7f) * scale;
    if (b < 0x80) return [value, i + 1];
    scale *= 0x80;
    if (scale > 2 ** 49) throw new Error('Analytics store: a Native VarUInt past 2^53');
  }
  return undefined;
}

/**
 * Bytes pushed in any split (one buffer per answer from chDB, many small ones over HTTP); blocks
 * taken out whole. Pieces are joined only once a whole block has arrived: its length follows from
 * its row count, since every column's name, type and width are known beforehand.
 */
export class NativeBlockReader<C extends NativeColumns> {
  private readonly names: string[];
  private readonly types: NativeType[];
  /** The header bytes of a block after its two counts: each column's name and type as Strings. */
  private readonly columnHeaders: Buffer;
  private readonly rowBytes: number;
  private parts: Buffer[] = [];
  private length = 0;
  private need = 0;
  private readonly memory: ArrayBuffer[];

  constructor(private readonly spec: C) {
    this.names = Object.keys(spec);
    this.types = this.names.map((n) => spec[n]!);
    const str = (s: string): Buffer => {
      const bytes = Buffer.from(s, 'utf8');
      const len: number[] = [];
      for (let n = bytes.length; ; n = Math.floor(n / 0x80)) {
        if (n < 0x80) {
          len.push(n);
          break;
        }
        len.push((n & 0x7f) | 0x80);
      }
      return Buffer.concat([Buffer.from(len), bytes]);
    };
    this.columnHeaders = Buffer.concat(this.names.map((n) => Buffer.concat([str(n), str(spec[n]!)])));
    this.rowBytes = this.types.reduce((s, t) => s + WIDTHS[t], 0);
    this.memory = this.types.map(() => new ArrayBuffer(0));
  }

  push(bytes: Buffer): void {
    if (!bytes.length) return;
    this.parts.push(bytes);
    this.length += bytes.length;
  }

  /** The next whole block, or undefined until more bytes are pushed. */
  next(): NativeBlock<C> | undefined {
    if (!this.length || this.length < this.need) return undefined;
    let buf = this.parts[0]!;
    if (buf.length < 20 && this.parts.length > 1) buf = this.join();
    const cols = readVarUInt(buf, 0);
    const rows = cols && readVarUInt(buf, cols[1]);
    if (!cols || !rows) {
      this.need = this.length + 1;
      return undefined;
    }
    if (cols[0] !== this.names.length)
      throw new Error(`Analytics store: a Native block of ${cols[0]} columns, expected ${this.names.length}`);
    const count = rows[0];
    const end = rows[1] + this.columnHeaders.length + count * this.rowBytes;
    if (this.length < end) {
      this.need = end;
      return undefined;
    }
    this.need = 0;
    if (buf.length < end) buf = this.join();
    const columns: Record<string, ArrayOf<NativeType>> = {};
    let at = rows[1];
    let h = 0;
    for (let c = 0; c < this.names.length; c++) {
      const name = readVarUInt(buf, at)!;
      const nameEnd = name[1] + name[0];
      const type = readVarUInt(buf, nameEnd)!;
      const typeEnd = type[1] + type[0];
      const header = buf.subarray(at, typeEnd);
      if (!header.equals(this.columnHeaders.subarray(h, h + header.length))) {
        throw new Error(
          `Analytics store: Native column ${c} is ${buf.toString('utf8', name[1], nameEnd)} ${buf.toString('utf8', type[1], typeEnd)}, expected ${this.names[c]} ${this.types[c]}`,
        );
      }
      h += header.length;
      const width = WIDTHS[this.types[c]!];
      const bytes = count * width;
      if (this.memory[c]!.byteLength < bytes) this.memory[c] = new ArrayBuffer(Math.max(bytes, this.memory[c]!.byteLength * 2));
      // an aligned copy: the column's offset in the answer is any byte
      new Uint8Array(this.memory[c]!, 0, bytes).set(buf.subarray(typeEnd, typeEnd + bytes));
      columns[this.names[c]!] = arrayOf(this.types[c]!, this.memory[c]!, count);
      at = typeEnd + bytes;
    }
    const rest = buf.subarray(end);
    this.parts = rest.length ? [rest, ...this.parts.slice(1)] : this.parts.slice(1);
    this.length -= end;
    return { rows: count, columns: columns as NativeBlock<C>['columns'] };
  }

  /** Throws when the answer ended within a block. */
  end(): void {
    if (this.length) throw new Error(`Analytics store: an incomplete Native block (${this.length} bytes)`);
  }

  private join(): Buffer {
    const joined = Buffer.concat(this.parts, this.length);
    this.parts = [joined];
    return joined;
  }
}
