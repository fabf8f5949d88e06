import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { jt701Protocol } from '@corridor/ingest/protocols/jt701';
import { jt808Protocol } from '@corridor/ingest/protocols/jt808';
import type { Protocol, ProtocolSession } from '@corridor/ingest/protocols/protocol';
import { queclinkProtocol } from '@corridor/ingest/protocols/queclink';
import { ruptelaProtocol } from '@corridor/ingest/protocols/ruptela';
import { wialonProtocol } from '@corridor/ingest/protocols/wialon';
import { itemsPerSecond } from '../rate';

/**
 * Decode throughput per protocol over the corpora of real device messages in
 * services/ingest/test/corpus (every message of Traccar's public decoder tests for Queclink @Track,
 * JT/T 808, Jointech, Ruptela and Wialon IPS: many models and message types, one mix per protocol):
 * messages per second and nanoseconds per message on one core, `decode` alone (a fresh session per
 * pass over the corpus) and the corpus as one stream cut by `splitFrames` then decoded. Messages
 * that do not decode (a corpus line whose length field is wrong, the binary @Track format) are left
 * out and counted. Absolute figures move with the machine's load: compare ratios within one run.
 */
const corpus = fileURLToPath(new URL('../../../services/ingest/test/corpus/', import.meta.url));
const CORPORA: { name: string; file: string; format: 'hex' | 'text'; protocol: Protocol }[] = [
  { name: 'queclink', file: 'queclink.txt', format: 'text', protocol: queclinkProtocol },
  { name: 'jt808', file: 'jt808.hex', format: 'hex', protocol: jt808Protocol },
  { name: 'jt701', file: 'jt701.hex', format: 'hex', protocol: jt701Protocol },
  { name: 'ruptela', file: 'ruptela.hex', format: 'hex', protocol: ruptelaProtocol },
  { name: 'wialon', file: 'wialon.txt', format: 'text', protocol: wialonProtocol },
];
const RUN_MS = 600;
const MAX_FRAME = 64 * 1024;

/** The frames of a corpus that decode: each line as it is sent (text lines end as the protocol ends them). */
function framesOf(c: (typeof CORPORA)[number]): { frames: Buffer[]; skipped: number } {
  const frames: Buffer[] = [];
  let skipped = 0;
  for (const line of readFileSync(`${corpus}${c.file}`, 'utf8')
    .split('\n')
    .filter((l) => l.trim())) {
    let bytes = c.format === 'hex' ? Buffer.from(line, 'hex') : Buffer.from(line, 'utf8');
    if (c.name === 'wialon') bytes = Buffer.concat([bytes, Buffer.from('\r\n')]);
    try {
      const split = c.protocol.splitFrames(bytes, MAX_FRAME);
      if (!split.frames.length || split.rest.length) throw new Error('not one whole frame');
      for (const f of split.frames) c.protocol.decode(f, {});
      frames.push(...split.frames.map((f) => Buffer.from(f)));
    } catch {
      skipped++;
    }
  }
  return { frames, skipped };
}

/** Messages/s of `round` (which handles `perRound` messages), over RUN_MS after a warm-up. */
const measure = (perRound: number, round: () => void): number => itemsPerSecond(perRound, round, { runMs: RUN_MS, warmup: 200, batch: 10 });

export default async function run(): Promise<Record<string, number | string>> {
  const figures: Record<string, number | string> = {};
  let sink = 0;
  for (const c of CORPORA) {
    const { frames, skipped } = framesOf(c);
    const stream = Buffer.concat(frames);
    const decodeOnly = measure(frames.length, () => {
      const session: ProtocolSession = {};
      for (const f of frames) sink += c.protocol.decode(f, session).positions.length;
    });
    const splitDecode = measure(frames.length, () => {
      const session: ProtocolSession = {};
      for (const f of c.protocol.splitFrames(stream, MAX_FRAME).frames) sink += c.protocol.decode(f, session).positions.length;
    });
    figures[`${c.name}_corpus_messages`] = frames.length;
    figures[`${c.name}_corpus_skipped`] = skipped;
    figures[`${c.name}_decode_messages_per_s`] = Math.round(decodeOnly);
    figures[`${c.name}_decode_ns_per_message`] = Math.round(1e9 / decodeOnly);
    figures[`${c.name}_split_decode_messages_per_s`] = Math.round(splitDecode);
    figures[`${c.name}_split_decode_ns_per_message`] = Math.round(1e9 / splitDecode);
  }
  if (sink < 0) throw new Error('unreachable');
  return figures;
}
