import { Readable } from 'node:stream';

const CHUNK = 64 * 1024;

export interface TextLayout<T> {
  head: string;
  /** One item's text. */
  item(item: T): string;
  /** Between two items. */
  separator: string;
  tail: string;
}

/**
 * A byte stream of `head item sep item … tail`, written as the batches arrive in chunks of about
 * 64 KiB. The batches are read only as fast as the stream is read (a reader that stops reading
 * stops the source), and destroying the stream ends the source (its `return` runs).
 */
export function textStream<T>(batches: AsyncIterable<T[]>, layout: TextLayout<T>): Readable {
  async function* chunks(): AsyncGenerator<string> {
    let buf = layout.head;
    let first = true;
    for await (const batch of batches) {
      for (const item of batch) {
        buf += first ? layout.item(item) : layout.separator + layout.item(item);
        first = false;
        if (buf.length >= CHUNK) {
          yield buf;
          buf = '';
        }
      }
    }
    yield buf + layout.tail;
  }
  return Readable.from(chunks(), { objectMode: false });
}
