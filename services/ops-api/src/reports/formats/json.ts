import { Readable } from 'node:stream';

const CHUNK = 64 * 1024;

/** A JSON array written as the items arrive, in chunks of about 64 KiB. */
export function jsonArrayStream(batches: AsyncIterable<unknown[]>): Readable {
  async function* chunks(): AsyncGenerator<string> {
    let buf = '[';
    let first = true;
    for await (const batch of batches) {
      for (const item of batch) {
        buf += (first ? '' : ',') + JSON.stringify(item);
        first = false;
        if (buf.length >= CHUNK) {
          yield buf;
          buf = '';
        }
      }
    }
    yield buf + ']';
  }
  return Readable.from(chunks(), { objectMode: false });
}
