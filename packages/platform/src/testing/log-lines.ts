import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';

/** One JSON log line as pino writes it (level 30 is info). */
export interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** A logger at `level` whose lines are kept in `lines`, parsed, for tests that check what a service logged. */
export function recordingLogger(level = 'info'): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as LogLine);
      done();
    },
  });
  return { logger: pino({ level }, sink), lines };
}
