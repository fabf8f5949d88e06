import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { callAllowing, expectSplitInvariant, fuzzSplitter } from '../../../test/protocol-helpers';
import { DecodeError, type ProtocolSession } from '../protocol';
import { gps103Protocol } from './index';

// Frames from Traccar's public test data (traccar/traccar src/test/java/org/traccar/protocol/
// Gps103ProtocolDecoderTest.java); the decoded values of every capture are in gps103-captures.test.ts.

const MAX_FRAME = 2048;
const decode = (text: string, session: ProtocolSession = {}) => gps103Protocol.decode(Buffer.from(text, 'latin1'), session);

describe('gps103 session and refusals', () => {
  it('login and heartbeat teach the session its device; reports name it', () => {
    const session: ProtocolSession = {};
    decode('##,imei:359586015829802,A;', session);
    expect(session.deviceId).toBe('359586015829802');
    decode('359586015829803;', session);
    expect(session.deviceId).toBe('359586015829803');
    expect(
      decode('imei:359710045559474,tracker,151030080103,,F,000101.000,A,5443.3834,N,02512.9071,E,0.00,0;', session).positions[0]!.deviceId,
    ).toBe('359710045559474');
  });

  it('a report without imei is a DecodeError', () => {
    expect(() => decode('tracker,151030080103,,F;')).toThrowError(expect.objectContaining({ reason: 'malformed' }));
  });

  it('reports that do not hold are refused with the reason, not guessed', () => {
    expect(decode('imei:359710045559474,tracker,151330080103,,F,000101.000,A,5443.3834,N,02512.9071,E,0.00,0;')).toMatchObject({
      kind: 'ignored',
      type: 'F',
    });
    expect(decode('imei:359710045559474,tracker,151030080103,,X,000101.000;')).toMatchObject({ kind: 'ignored', type: 'other' });
    expect(decode('imei:359710048977327,OBD,18030109;')).toMatchObject({ kind: 'ignored', type: 'OBD' });
    expect(decode('imei:861359038609986,Equipo 1,---,------,----,214734,241018,*')).toMatchObject({ kind: 'ignored', type: 'alt' });
    expect(decode('imei:864180034124375,vt14,190116192753,,L,,,;')).toMatchObject({ kind: 'ignored', type: 'L' });
  });
});

describe('gps103 frame splitter', () => {
  const frames = [
    '##,imei:359586015829802,A;',
    '359586015829802;',
    'imei:359710045559474,tracker,151030080103,,F,000101.000,A,5443.3834,N,02512.9071,E,0.00,0;',
    'imei:861359038609986,Equipo 1,---,------,----,214734,241018,26,1,-33.42317,-70.61930,067,229,0674,1.00,08,0,1,---,*',
    'imei:359586015829802,help me,0809231429,13554900601,F,062947.294,A,2234.4026,N,11354.3277,E,0.00,\n',
    'imei:868683027758113,OBD,180905200218,,,,0,0,0.39%,70,9.41%,494,0.00,P0137,P0430,,;',
  ];
  const capture = Buffer.from(frames.join(''), 'latin1');

  it('a capture split at every byte offset, and byte by byte, yields the same frames', () => {
    expectSplitInvariant(
      gps103Protocol.splitFrames,
      capture,
      frames.map((f) => Buffer.from(f, 'latin1').toString('hex')),
      MAX_FRAME,
    );
  });

  it('rejects binary garbage and frames without a delimiter', () => {
    expect(() => gps103Protocol.splitFrames(Buffer.from([0x78, 0x78, 0x0d, 0x01]), MAX_FRAME)).toThrow(DecodeError);
    expect(() => gps103Protocol.splitFrames(Buffer.from('imei:1,'.padEnd(300, '0')), 256)).toThrowError(
      expect.objectContaining({ reason: 'frame_too_large' }),
    );
  });

  it('random bytes throw nothing but DecodeError', () => {
    fuzzSplitter(gps103Protocol.splitFrames);
  });

  it('random text after each kind of start throws nothing but DecodeError', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 200 }),
        fc.constantFrom('', 'imei:', '##,imei:', '123', 'imei:1,OBD,', 'imei:1,x,1,,L,'),
        (text, prefix) => {
          callAllowing(DecodeError, () => decode(prefix + text));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
