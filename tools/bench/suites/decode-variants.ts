import { gps103Protocol } from '@corridor/ingest/protocols/gps103';
import { gt06Protocol } from '@corridor/ingest/protocols/gt06';
import { h02Protocol } from '@corridor/ingest/protocols/h02';
import { meitrackProtocol } from '@corridor/ingest/protocols/meitrack';
import type { Protocol, ProtocolSession } from '@corridor/ingest/protocols/protocol';
import { teltonikaProtocol } from '@corridor/ingest/protocols/teltonika';
import { tk103Protocol } from '@corridor/ingest/protocols/tk103';
import { VARIANT_CAPTURES } from '../samples/variant-captures';
import { GT06_FRAMES, TELTONIKA_FRAMES } from './decode-gt06-teltonika';
import { SAMPLES } from './decode-text-protocols';
import { itemsPerSecond } from '../rate';

/**
 * Decode throughput on one core for the message variants of issue 15 (status and heartbeat, cells
 * and Wi-Fi, information, OBD, peripherals, replies, alarm forms; Teltonika codecs 7, 8E, 16, 12,
 * 13; Meitrack CCE; the H02, TK103 and GPS103 variants), each protocol's whole variant set from
 * tools/bench/samples/variant-captures.ts, next to the same protocol's common location mix (the
 * frames of decode-gt06-teltonika and decode-text-protocols) measured in the same run: the ratio
 * variants / common is what compares across machines and load, not the absolute figures.
 * `decode` alone in a fresh session per pass over the set, and the set's concatenation cut by
 * `splitFrames` then decoded; each figure the best of three alternating 400 ms runs.
 */
const PROTOCOLS: Record<keyof typeof VARIANT_CAPTURES, { protocol: Protocol; binary: boolean; common: Buffer[] }> = {
  gt06: { protocol: gt06Protocol, binary: true, common: GT06_FRAMES },
  teltonika: { protocol: teltonikaProtocol, binary: true, common: TELTONIKA_FRAMES },
  meitrack: { protocol: meitrackProtocol, binary: true, common: SAMPLES.meitrack!.frames },
  h02: { protocol: h02Protocol, binary: false, common: SAMPLES.h02!.frames },
  tk103: { protocol: tk103Protocol, binary: false, common: SAMPLES.tk103!.frames },
  gps103: { protocol: gps103Protocol, binary: false, common: SAMPLES.gps103!.frames },
};

const RUN_MS = 400;
const MAX_FRAME = 16_384;
/** A device known to the session, as after a login (GT06 and Teltonika frames carry no IMEI). */
const session = (): ProtocolSession => ({ deviceId: '123456789012345' });

/** Frames/s of `round` (which handles `perRound` frames), over RUN_MS after a warm-up. */
const measure = (perRound: number, round: () => void): number =>
  Math.round(itemsPerSecond(perRound, round, { runMs: RUN_MS, warmup: 200, batch: 20 }));

export default async function run(): Promise<Record<string, number | string>> {
  const figures: Record<string, number | string> = {};
  const sizes: string[] = [];
  let sink = 0;
  for (const [name, { protocol, binary, common }] of Object.entries(PROTOCOLS)) {
    const frames = VARIANT_CAPTURES[name as keyof typeof VARIANT_CAPTURES].map(([, f]) => Buffer.from(f, binary ? 'hex' : 'latin1'));
    const capture = Buffer.concat(frames);
    // every frame decodes (no DecodeError) and the stream cuts back into the same frames, or the figures would mean nothing
    for (const f of frames) protocol.decode(f, session());
    const cut = protocol.splitFrames(capture, MAX_FRAME).frames.length;
    if (cut !== frames.length) throw new Error(`${name}: the variant capture splits into ${cut} frames, not ${frames.length}`);
    const types = new Set(frames.map((f) => protocol.decode(f, session()).type));
    sizes.push(`${name} ${frames.length} (${types.size} types)`);

    // best of three, alternating, so that a burst of load on the shared machine hits both sides alike
    let [variants, split, base] = [0, 0, 0];
    for (let rep = 0; rep < 3; rep++) {
      variants = Math.max(
        variants,
        measure(frames.length, () => {
          const s = session();
          for (const f of frames) sink += protocol.decode(f, s).positions.length;
        }),
      );
      split = Math.max(
        split,
        measure(frames.length, () => {
          const s = session();
          for (const f of protocol.splitFrames(capture, MAX_FRAME).frames) sink += protocol.decode(f, s).positions.length;
        }),
      );
      base = Math.max(
        base,
        measure(common.length, () => {
          const s = session();
          for (const f of common) sink += protocol.decode(f, s).positions.length;
        }),
      );
    }
    figures[`${name}_variants_decode_frames_per_s`] = variants;
    figures[`${name}_variants_split_decode_frames_per_s`] = split;
    figures[`${name}_common_decode_frames_per_s`] = base;
    figures[`${name}_variants_to_common_ratio`] = Number((variants / base).toFixed(3));
  }
  if (sink < 0) throw new Error('unreachable');
  return { frames_per_variant_set: sizes.join(', '), ...figures };
}
