import { describe, expect, it } from 'vitest';
import { gt06Protocol } from '../protocols/gt06/index';
import { teltonikaProtocol } from '../protocols/teltonika/index';
import { gt06 } from '../../test/test-device';
import { splitStream } from './split-stream';

const t = new Date(Date.UTC(2025, 4, 1, 12, 0, 0));

describe('splitStream', () => {
  it('returns what the splitter returns for a clean buffer', () => {
    const a = gt06.login('359710049099999', 1);
    const b = gt06.location(t, 1, 36, 2);
    const out = splitStream(gt06Protocol, Buffer.concat([a, b, b.subarray(0, 5)]), 1024);
    expect(out.frames.map((f) => f.toString('hex'))).toEqual([a.toString('hex'), b.toString('hex')]);
    expect(out.rest.toString('hex')).toBe(b.subarray(0, 5).toString('hex'));
    expect(out.error).toBeUndefined();
  });

  it('keeps the whole frames before garbage and hands the garbage back with the error', () => {
    const a = gt06.login('359710049099999', 1);
    const b = gt06.location(t, 1, 36, 2);
    const junk = Buffer.from('GET / HTTP/1.1\r\n');
    const out = splitStream(gt06Protocol, Buffer.concat([a, b, junk]), 1024);
    expect(out.frames).toHaveLength(2);
    expect(out.error?.reason).toBe('bad_frame');
    expect(out.garbage?.toString()).toBe(junk.toString());
    const only = splitStream(gt06Protocol, junk, 1024);
    expect(only.frames).toHaveLength(0);
    expect(only.garbage?.toString()).toBe(junk.toString());
  });

  it('reports a frame longer than the limit as frame_too_large', () => {
    const avl = Buffer.alloc(12);
    avl.writeUInt32BE(5000, 4);
    expect(splitStream(teltonikaProtocol, avl, 1024).error?.reason).toBe('frame_too_large');
  });
});
