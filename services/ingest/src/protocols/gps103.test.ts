import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectSanePosition } from '../../test/protocol-helpers';
import { gps103Protocol } from './gps103';
import { DecodeError, type DecodeResult, type ProtocolSession } from './protocol';

// Device messages from Traccar's public test data: src/test/java/org/traccar/protocol/
// Gps103ProtocolDecoderTest.java (repo traccar/traccar). Traccar asserts time/lat/lon for the first
// three; the other expected values were worked out by hand from the text (local date shifted by the
// local-vs-UTC hh:mm difference, ddmm.mmmm → degrees).

const MAX_FRAME = 2048;

function decode(text: string, session: ProtocolSession = {}): DecodeResult {
  const result = gps103Protocol.decode(Buffer.from(text, 'latin1'), session);
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
  time: string;
  lat: number;
  lon: number;
  speed: number;
  course: number;
  alarm?: string | null;
  valid?: boolean;
}

const cases: Case[] = [
  {
    name: 'tracker, asserted by Traccar',
    text: 'imei:359710045559474,tracker,151030080103,,F,000101.000,A,5443.3834,N,02512.9071,E,0.00,0;',
    time: '2015-10-30T00:01:01.000Z', lat: 54.72306, lon: 25.21512, speed: 0, course: 0,
  },
  {
    name: 'local date one day ahead of UTC, asserted by Traccar',
    text: 'imei:359710049092324,tracker,151027025958,,F,235957.000,A,2429.5156,N,04424.5828,E,0.01,27.91,,0,0,,,;',
    time: '2015-10-26T23:59:57.000Z', lat: 24.49193, lon: 44.40971, speed: 0.01, course: 27.91,
  },
  {
    name: 'fuel percentage, asserted by Traccar',
    text: 'imei:865328021058861,tracker,151027041419,,F,011531.000,A,6020.2979,N,02506.1940,E,0.49,113.30,,0,0,0.0%,,;',
    time: '2015-10-27T01:15:31.000Z', lat: 60.3383, lon: 25.10323, speed: 0.49, course: 113.3,
  },
  {
    name: 'help me → sos',
    text: 'imei:359586015829802,help me,0809231429,13554900601,F,062947.294,A,2234.4026,N,11354.3277,E,0.00,',
    time: '2008-09-23T06:29:47.000Z', lat: 22 + 34.4026 / 60, lon: 113 + 54.3277 / 60, speed: 0, course: 0, alarm: 'sos',
  },
  {
    name: 'low battery → lowBattery',
    text: 'imei:359586015829802,low battery,0809231429,13554900601,F,062947.294,A,2234.4026,N,11354.3277,E,0.00,',
    time: '2008-09-23T06:29:47.000Z', lat: 22 + 34.4026 / 60, lon: 113 + 54.3277 / 60, speed: 0, course: 0, alarm: 'lowBattery',
  },
  {
    name: 'speed → overspeed',
    text: 'imei:359586015829802,speed,0809231429,13554900601,F,062947.294,A,2234.4026,N,11354.3277,E,0.00,',
    time: '2008-09-23T06:29:47.000Z', lat: 22 + 34.4026 / 60, lon: 113 + 54.3277 / 60, speed: 0, course: 0, alarm: 'overspeed',
  },
  {
    name: 'move → movement',
    text: 'imei:359586015829802,move,0809231429,13554900601,F,062947.294,A,2234.4026,N,11354.3277,E,0.00,',
    time: '2008-09-23T06:29:47.000Z', lat: 22 + 34.4026 / 60, lon: 113 + 54.3277 / 60, speed: 0, course: 0, alarm: 'movement',
  },
  {
    name: 'ac alarm → powerCut, west longitude',
    text: 'imei:862106021237716,ac alarm,1611291645,,F,204457.000,A,1010.2783,N,06441.0274,W,0.00,,;',
    time: '2016-11-29T20:44:57.000Z', lat: 10 + 10.2783 / 60, lon: -(64 + 41.0274 / 60), speed: 0, course: 0, alarm: 'powerCut',
  },
  {
    name: 'date with slashes and a 10 h 41 min zone',
    text: 'imei:359710040656622,tracker,13/02/27 23:40,,F,125952.000,A,3450.9430,S,13828.6753,E,0.00,0',
    time: '2013-02-27T12:59:52.000Z', lat: -(34 + 50.943 / 60), lon: 138 + 28.6753 / 60, speed: 0, course: 0,
  },
  {
    name: 'moving, south-west',
    text: 'imei:012497000208821,tracker,1301080525,,F,212511.000,A,2228.5279,S,06855.6328,W,18.62,268.98,',
    time: '2013-01-07T21:25:11.000Z', lat: -(22 + 28.5279 / 60), lon: -(68 + 55.6328 / 60), speed: 18.62, course: 268.98,
  },
  {
    name: 'hemispheres before the coordinates, no UTC time',
    text: 'imei:353552045403597,tracker,150420050648,53.0,F,0.0,A,N,5306.64155,E,00700.77848,0.0,,1.0,;',
    time: '2015-04-20T05:06:00.000Z', lat: 53 + 6.64155 / 60, lon: 7 + 0.77848 / 60, speed: 0, course: 0,
  },
  {
    name: 'alternative format ending in * (speed km/h)',
    text: 'imei:861359038609986,Equipo 1,---,------,----,214734,241018,26,1,-33.42317,-70.61930,067,229,0674,1.00,08,0,1,---,*',
    time: '2018-10-24T21:47:34.000Z', lat: -33.42317, lon: -70.6193, speed: 67 / 1.852, course: 229,
  },
];

describe('gps103 reports', () => {
  for (const c of cases) {
    it(c.name, () => {
      const result = decode(c.text);
      const p = only(result);
      expect(p.deviceId).toBe(c.text.slice(5, 20));
      expect(p.fixTime.toISOString()).toBe(c.time);
      expect(p.valid).toBe(c.valid ?? true);
      expect(p.latitude).toBeCloseTo(c.lat, 5);
      expect(p.longitude).toBeCloseTo(c.lon, 5);
      expect(p.speed).toBeCloseTo(c.speed, 6);
      expect(p.course).toBe(c.course);
      expect(p.alarm ?? null).toBe(c.alarm ?? null);
      expect(result.kind).toBe(c.alarm ? 'alarm' : 'position');
      if (c.alarm) expect(result.events).toEqual([{ alarm: c.alarm }]);
    });
  }

  it('acc off sets ignition, door, fuel and temperature fields', () => {
    const p = only(decode('imei:865328023776874,acc off,150619152221,,F,072218.000,A,5439.8489,N,02518.5945,E,0.00,,,1,1,0.0,0.0,23.0,;'));
    expect(p.fixTime.toISOString()).toBe('2015-06-19T07:22:18.000Z');
    expect(p.ignition).toBe(false);
    expect(p.attributes).toMatchObject({ door: true, fuel1: 0, fuel2: 0, temp1: 23 });
  });

  it('alternative format carries hdop, satellites, altitude and ignition', () => {
    const p = only(decode(cases[cases.length - 1]!.text));
    expect(p).toMatchObject({ altitude: 674, hdop: 1, satellites: 8, ignition: false });
    expect(p.attributes).toMatchObject({ rssi: 26, charge: true });
  });

  it('login is answered LOAD and sets the session device', () => {
    const session: ProtocolSession = {};
    const result = decode('##,imei:359586015829802,A;', session);
    expect(result.kind).toBe('login');
    expect(result.deviceId).toBe('359586015829802');
    expect(result.ack?.toString('latin1')).toBe('LOAD');
    expect(session.deviceId).toBe('359586015829802');
  });

  it('heartbeat (the IMEI alone) is answered ON', () => {
    const result = decode('359586015829802;');
    expect(result.kind).toBe('heartbeat');
    expect(result.deviceId).toBe('359586015829802');
    expect(result.ack?.toString('latin1')).toBe('ON');
  });

  it('heartbeat glued to a report: answered ON and the report decoded', () => {
    const result = decode('359769031878322imei:359769031878322,tracker,1602160718,2,F,221811.000,A,1655.2193,S,14546.6722,E,0.00,,');
    expect(result.ack?.toString('latin1')).toBe('ON');
    const p = only(result);
    expect(p.fixTime.toISOString()).toBe('2016-02-15T22:18:11.000Z');
    expect(p.latitude).toBeCloseTo(-(16 + 55.2193 / 60), 6);
  });

  it('help me is answered so the tracker stops repeating it', () => {
    expect(decode(cases[3]!.text).ack?.toString('latin1')).toBe('**,imei:359586015829802,E;');
  });

  it('no-GPS (L) sos: alarm event, no position', () => {
    const result = decode('imei:359710049075097,help me,,,L,,,113b,,558f,,,,,0,0,,,');
    expect(result.positions).toEqual([]);
    expect(result.kind).toBe('alarm');
    expect(result.events).toEqual([{ alarm: 'sos' }]);
  });

  it('no-GPS tracker report, OBD and photo frames are ignored', () => {
    expect(decode('imei:359586015829802,tracker,000000000,13554900601,L,;').kind).toBe('ignored');
    expect(decode('imei:359710048977327,OBD,180301094003,5000000,0.00,0.00,98,18,68.63%,55,25.10%,1368,14.24,,,,;').kind).toBe('ignored');
  });
});

describe('gps103 frame splitter', () => {
  const frames = [
    '##,imei:359586015829802,A;',
    '359586015829802;',
    'imei:359710045559474,tracker,151030080103,,F,000101.000,A,5443.3834,N,02512.9071,E,0.00,0;',
    'imei:861359038609986,Equipo 1,---,------,----,214734,241018,26,1,-33.42317,-70.61930,067,229,0674,1.00,08,0,1,---,*',
    'imei:359586015829802,help me,0809231429,13554900601,F,062947.294,A,2234.4026,N,11354.3277,E,0.00,\n',
  ];
  const capture = Buffer.from(frames.join(''), 'latin1');

  function feed(chunks: Buffer[]): string[] {
    const out: string[] = [];
    let rest: Buffer = Buffer.alloc(0);
    for (const chunk of chunks) {
      const split = gps103Protocol.splitFrames(Buffer.concat([rest, chunk]), MAX_FRAME);
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

  it('rejects binary garbage and frames without a delimiter', () => {
    expect(() => gps103Protocol.splitFrames(Buffer.from([0x78, 0x78, 0x0d, 0x01]), MAX_FRAME)).toThrow(DecodeError);
    expect(() => gps103Protocol.splitFrames(Buffer.from('imei:1,'.padEnd(300, '0')), 256)).toThrowError(
      expect.objectContaining({ reason: 'frame_too_large' }),
    );
  });
});

describe('gps103 robustness (fast-check)', () => {
  function onlyDecodeErrors(run: () => void): void {
    try {
      run();
    } catch (error) {
      expect(error).toBeInstanceOf(DecodeError);
    }
  }

  it('random text never throws anything but DecodeError', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.constantFrom('', 'imei:', '##,imei:', '123'), (text, prefix) => {
        onlyDecodeErrors(() => gps103Protocol.decode(Buffer.from(prefix + text, 'latin1'), {}).positions.forEach(expectSanePosition));
        onlyDecodeErrors(() => gps103Protocol.splitFrames(Buffer.from(prefix + text, 'latin1'), 128));
      }),
      { numRuns: 2000 },
    );
  });

  it('mutated real frames never throw anything but DecodeError and keep positions sane', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...cases.map((c) => c.text)),
        fc.array(fc.tuple(fc.nat(), fc.constantFrom(...'0123456789.,;*-ANSEWFL: '.split(''))), { maxLength: 6 }),
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
