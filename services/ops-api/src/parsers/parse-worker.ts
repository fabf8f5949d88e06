import { AppError } from '@corridor/platform/errors';
import { readIdfExport } from '../cargo/idf-structured';
import { pdfTextReader } from '../documents/pdf-text';
import { scanInflated } from './inflate-scan';
import type { TaskIO, TaskMessage, WorkerMessage } from './tasks';

/**
 * A document reader process (forked by parser-pool.ts, never imported): reads one task at a time
 * from its parent and answers it. Whatever a document does to this process (memory, time, a
 * crash) stays here; the parent kills and replaces it past its limits.
 */
const pdf = pdfTextReader();

const tasks: { [K in keyof TaskIO]: (input: TaskIO[K]['input'], limits: TaskMessage['limits']) => Promise<TaskIO[K]['output']> } = {
  async pdfText(bytes, limits) {
    const scan = scanInflated(bytes, limits.inflatedBytes);
    if (scan.overCap) {
      const mib = Math.round(limits.inflatedBytes / 1048576);
      throw new AppError('UNPROCESSABLE', `The PDF expands past ${mib} MiB when its compressed content is unpacked, the reader's limit`, {
        reason: 'inflated_limit',
        limitMiB: mib,
        check: 'Upload the PDF as exported from the issuing portal; a form is a few hundred kilobytes unpacked.',
      });
    }
    return pdf.read(bytes);
  },
  idfExport: ({ format, bytes }) => readIdfExport(format, bytes),
};

const send = (m: WorkerMessage): void => {
  process.send?.(m);
};

process.on('message', (raw) => {
  const m = raw as TaskMessage;
  const run = tasks[m.task] as (input: unknown, limits: TaskMessage['limits']) => Promise<unknown>;
  void run(m.input, m.limits).then(
    (result) => send({ id: m.id, ok: true, result }),
    (err: unknown) => {
      const e =
        err instanceof AppError
          ? err
          : new AppError('UNPROCESSABLE', 'The document could not be read', {
              reason: 'unreadable',
              cause: err instanceof Error ? err.message : String(err),
            });
      send({ id: m.id, ok: false, error: { code: e.code, message: e.message, details: e.details ?? null } });
    },
  );
});
process.on('disconnect', () => process.exit(0));

await pdf.ready();
send({ ready: true });
