import { describe, expect, it } from 'vitest';
import { CORPORA, corpusCoverage, tally } from './coverage';

/**
 * Every corpus of real device messages (Traccar's public decoder tests, README.md here) replayed as
 * `pnpm decode` replays it, one session per message. The figures are what the decoders make of the
 * corpora now: a message that stops decoding, or starts being refused, fails here. Before issue 25
 * (the same corpora through the decoders of main at e635f9a): queclink 34 of 189 decoded (25 with a
 * position, 153 refused: 136 "model not supported", 17 "message type not supported"), jt808 80 of 111, jt701 28 of 41, ruptela
 * 14 of 16, wialon none (no decoder).
 */
const EXPECTED: Record<string, { position: number; decoded: number; refused: number; error: number }> = {
  'queclink.txt': { position: 146, decoded: 43, refused: 0, error: 0 },
  // the binary @Track format is not read (services/ingest/README.md, Queclink)
  'queclink-binary.hex': { position: 0, decoded: 0, refused: 0, error: 8 },
  'jt808.hex': { position: 87, decoded: 24, refused: 0, error: 0 },
  'jt701.hex': { position: 35, decoded: 5, refused: 1, error: 0 },
  'ruptela.hex': { position: 9, decoded: 5, refused: 1, error: 1 },
  'wialon.txt': { position: 18, decoded: 8, refused: 0, error: 0 },
};

describe('corpora of real device messages', () => {
  for (const c of CORPORA) {
    it(`${c.file} through ${c.protocol}: what decodes, and no model refused for being a model`, () => {
      const outcomes = corpusCoverage(c.file, c.protocol, c.format);
      const { total, ...counts } = tally(outcomes);
      expect(total).toBeGreaterThan(0);
      const unexpected = outcomes.filter((o) => o.outcome === 'refused' || o.outcome === 'error').map((o) => `${o.outcome} ${o.detail}: ${o.line.slice(0, 60)}`);
      expect(counts, unexpected.join('\n')).toEqual(EXPECTED[c.file]);
      expect(outcomes.filter((o) => /model/i.test(o.detail)).map((o) => o.line)).toEqual([]);
    });
  }
});
