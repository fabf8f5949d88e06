import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectSanePosition } from '../../test/protocol-helpers';
import { DecodeError, type DecodeResult, type ProtocolSession } from './protocol';
import { tk103Protocol } from './tk103';

// Device messages from Traccar's public test data: src/test/java/org/traccar/protocol/
// Tk103ProtocolDecoderTest.java (repo traccar/traccar). Traccar asserts time/lat/lon for two of them;
// the other expected values were worked out by hand (yymmdd in the classic layout, ddmmyy in the
// comma layout, speed km/h → knots, odometer hex metres).

const KMH = 1 / 1.852;

function decode(text: string, session: ProtocolSession = {}): DecodeResult {
  const result = tk103Protocol.decode(Buffer.from(text, 'latin1'), session);
  result.positions.forEach(expectSanePosition);
  return result;
}

function only(result: DecodeResult) {
  expect(result.positions).toHaveLength(1);
  return result.positions[0]!;
}

interface Case {
  name: string;
  text: string;
  id: string;
  time: string;
  lat: number;
  lon: number;
  kmh: number;
  course: number;
  valid?: boolean;
  odometer?: number;
  ignition?: boolean;
}

const reports: Case[] = [
  {
    name: 'BR00, asserted by Traccar (2015-10-24 05:51:48, -25.92255, 28.92222)',
    text: '(088047365460BR00151024A2555.3531S02855.3329E004.7055148276.1701000000L00009AA3)',
    id: '088047365460', time: '2015-10-24T05:51:48.000Z', lat: -25.92255, lon: 28.92222, kmh: 4.7, course: 276.17,
    odometer: 0x9aa3, ignition: true,
  },
  {
    name: 'BR00 with spaces padding the longitude, speed and course',
    text: '(027023361470BR00200617A4000.5775N 8415.4076W 46.0173725 87.3101000000L00000000)',
    id: '027023361470', time: '2020-06-17T17:37:25.000Z', lat: 40 + 0.5775 / 60, lon: -(84 + 15.4076 / 60), kmh: 46, course: 87.31,
    odometer: 0, ignition: true,
  },
  {
    name: 'BR00 with a trailing temperature',
    text: '(088046338039BR00160727A3354.7768N03540.7258E000.0140832068.4700000000L00BEB0D4+017.7)',
    id: '088046338039', time: '2016-07-27T14:08:32.000Z', lat: 33 + 54.7768 / 60, lon: 35 + 40.7258 / 60, kmh: 0, course: 68.47,
    odometer: 0xbeb0d4, ignition: false,
  },
  {
    name: 'BR00 moving, odometer 0xD9779',
    text: '(019358704260BR00180725A2300.0957N07235.2748E032.412092187.58001100166L000D9779)',
    id: '019358704260', time: '2018-07-25T12:09:21.000Z', lat: 23 + 0.0957 / 60, lon: 72 + 35.2748 / 60, kmh: 32.4, course: 87.58,
    odometer: 0xd9779, ignition: true,
  },
  {
    name: 'BR00 invalid fix with an 11-character id',
    text: '(01602009983BR00160830V1855.7022S4817.8731W000.0002729000.0010000000L00000000)',
    id: '01602009983', time: '2016-08-30T00:27:29.000Z', lat: -(18 + 55.7022 / 60), lon: -(48 + 17.8731 / 60), kmh: 0, course: 0,
    valid: false, ignition: false,
  },
  {
    name: 'BR00 with a letter id',
    text: '(BALLESTEROS3BR00190408A4113.5700N00140.3100E000.0162431000.0001000000L00000000)',
    id: 'BALLESTEROS3', time: '2019-04-08T16:24:31.000Z', lat: 41 + 13.57 / 60, lon: 1 + 40.31 / 60, kmh: 0, course: 0,
  },
  {
    name: 'comma layout BP05, asserted by Traccar (2014-04-24 11:28:25, 45.45586, 9.16626)',
    text: '(352606090042050,BP05,240414,A,4527.3513N,00909.9758E,4.80,112825,155.49)',
    id: '352606090042050', time: '2014-04-24T11:28:25.000Z', lat: 45.45586, lon: 9.16626, kmh: 4.8, course: 155.49,
  },
  {
    name: 'comma layout ZC17 with altitude and satellites',
    text: '(864768011069660,ZC17,250517,A,3211.7118N,03452.8086E,0.68,115525,208.19,64.50,9)',
    id: '864768011069660', time: '2017-05-25T11:55:25.000Z', lat: 32 + 11.7118 / 60, lon: 34 + 52.8086 / 60, kmh: 0.68, course: 208.19,
  },
];

describe('tk103 reports', () => {
  for (const c of reports) {
    it(c.name, () => {
      const result = decode(c.text);
      const p = only(result);
      expect(result.deviceId).toBe(c.id);
      expect(p.fixTime.toISOString()).toBe(c.time);
      expect(p.valid).toBe(c.valid ?? true);
      // Traccar rounds its asserted coordinates to 5 decimals, hence 4-digit closeness.
      expect(p.latitude).toBeCloseTo(c.lat, 4);
      expect(p.longitude).toBeCloseTo(c.lon, 4);
      expect(p.speed).toBeCloseTo(c.kmh * KMH, 6);
      expect(p.course).toBe(c.course);
      if (c.odometer !== undefined) expect(p.odometer).toBe(c.odometer);
      if (c.ignition !== undefined) expect(p.ignition).toBe(c.ignition);
    });
  }

  it('BR00 trailing temperature and io masks', () => {
    expect(only(decode(reports[2]!.text)).attributes).toMatchObject({ temp1: 17.7, charge: true, fuel: 0 });
    expect(only(decode(reports[3]!.text)).attributes).toMatchObject({ in2: true, fuel: 0x166 });
  });

  it('ZC17 is the removing alarm with altitude and satellites', () => {
    const result = decode(reports[7]!.text);
    expect(result.kind).toBe('alarm');
    expect(result.events).toEqual([{ alarm: 'removing' }]);
    expect(only(result)).toMatchObject({ alarm: 'removing', altitude: 64.5, satellites: 9 });
  });

  it('BP05 login (classic) is answered AP05 and carries a position', () => {
    const session: ProtocolSession = {};
    const result = decode('(088046338039BP05000088046338039160727A3354.7768N03540.7258E000.0140309065.1000000000L00BEB0D4+017.3)', session);
    expect(result.kind).toBe('login');
    expect(result.ack?.toString('latin1')).toBe('(088046338039AP05)');
    expect(session.deviceId).toBe('088046338039');
    const p = only(result);
    expect(p.fixTime.toISOString()).toBe('2016-07-27T14:03:09.000Z');
    expect(p.course).toBe(65.1);
  });

  it('BP00 handshake is answered AP01HSO', () => {
    const result = decode('(027044702512BP00027044702512HSO01A4)');
    expect(result.kind).toBe('heartbeat');
    expect(result.positions).toEqual([]);
    expect(result.ack?.toString('latin1')).toBe('(027044702512AP01HSO)');
  });

  it('BO01 alarm digit 2 → sos, answered AS01', () => {
    const result = decode('(013666666666BO012110925A1234.5678N01234.5678W000.0025948118.7200000000L000024DE)');
    expect(result.kind).toBe('alarm');
    expect(result.events).toEqual([{ alarm: 'sos' }]);
    expect(result.ack?.toString('latin1')).toBe('(013666666666AS012)');
    const p = only(result);
    expect(p.alarm).toBe('sos');
    expect(p.fixTime.toISOString()).toBe('2011-09-25T02:59:48.000Z');
    expect(p.latitude).toBeCloseTo(12 + 34.5678 / 60, 6);
    expect(p.longitude).toBeCloseTo(-(12 + 34.5678 / 60), 6);
    expect(p.course).toBe(118.72);
    expect(p.odometer).toBe(0x24de);
  });

  it('BO01 with an impossible date still raises the alarm and is answered', () => {
    const result = decode('(013612345678BO012061830A2934.0133N10627.2544E040.0080331309.6200000000L000770AD)');
    expect(result.positions).toEqual([]);
    expect(result.events).toEqual([{ alarm: 'sos' }]);
    expect(result.ack?.toString('latin1')).toBe('(013612345678AS012)');
  });

  it('messages without a position are ignored', () => {
    expect(decode('(013632651491,ZC20,180716,144222,6,392,65535,255)').kind).toBe('ignored');
    expect(decode('(087073104337BZ00,740,000,3bf7,0425,3bf7,0bf5,01000000)').kind).toBe('ignored');
  });
});

describe('tk103 frame splitter', () => {
  const frames = [
    '(027044702512BP00027044702512HSO01A4)',
    '(088047365460BR00151024A2555.3531S02855.3329E004.7055148276.1701000000L00009AA3)',
    '(352606090042050,BP05,240414,A,4527.3513N,00909.9758E,4.80,112825,155.49)',
    '(013666666666BO012110925A1234.5678N01234.5678W000.0025948118.7200000000L000024DE)',
  ];
  const capture = Buffer.from(frames.join('\r\n'), 'latin1');

  function feed(chunks: Buffer[]): string[] {
    const out: string[] = [];
    let rest: Buffer = Buffer.alloc(0);
    for (const chunk of chunks) {
      const split = tk103Protocol.splitFrames(Buffer.concat([rest, chunk]), 1024);
      out.push(...split.frames.map((f) => f.toString('latin1')));
      rest = split.rest;
    }
    expect(rest.length).toBe(0);
    return out;
  }

  it('a capture split at every byte offset and concatenated twice yields identical frames', () => {
    const twice = Buffer.concat([capture, capture]);
    for (let at = 0; at <= twice.length; at++) {
      expect(feed([twice.subarray(0, at), twice.subarray(at)]), `split at ${at}`).toEqual([...frames, ...frames]);
    }
  });

  it('rejects garbage and oversized frames', () => {
    expect(() => tk103Protocol.splitFrames(Buffer.from('imei:123;'), 1024)).toThrow(DecodeError);
    expect(() => tk103Protocol.splitFrames(Buffer.from('('.padEnd(300, '0')), 256)).toThrowError(
      expect.objectContaining({ reason: 'frame_too_large' }),
    );
  });
});

describe('tk103 robustness (fast-check)', () => {
  function onlyDecodeErrors(run: () => void): void {
    try {
      run();
    } catch (error) {
      expect(error).toBeInstanceOf(DecodeError);
    }
  }

  it('random text never throws anything but DecodeError', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        onlyDecodeErrors(() => decode(`(${text})`));
        onlyDecodeErrors(() => tk103Protocol.splitFrames(Buffer.from(text, 'latin1'), 128));
      }),
      { numRuns: 2000 },
    );
  });

  it('mutated real frames never throw anything but DecodeError and keep positions sane', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...reports.map((c) => c.text)),
        fc.array(fc.tuple(fc.nat(), fc.constantFrom(...'0123456789.,AVNSEWLBRPO +-'.split(''))), { maxLength: 6 }),
        (text, edits) => {
          const chars = text.split('');
          for (const [at, ch] of edits) chars[at % chars.length] = ch;
          onlyDecodeErrors(() => decode(chars.join('')));
        },
      ),
      { numRuns: 3000 },
    );
  });
});
