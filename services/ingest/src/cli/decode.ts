/**
 * `pnpm decode --protocol <name> [--hex|--text]`: replays frames from stdin, one per line, through
 * one decoder session and prints one JSON line per input line (see DecodeReplay). Lines may be hex,
 * text, or raw_frames rows exported from ClickHouse as JSONEachRow. At the end it writes a summary to
 * stderr: frames per message type (positions, state records, command results, alarms, ignored) and
 * decode errors per reason. Exit code 1 when a line failed.
 */
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { DecodeReplay, replayPorts, replayProtocols, textProtocols } from './decode-replay';

export interface DecodeIo {
  input: NodeJS.ReadableStream;
  write: (line: string) => void;
  error: (line: string) => void;
}

const USAGE = `usage: pnpm decode --protocol <${replayProtocols.join('|')}> [--hex|--text] < frames.txt`;

/** The usage and every protocol with the port ingest serves it on (its default; the variable moves it). */
const HELP = [
  USAGE,
  '',
  'protocols (default port/transport, the ingest variable that sets it; lines default to text or hex):',
  ...replayPorts.map(
    (p) =>
      `  ${p.protocol.padEnd(14)} ${`${p.port}/${p.transport}`.padEnd(10)} ${p.variable.padEnd(15)} ${textProtocols.has(p.protocol) ? 'text' : 'hex'}`,
  ),
].join('\n');

/** The CLI without the process: returns the exit code. */
export async function main(argv: string[], io: DecodeIo): Promise<number> {
  let values: { protocol?: string; hex?: boolean; text?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        protocol: { type: 'string', short: 'p' },
        hex: { type: 'boolean' },
        text: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    io.error(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    io.write(HELP);
    return 0;
  }
  if (!values.protocol || !replayProtocols.includes(values.protocol) || (values.hex && values.text)) {
    io.error(USAGE);
    return 2;
  }
  const format = values.hex ? 'hex' : values.text ? 'text' : textProtocols.has(values.protocol) ? 'text' : 'hex';
  const replay = new DecodeReplay(values.protocol, format);
  let failed = false;
  for await (const line of createInterface({ input: io.input, crlfDelay: Infinity })) {
    const out = replay.next(line);
    if (!out) continue;
    if ('error' in out || ('frames' in out && out.frames.some((f) => 'error' in f))) failed = true;
    io.write(JSON.stringify(out));
  }
  io.error(JSON.stringify({ summary: replay.summary() }));
  return failed ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const code = await main(process.argv.slice(2), {
    input: process.stdin,
    write: (l) => process.stdout.write(l + '\n'),
    error: (l) => process.stderr.write(l + '\n'),
  });
  process.exitCode = code;
}
