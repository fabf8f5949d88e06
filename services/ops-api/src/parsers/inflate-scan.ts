import { constants, inflateSync } from 'node:zlib';

/** What the compressed streams of a PDF expand to, as far as they can be measured. */
export interface InflateScan {
  /** Bytes the measured streams expand to (at most the cap + 1: measuring stops there). */
  inflated: number;
  /** FlateDecode streams measured. */
  streams: number;
  /** Streams that could not be measured (encrypted, another filter first, damaged): the reader's memory and time limits bound them. */
  unmeasured: number;
  /** The expansion passed the cap. */
  overCap: boolean;
}

const STREAM = /(?<![A-Za-z])stream(?:\r\n|\n|\r)/g;
const LOOKBACK = 8192;

/** The dictionary right before a `stream` keyword (balanced << >>), or undefined. */
function dictionaryBefore(text: string, at: number): string | undefined {
  const from = Math.max(0, at - LOOKBACK);
  const close = text.lastIndexOf('>>', at);
  if (close < from || text.slice(close + 2, at).trim() !== '') return undefined;
  let depth = 1;
  for (let i = close - 1; i > from; i--) {
    const pair = text.slice(i - 1, i + 1);
    if (pair === '>>') {
      depth++;
      i--;
    } else if (pair === '<<') {
      depth--;
      i--;
      if (depth === 0) return text.slice(i, close + 2);
    }
  }
  return undefined;
}

/** The stream's filters, in order (`/Filter /FlateDecode` or `/Filter [/ASCII85Decode /FlateDecode]`). */
function filtersOf(dict: string): string[] {
  const m = /\/Filter\s*(\[[^\]]*\]|\/[A-Za-z0-9]+)/.exec(dict);
  return m ? [...m[1]!.matchAll(/\/([A-Za-z0-9]+)/g)].map((f) => f[1]!) : [];
}

/**
 * Measures, before pdf.js reads a PDF, how far its FlateDecode streams expand, with zlib and an
 * output limit, so a deflate bomb (issue 23: 712 KB expanding to 200 MiB, 1 MB to 1 GiB) is refused
 * in milliseconds with a reason, and never held in memory past `cap`. Streams are found by their
 * `stream` keyword and dictionary (a cross-reference table is not needed); a stream whose first
 * filter is not Flate, or of an encrypted document, cannot be measured here and is counted as such.
 */
export function scanInflated(pdf: Uint8Array, cap: number): InflateScan {
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  const text = bytes.toString('latin1');
  const scan: InflateScan = { inflated: 0, streams: 0, unmeasured: 0, overCap: false };
  const encrypted = /\/Encrypt\s/.test(text);
  STREAM.lastIndex = 0;
  for (let m = STREAM.exec(text); m; m = STREAM.exec(text)) {
    const start = m.index + m[0].length;
    let end = text.indexOf('endstream', start);
    if (end < 0) end = text.length;
    STREAM.lastIndex = end;
    const filters = filtersOf(dictionaryBefore(text, m.index) ?? '');
    if (!filters.length) continue; // stored as is: its size is the file's
    if (encrypted || (filters[0] !== 'FlateDecode' && filters[0] !== 'Fl')) {
      scan.unmeasured++;
      continue;
    }
    try {
      const out = inflateSync(bytes.subarray(start, end), {
        maxOutputLength: cap - scan.inflated + 1,
        finishFlush: constants.Z_SYNC_FLUSH,
      });
      scan.inflated += out.length;
      scan.streams++;
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
        scan.inflated = cap + 1;
        scan.streams++;
      } else {
        scan.unmeasured++;
      }
    }
    if (scan.inflated > cap) {
      scan.overCap = true;
      return scan;
    }
  }
  return scan;
}
