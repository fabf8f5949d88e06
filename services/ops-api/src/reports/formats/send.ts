import type { FastifyReply } from 'fastify';
import type { ReportFormat } from '@corridor/contracts';
import { XLSX_MEDIA_TYPE } from '@corridor/contracts';
import { csvStream } from './csv';
import { jsonArrayStream } from './json';
import type { Presentation } from './presentation';
import type { ReportTable } from './table';
import { xlsxStream } from './xlsx';

/**
 * Reads the first batch before answering, so a failure to start (the analytics store down) is a
 * proper error response rather than a cut-off body; the rest streams. Stopping early (the client
 * went away: fastify destroys the body stream) ends the source too.
 */
async function primed<T>(batches: AsyncIterable<T[]>): Promise<AsyncIterable<T[]>> {
  const it = batches[Symbol.asyncIterator]();
  const first = await it.next();
  return {
    async *[Symbol.asyncIterator]() {
      try {
        if (first.done) return;
        yield first.value;
        for (let n = await it.next(); !n.done; n = await it.next()) yield n.value;
      } finally {
        await it.return?.();
      }
    },
  };
}

export interface ReportOutput<T> {
  format: ReportFormat;
  table: ReportTable<T>;
  batches: AsyncIterable<T[]>;
  /** Attachment file name without extension, e.g. 'trips-2026-01-01-2026-01-31'. */
  filename: string;
  /** How a file shows its values to the one who asked (JSON keeps the API's units). */
  presentation: Presentation;
}

export async function sendReport<T>(reply: FastifyReply, r: ReportOutput<T>): Promise<FastifyReply> {
  const batches = await primed(r.batches);
  reply.header('vary', 'accept');
  if (r.format === 'json') return reply.type('application/json; charset=utf-8').send(jsonArrayStream(batches, r.table.json));
  reply.header('content-disposition', `attachment; filename="${r.filename}.${r.format}"`);
  if (r.format === 'csv') return reply.type('text/csv; charset=utf-8').send(csvStream(r.table, batches, r.presentation));
  return reply.type(XLSX_MEDIA_TYPE).send(xlsxStream(r.table, batches, r.presentation));
}
