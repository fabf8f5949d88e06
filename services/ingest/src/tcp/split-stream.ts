import { DecodeError, type Protocol } from '../protocols/protocol';

export interface StreamSplit {
  frames: Buffer[];
  rest: Buffer;
  /** Set when the bytes after `frames` cannot be framed; `garbage` holds them. */
  error?: DecodeError;
  garbage?: Buffer;
}

/**
 * Runs the protocol's splitter over a connection's buffer. A splitter throws on bytes no frame can
 * be cut from, which would also lose the whole frames before them; since a splitter decides only on
 * bytes already in the stream, every longer prefix of a failing buffer fails too, so a binary search
 * finds the longest prefix that splits cleanly and its frames are kept.
 */
export function splitStream(protocol: Protocol, buf: Buffer, maxFrame: number): StreamSplit {
  try {
    return protocol.splitFrames(buf, maxFrame);
  } catch (err) {
    const error = err instanceof DecodeError ? err : new DecodeError('bad_frame', (err as Error).message);
    let good = 0; // longest known prefix that splits
    let bad = buf.length; // shortest known prefix that throws
    let goodSplit: { frames: Buffer[]; rest: Buffer } = { frames: [], rest: Buffer.alloc(0) };
    while (bad - good > 1) {
      const mid = (good + bad) >>> 1;
      try {
        goodSplit = protocol.splitFrames(buf.subarray(0, mid), maxFrame);
        good = mid;
      } catch {
        bad = mid;
      }
    }
    const consumed = good - goodSplit.rest.length;
    return { frames: goodSplit.frames, rest: Buffer.alloc(0), error, garbage: buf.subarray(consumed) };
  }
}
