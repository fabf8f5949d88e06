/**
 * What becomes of each message of a corpus (this folder) replayed as `pnpm decode` replays it, one
 * decoder session per message: `position` (at least one fix), `decoded` (a state record, command
 * result, heartbeat or login: something ingest answers or keeps), `refused` (decoded to nothing
 * stored, with the decoder's reason) or `error` (a decode error with its reason).
 *
 *   pnpm tsx services/ingest/test/corpus/coverage.ts   # the table for every corpus
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DecodeReplay, replayProtocols, type DecodedFrameOutput, type FrameError } from '../../src/cli/decode-replay';

export type Outcome = 'position' | 'decoded' | 'refused' | 'error';

/** The corpora and the protocol (as `pnpm decode --protocol` names it) each is replayed through. */
export const CORPORA = [
  { file: 'queclink.txt', protocol: 'queclink', format: 'text' },
  { file: 'queclink-binary.hex', protocol: 'queclink', format: 'hex' },
  { file: 'jt808.hex', protocol: 'jt808', format: 'hex' },
  { file: 'jt701.hex', protocol: 'jt701', format: 'hex' },
  { file: 'ruptela.hex', protocol: 'ruptela', format: 'hex' },
  { file: 'wialon.txt', protocol: 'wialon', format: 'text' },
] as const;

export interface LineOutcome {
  line: string;
  outcome: Outcome;
  /** The refusal or error reason; the message type otherwise. */
  detail: string;
}

function corpusLines(file: string): string[] {
  return readFileSync(join(import.meta.dirname, file), 'utf8').split('\n').filter((l) => l.trim());
}

function outcomeOf(frame: DecodedFrameOutput | FrameError): LineOutcome['outcome'] {
  if ('error' in frame) return 'error';
  if (frame.kind === 'ignored') return 'refused';
  // a state record sits at the last known location, marked outdated: it is not a fix
  return frame.positions.some((p) => !p.attributes.outdated) ? 'position' : 'decoded';
}

/** Replays every line of `file` through `protocol`, a fresh session per line. */
export function corpusCoverage(file: string, protocol: string, format: 'hex' | 'text'): LineOutcome[] {
  if (!replayProtocols.includes(protocol)) return corpusLines(file).map((line) => ({ line, outcome: 'error', detail: `no protocol ${protocol}` }));
  return corpusLines(file).map((line) => {
    const out = new DecodeReplay(protocol, format).next(line)!;
    const frames = 'frames' in out ? out.frames : [out];
    // a line with several frames counts by its best frame
    const rank: Outcome[] = ['position', 'decoded', 'refused', 'error'];
    const best = frames.map((f) => ({ f, o: outcomeOf(f) })).sort((a, b) => rank.indexOf(a.o) - rank.indexOf(b.o))[0]!;
    const detail = 'error' in best.f ? `${best.f.error.reason}: ${best.f.error.message}` : best.o === 'refused' ? (best.f.ignoredReason ?? '') : (best.f.type ?? '');
    return { line, outcome: best.o, detail };
  });
}

export function tally(outcomes: LineOutcome[]): Record<Outcome, number> & { total: number } {
  const t = { position: 0, decoded: 0, refused: 0, error: 0, total: outcomes.length };
  for (const o of outcomes) t[o.outcome]++;
  return t;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const verbose = process.argv.includes('--verbose');
  console.log('| corpus | messages | with a position | decoded, no fix | refused | errors | decoded in all |');
  console.log('|---|---|---|---|---|---|---|');
  for (const c of CORPORA) {
    const outcomes = corpusCoverage(c.file, c.protocol, c.format);
    const t = tally(outcomes);
    const pct = (n: number) => `${n} (${Math.round((100 * n) / t.total)} %)`;
    console.log(`| ${c.file} | ${t.total} | ${pct(t.position)} | ${t.decoded} | ${t.refused} | ${t.error} | ${pct(t.position + t.decoded)} |`);
    if (verbose) for (const o of outcomes) if (o.outcome === 'refused' || o.outcome === 'error') console.error(`${c.file}\t${o.outcome}\t${o.detail}\t${o.line.slice(0, 100)}`);
  }
}
