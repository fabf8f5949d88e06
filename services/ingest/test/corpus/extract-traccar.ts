/**
 * Regenerates the corpora of real device messages in this folder from Traccar's public decoder
 * tests (github.com/traccar/traccar, src/test/java/org/traccar/protocol; Apache-2.0 test data).
 * Every message of a test file's `text(...)`, `buffer(...)` and `binary(...)` calls becomes one line,
 * as the device puts it on the wire: hex for binary protocols (JT/T 808 frames escaped again, as
 * Traccar's decoder tests hold them after its frame decoder undid the escaping), text for text
 * protocols (a Queclink message gets its closing `$` back where the test left it off).
 *
 *   pnpm tsx services/ingest/test/corpus/extract-traccar.ts <traccar git dir> [commit]
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { escapeJt808 } from '../../src/protocols/jt808/frame';

interface Source {
  /** Traccar test class (under src/test/java/org/traccar/protocol). */
  tests: string[];
  file: string;
  /** How a message becomes one corpus line. */
  line: (bytes: Buffer, call: string) => string | null;
}

const asText = (b: Buffer): string => b.toString('latin1');

/** A `(...WLNET,5,...)` frame as sent: `(`, `)`, `,` and `=` of its binary data after the sixth comma written `=` + 0x15, 0x14, 0x11, 0x00. */
function escapeWlnet(frame: Buffer): Buffer {
  if (frame[0] !== 0x28 || !frame.includes('WLNET,5,')) return frame;
  let at = -1;
  for (let commas = 0; commas < 6; commas++) at = frame.indexOf(0x2c, at + 1);
  const codes: Record<number, number> = { 0x28: 0x15, 0x29: 0x14, 0x2c: 0x11, 0x3d: 0x00 };
  const data = [...frame.subarray(at + 1, frame.length - 1)].flatMap((b) => (b in codes ? [0x3d, codes[b]!] : [b]));
  return Buffer.concat([frame.subarray(0, at + 1), Buffer.from(data), frame.subarray(frame.length - 1)]);
}
const SOURCES: Source[] = [
  { tests: ['Gl200TextProtocolDecoderTest'], file: 'queclink.txt', line: (b) => (asText(b).endsWith('$') ? asText(b) : `${asText(b)}$`) },
  { tests: ['Gl200BinaryProtocolDecoderTest'], file: 'queclink-binary.hex', line: (b) => b.toString('hex') },
  // Traccar's decoder tests hold JT/T 808 frames unescaped (after Jt808FrameDecoder): escape them as on the wire
  { tests: ['Jt808ProtocolDecoderTest'], file: 'jt808.hex', line: (b, call) => (call === 'binary' && b[0] === 0x7e && b[b.length - 1] === 0x7e ? escapeJt808(b.subarray(1, b.length - 1)).toString('hex') : b.toString('hex')) },
  // ... and Jointech's text frames unescaped (after Jt600FrameDecoder): escape the binary data of WLNET frames again
  { tests: ['Jt600ProtocolDecoderTest'], file: 'jt701.hex', line: (b) => escapeWlnet(b).toString('hex') },
  { tests: ['RuptelaProtocolDecoderTest'], file: 'ruptela.hex', line: (b) => b.toString('hex') },
  { tests: ['WialonProtocolDecoderTest'], file: 'wialon.txt', line: (b) => asText(b) },
];

/** Java string literal contents with its escapes undone. */
function javaString(literal: string): string {
  return literal.replace(/\\(u[0-9a-fA-F]{4}|[\\"'nrt0])/g, (_, e: string) => {
    if (e.startsWith('u')) return String.fromCharCode(parseInt(e.slice(1), 16));
    return ({ n: '\n', r: '\r', t: '\t', '0': '\0' } as Record<string, string>)[e] ?? e;
  });
}

/** Every `text|buffer|binary( [ByteOrder...,] "..." [+ "..."] )` call of a Java test file. */
function messages(java: string): { call: string; bytes: Buffer }[] {
  const out: { call: string; bytes: Buffer }[] = [];
  const call = /\b(text|buffer|binary)\(\s*(?:ByteOrder\.[A-Z_]+\s*,\s*)?((?:"(?:[^"\\]|\\.)*"\s*\+?\s*)+)\)/g;
  for (const m of java.matchAll(call)) {
    const value = [...m[2]!.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((s) => javaString(s[1]!)).join('');
    out.push({ call: m[1]!, bytes: m[1] === 'binary' ? Buffer.from(value, 'hex') : Buffer.from(value, 'utf8') });
  }
  return out;
}

const [gitDir, commit = 'HEAD'] = process.argv.slice(2);
if (!gitDir) throw new Error('usage: extract-traccar.ts <traccar git dir> [commit]');
const sha = execFileSync('git', ['--git-dir', gitDir, 'rev-parse', commit], { encoding: 'utf8' }).trim();
const readme = [
  '# Corpora of real device messages',
  '',
  `Extracted by \`extract-traccar.ts\` from Traccar's public decoder tests (traccar/traccar at ${sha},`,
  'src/test/java/org/traccar/protocol; public test data, used with the source named). One message per',
  'line as the device sends it (hex for binary protocols), distinct messages only. `corpus.test.ts`',
  'replays each file through `pnpm decode` and checks what decodes.',
  '',
  '| file | Traccar test | messages |',
  '|---|---|---|',
];
for (const s of SOURCES) {
  const lines = new Set<string>();
  for (const test of s.tests) {
    const java = execFileSync('git', ['--git-dir', gitDir, 'show', `${sha}:src/test/java/org/traccar/protocol/${test}.java`], { encoding: 'utf8' });
    for (const m of messages(java)) {
      const line = s.line(m.bytes, m.call);
      if (line && !line.includes('\n')) lines.add(line);
    }
  }
  writeFileSync(join(import.meta.dirname, s.file), `${[...lines].join('\n')}\n`);
  readme.push(`| ${s.file} | ${s.tests.join(', ')} | ${lines.size} |`);
  console.log(`${s.file}: ${lines.size}`);
}
writeFileSync(join(import.meta.dirname, 'README.md'), `${readme.join('\n')}\n`);
