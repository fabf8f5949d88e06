import { z } from 'zod';

/**
 * Limits of the processes that read uploaded documents (PDF text, IDF exports). Defaults fit
 * ops-api's Kubernetes limit of 768 MiB: one reader at a time, whose memory is checked every
 * 20 ms and which is killed at 256 MiB, next to a service that stays near 300 MiB.
 */
export const ParserEnv = z.object({
  /** Reader processes at most (each reads one document at a time). */
  DOCUMENT_PARSERS: z.coerce.number().int().min(1).max(16).default(1),
  /** Documents waiting for a reader at most; one more answers 503 with Retry-After. */
  DOCUMENT_PARSE_QUEUE: z.coerce.number().int().min(0).max(1000).default(16),
  /** Wall-clock time a document may take to read, seconds; past it the reader is killed (422). */
  DOCUMENT_PARSE_TIMEOUT_S: z.coerce.number().int().min(1).max(600).default(20),
  /** Memory (resident) a reader may use, MiB; past it the reader is killed (422). Its V8 heap is capped below it. */
  DOCUMENT_PARSE_MEMORY_MB: z.coerce.number().int().min(96).max(8192).default(256),
  /** Bytes a PDF's compressed streams may expand to in all, MiB, measured before pdf.js reads it (422 past it). */
  DOCUMENT_INFLATED_MB: z.coerce.number().int().min(1).max(4096).default(64),
});
export type ParserEnv = z.infer<typeof ParserEnv>;

export interface ParserSettings {
  processes: number;
  queue: number;
  timeoutMs: number;
  memoryBytes: number;
  inflatedBytes: number;
}

export const parserSettingsFrom = (env: ParserEnv): ParserSettings => ({
  processes: env.DOCUMENT_PARSERS,
  queue: env.DOCUMENT_PARSE_QUEUE,
  timeoutMs: env.DOCUMENT_PARSE_TIMEOUT_S * 1000,
  memoryBytes: env.DOCUMENT_PARSE_MEMORY_MB * 1024 * 1024,
  inflatedBytes: env.DOCUMENT_INFLATED_MB * 1024 * 1024,
});

export const defaultParserSettings = (): ParserSettings => parserSettingsFrom(ParserEnv.parse({}));
