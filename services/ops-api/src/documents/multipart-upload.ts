import type { FastifyRequest } from 'fastify';
import { AppError } from '@corridor/platform';

export interface UploadedFile {
  filename: string;
  mimetype: string;
  bytes: Buffer;
}

/**
 * Reads a multipart/form-data request: one file part (at most maxBytes: 413 beyond, through
 * @fastify/multipart) and its text fields. 415 when the request is not multipart; 400 when its
 * body is not well-formed multipart (no boundary, a part cut short, ...).
 */
export async function readMultipart(
  req: FastifyRequest,
  maxBytes: number,
): Promise<{ file?: UploadedFile; fields: Record<string, string> }> {
  if (!req.isMultipart()) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the file as multipart/form-data', {
      expected: 'multipart/form-data',
      got: req.headers['content-type'] ?? null,
    });
  }
  if (!/;\s*boundary=("[^"]+"|[^;\s]+)/i.test(req.headers['content-type'] ?? '')) throw malformed('the content type names no boundary');
  const fields: Record<string, string> = {};
  let file: UploadedFile | undefined;
  try {
    for await (const part of req.parts({ limits: { fileSize: maxBytes, files: 1, fields: 20, fieldSize: 4096 } })) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        file = { filename: part.filename, mimetype: part.mimetype, bytes };
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    // @fastify/multipart's own errors carry their status (413 for a file over the limit); the parser's do not
    if (err instanceof AppError || typeof (err as { statusCode?: unknown }).statusCode === 'number') throw err;
    throw malformed(err instanceof Error ? err.message : String(err));
  }
  return { file, fields };
}

const malformed = (why: string): AppError =>
  new AppError('VALIDATION_FAILED', `body: not a well-formed multipart/form-data body (${why})`, [{ in: 'body', path: '', message: why }]);

/** A 400 in the shared shape, naming the multipart field. */
export const formFieldError = (field: string, message: string): AppError =>
  new AppError('VALIDATION_FAILED', `body.${field}: ${message}`, [{ in: 'body', path: field, message }]);
