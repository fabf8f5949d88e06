import type { Readable } from 'node:stream';
import { textStream } from './text-stream';

/** A JSON array written as the items arrive; `toJson` gives an item's text (default JSON.stringify). */
export function jsonArrayStream<T>(batches: AsyncIterable<T[]>, toJson: (item: T) => string = JSON.stringify): Readable {
  return textStream(batches, { head: '[', item: toJson, separator: ',', tail: ']' });
}
