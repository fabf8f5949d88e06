import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { callAllowing, expectSplitInvariant, fuzzSplitter } from '../../../test/protocol-helpers';
import { DecodeError, type ProtocolSession } from '../protocol';
import { tk103Protocol } from './index';

// Frames from Traccar's public test data (traccar/traccar src/test/java/org/traccar/protocol/
// Tk103ProtocolDecoderTest.java); the decoded values of every capture are in tk103-captures.test.ts.

const decode = (text: string, session: ProtocolSession = {}) => tk103Protocol.decode(Buffer.from(text, 'latin1'), session);

describe('tk103 session and layouts', () => {
  it('the frame names the device: the session learns it', () => {
    const session: ProtocolSession = {};
    decode('(088047365460BR00151024A2555.3531S02855.3329E004.7055148276.1701000000L00009AA3)', session);
    expect(session.deviceId).toBe('088047365460');
    decode('(352606090042050,BP05,240414,A,4527.3513N,00909.9758E,4.80,112825,155.49)', session);
    expect(session.deviceId).toBe('352606090042050');
  });

  it('a frame without an id and a command is a DecodeError', () => {
    expect(() => decode('(hello)')).toThrowError(expect.objectContaining({ reason: 'malformed' }));
  });

  it('unknown commands and comma reports without a position layout are refused with the reason, labelled other', () => {
    const unknown = decode('(027044702512XY12somethingelse)');
    expect(unknown).toMatchObject({ kind: 'ignored', type: 'other', deviceId: '027044702512' });
    expect(unknown.ignoredReason).toContain('XY12');
    expect(decode('(864555555555555,ZC99,hello)')).toMatchObject({ kind: 'ignored', type: 'ZC99' });
  });

  it('state reports whose fields do not fit their layout are refused, not guessed', () => {
    expect(decode('(013632651491,ZC20,999999,144222,6,392,65535,255)')).toMatchObject({ kind: 'ignored', type: 'ZC20' });
    expect(decode('(087073104337BZ00,abc)')).toMatchObject({ kind: 'ignored', type: 'BZ00' });
    expect(decode('(864555555555555,DW5B,310,6,29876,30393,2,zz,041217,102211)')).toMatchObject({ kind: 'ignored', type: 'DW5B' });
    expect(decode('(027023361470BV00SHORT)')).toMatchObject({ kind: 'ignored', type: 'BV00' });
  });

  it('a truncated BS50 payload is a DecodeError (truncated), not a wrong value', () => {
    expect(() => decode('(352602014867BS500064FF0EF10F)')).toThrowError(expect.objectContaining({ reason: 'truncated' }));
  });
});

describe('tk103 frame splitter', () => {
  const frames = [
    '(027044702512BP00027044702512HSO01A4)',
    '(088047365460BR00151024A2555.3531S02855.3329E004.7055148276.1701000000L00009AA3)',
    '(352606090042050,BP05,240414,A,4527.3513N,00909.9758E,4.80,112825,155.49)',
    '(027046434858BZ00,{460,0,20949,58711}\n{460,0,20494,54003}\n,01000000)',
    '(864555555555555,ZC03,191117,234207,$3 .Check interval is set to 240 minute(s).$)',
    '(013666666666BO012110925A1234.5678N01234.5678W000.0025948118.7200000000L000024DE)',
  ];
  const capture = Buffer.from(frames.join('\r\n'), 'latin1');

  it('a capture split at every byte offset, and byte by byte, yields the same frames (a reply text may hold parentheses)', () => {
    expectSplitInvariant(
      tk103Protocol.splitFrames,
      capture,
      frames.map((f) => Buffer.from(f, 'latin1').toString('hex')),
      1024,
    );
  });

  it('rejects garbage and oversized frames', () => {
    expect(() => tk103Protocol.splitFrames(Buffer.from('imei:123;'), 1024)).toThrow(DecodeError);
    expect(() => tk103Protocol.splitFrames(Buffer.from('('.padEnd(300, '0')), 256)).toThrowError(
      expect.objectContaining({ reason: 'frame_too_large' }),
    );
    expect(() => tk103Protocol.splitFrames(Buffer.from('(1,ZC03,$'.padEnd(300, ')')), 256)).toThrowError(
      expect.objectContaining({ reason: 'frame_too_large' }),
    );
  });

  it('random bytes throw nothing but DecodeError', () => {
    fuzzSplitter(tk103Protocol.splitFrames);
  });

  it('random text in a frame throws nothing but DecodeError', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        callAllowing(DecodeError, () => decode(`(${text})`));
      }),
      { numRuns: 2000 },
    );
  });
});
