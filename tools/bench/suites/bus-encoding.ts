/**
 * positions.v1 on the bus: JSON (what every publish writes today) against a compact binary
 * encoding, MessagePack with records (msgpackr: the keys of a message shape are written once per
 * batch as a structure, then each message as its values), per message: bytes, encode µs (publish)
 * and decode µs (consume), and the consumers' validation (zod, PositionMessage) after decoding,
 * which both pay. Messages are positions as ingest publishes them (GT06 fixes with their computed
 * attributes), in batches of BATCH as a connection's batch and a consumer's fetch carry them;
 * ROUNDS alternated rounds, medians.
 */
import { PositionMessage } from '@corridor/contracts';
import { Packr } from 'msgpackr';
import { load1m } from '../parts';
import { round } from '../stats';

const BATCH = 500;
const BATCHES = 40;
const ROUNDS = 5;

function positions(n: number): PositionMessage[] {
  const t0 = Date.UTC(2026, 0, 5, 6, 0, 0);
  return Array.from({ length: n }, (_, i) =>
    PositionMessage.parse({
      id: 2_000_000_000_000 + i * 1_048_576 + (i % 400) + 1,
      deviceId: (i % 400) + 1,
      uniqueId: String(358_100_000_000_000 + (i % 400)),
      protocol: 'gt06',
      fixTime: new Date(t0 + i * 1000).toISOString(),
      serverTime: new Date(t0 + i * 1000 + 850).toISOString(),
      valid: true,
      latitude: -1.3 - (i % 1000) / 10_000,
      longitude: 36.8 + (i % 400) / 10_000,
      speed: 32.4,
      course: 90,
      altitude: 1600,
      satellites: 9,
      ignition: true,
      crcValid: true,
      rawFrameId: `f${(t0 + i).toString(36)}a1b2`,
      attributes: {
        sat: 9,
        ignition: true,
        motion: true,
        distance: 16.7,
        totalDistance: 1_234_567.8,
        hours: 3_600_000,
        mcc: 639,
        mnc: 2,
        lac: 8000,
        cid: 41394,
      },
    }),
  );
}

function timeIt(fn: () => void): number {
  const t = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t) / 1e3;
}

const median = (v: number[]): number => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;

export default async function run(): Promise<Record<string, number | string>> {
  const msgs = positions(BATCH * BATCHES);
  const batches = Array.from({ length: BATCHES }, (_, b) => msgs.slice(b * BATCH, (b + 1) * BATCH));
  const n = msgs.length;
  const out: Record<string, number | string> = { load_start: load1m() };
  const figures: Record<string, { enc: number[]; dec: number[]; validate: number[]; bytes: number }> = {
    json: { enc: [], dec: [], validate: [], bytes: 0 },
    msgpack_records: { enc: [], dec: [], validate: [], bytes: 0 },
  };
  for (let r = 0; r < ROUNDS + 1; r++) {
    // JSON: one text per message, as publish writes it and a consumer parses it
    let texts: string[][] = [];
    const jEnc = timeIt(() => (texts = batches.map((b) => b.map((m) => JSON.stringify(m)))));
    let parsed: unknown[][] = [];
    const jDec = timeIt(() => (parsed = texts.map((b) => b.map((t) => JSON.parse(t) as unknown))));
    const jVal = timeIt(() => parsed.forEach((b) => b.forEach((m) => PositionMessage.parse(m))));
    // MessagePack with records: a packer per batch (its structures travel with the batch)
    let packed: Buffer[][] = [];
    const mEnc = timeIt(
      () =>
        (packed = batches.map((b) => {
          const packr = new Packr({ useRecords: true, structuredClone: false });
          return b.map((m) => packr.pack(m));
        })),
    );
    let unpacked: unknown[][] = [];
    const mDec = timeIt(
      () =>
        (unpacked = packed.map((b) => {
          const packr = new Packr({ useRecords: true, structuredClone: false });
          return b.map((buf) => packr.unpack(buf) as unknown);
        })),
    );
    const mVal = timeIt(() => unpacked.forEach((b) => b.forEach((m) => PositionMessage.parse(m))));
    if (r === 0) continue; // warm-up round
    figures.json!.enc.push(jEnc / n);
    figures.json!.dec.push(jDec / n);
    figures.json!.validate.push(jVal / n);
    figures.json!.bytes = texts.flat().reduce((a, t) => a + Buffer.byteLength(t), 0) / n;
    figures.msgpack_records!.enc.push(mEnc / n);
    figures.msgpack_records!.dec.push(mDec / n);
    figures.msgpack_records!.validate.push(mVal / n);
    figures.msgpack_records!.bytes = packed.flat().reduce((a, b) => a + b.length, 0) / n;
    const roundTrip = JSON.stringify(unpacked[0]![0]) === texts[0]![0];
    if (!roundTrip) throw new Error('MessagePack did not give back the same message');
  }
  for (const [name, f] of Object.entries(figures)) {
    out[`${name}.bytes_per_message`] = Math.round(f.bytes);
    out[`${name}.encode_us_per_message`] = round(median(f.enc));
    out[`${name}.decode_us_per_message`] = round(median(f.dec));
    out[`${name}.validate_us_per_message`] = round(median(f.validate));
  }
  out['msgpack_over_json.bytes'] = round(figures.msgpack_records!.bytes / figures.json!.bytes);
  out['msgpack_over_json.encode_plus_decode'] = round(
    (median(figures.msgpack_records!.enc) + median(figures.msgpack_records!.dec)) / (median(figures.json!.enc) + median(figures.json!.dec)),
  );
  out.load_end = load1m();
  out.setup = `${n} positions.v1 messages (GT06 fixes with computed attributes), batches of ${BATCH}; ${ROUNDS} rounds after a warm-up, medians; a fresh msgpackr Packr per batch (records: keys once per batch)`;
  return out;
}
