import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { callAllowing, expectSanePosition, expectSplitInvariant, fuzzTextMutations } from '../../../test/protocol-helpers';
import { meitrackProtocol } from './index';
import { DecodeError, type DecodeResult } from '../protocol';

// Device messages from Traccar's public test data: src/test/java/org/traccar/protocol/
// MeitrackProtocolDecoderTest.java (repo traccar/traccar). Traccar asserts time/lat/lon for one of
// them ($$A158); the other expected values were read off the fields by hand (speed km/h → knots).

const KMH = 1 / 1.852;

function decode(text: string): DecodeResult {
  const result = meitrackProtocol.decode(Buffer.from(text, 'latin1'), {});
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
  kmh: number;
  course: number;
  valid: boolean;
  crcValid: boolean;
  alarm?: string;
  more?: Record<string, unknown>;
}

const cases: Case[] = [
  {
    name: 'Nairobi, T-series analog volts',
    text: '$$D149,867047043162018,AAA,35,-1.264865,36.800705,211001105240,A,9,20,41.0,323,1,1697,1,0,000|00||,0000,4.33|12.96|1.92|2.72|2.69,0.000000|0|0.000000,*E1',
    time: '2021-10-01T10:52:40.000Z',
    lat: -1.264865,
    lon: 36.800705,
    kmh: 41,
    course: 323,
    valid: true,
    crcValid: true,
    more: { satellites: 9, hdop: 1, altitude: 1697, odometer: 1, battery: 4.33, power: 12.96 },
  },
  {
    name: 'invalid fix with inputs 0x08 and hex analog values',
    text: '$$F153,867144025101013,AAA,35,25.219431,55.279918,200916155923,V,0,25,0,0,0.0,0,249701532,98374503,424|2|101C|A3AE,0800,0000|0000|0000|02D3|0103,00000011,*A0',
    time: '2020-09-16T15:59:23.000Z',
    lat: 25.219431,
    lon: 55.279918,
    kmh: 0,
    course: 0,
    valid: false,
    crcValid: true,
    more: { odometer: 249701532 },
  },
  {
    name: 'protocol version and fuel fields after the analog values',
    text: '$$O160,863835028611502,AAA,35,7.887840,98.375193,200202020238,A,12,4,0,279,0.6,45,32121,442492,520|3|12DF|015273E2,0000,0000|0000|0000|018D|04F0,00000001,,1,0000*F3',
    time: '2020-02-02T02:02:38.000Z',
    lat: 7.88784,
    lon: 98.375193,
    kmh: 0,
    course: 279,
    valid: true,
    crcValid: true,
    more: { satellites: 12, hdop: 0.6, altitude: 45, odometer: 32121 },
  },
  {
    name: 'event 1 (input 1 active) → sos',
    text: '$$T143,869013024733944,AAA,1,18.459575,-69.947161,170220142912,A,5,15,10,300,1.6,115,3989,187884,370|2|5337|2B2C,0100,0000|0000|0000|0964|0B04,,*C2',
    time: '2017-02-20T14:29:12.000Z',
    lat: 18.459575,
    lon: -69.947161,
    kmh: 10,
    course: 300,
    valid: true,
    crcValid: true,
    alarm: 'sos',
  },
  {
    name: 'Nairobi, moving',
    text: '$$G145,862106024274815,AAA,35,-1.287125,36.906061,150530054639,A,10,13,12,67,0.8,1621,38359791,42330881,639|2|FB2|2F3,0000,3|0|0|A58|432,,,1,0009,*26',
    time: '2015-05-30T05:46:39.000Z',
    lat: -1.287125,
    lon: 36.906061,
    kmh: 12,
    course: 67,
    valid: true,
    crcValid: true,
    more: { altitude: 1621, odometer: 38359791 },
  },
  {
    name: 'southern and western hemispheres',
    text: '$$X138,862170010187175,AAA,35,-29.960365,-51.655455,130507201625,A,8,9,0,107,0.9,7,169322,126582,724|6|0547|132B,0000,0009|000A||0278|0000,*BE',
    time: '2013-05-07T20:16:25.000Z',
    lat: -29.960365,
    lon: -51.655455,
    kmh: 0,
    course: 107,
    valid: true,
    crcValid: true,
  },
  {
    name: 'event 109 with event-specific trailing data',
    text: '$$^182,864507031245110,AAA,109,13.844553,100.644360,171227173141,A,11,19,0,359,0.8,8,15075,934591,520|4|0643|07D20555,8400,0000|0000|0000|018D|04CB,,,108,0000,,6,0,,,,,10|171227173100*7C',
    time: '2017-12-27T17:31:41.000Z',
    lat: 13.844553,
    lon: 100.64436,
    kmh: 0,
    course: 359,
    valid: true,
    crcValid: true,
  },
  {
    name: 'asserted by Traccar (2015-07-30 18:48:34, 40.99637, -8.57507); its checksum does not match: crcValid=false',
    text: '$$A158,79007001520234,AAA,35,40.996370,-8.575065,150730184834,A,8,24,0,1,1.3,173,32573389,31405012,268|3|2BC0|250B,2000,|||0A2D|0000,00000001,,50,,,,,,,,,,,,,*4A',
    time: '2015-07-30T18:48:34.000Z',
    lat: 40.99637,
    lon: -8.575065,
    kmh: 0,
    course: 1,
    valid: true,
    crcValid: false,
  },
  {
    name: 'edited sample whose checksum no longer matches: decoded anyway with crcValid=false',
    text: '$$V177,863835026871173,AAA,35,34.516428,10.470160,170915154043,A,9,12,68,74,0.9,9,1988259,525882,605|2|008C|0007B5A6,0200,0003|0000|0000|01A6|0571,00000001,,3,0000,06FB2E,360,511*74',
    time: '2017-09-15T15:40:43.000Z',
    lat: 34.516428,
    lon: 10.47016,
    kmh: 68,
    course: 74,
    valid: true,
    crcValid: false,
  },
  {
    name: 'Sydney, 2012',
    text: '$$m139,012896005334567,AAA,35,-33.866423,151.190060,121208020649,A,7,27,0,32,4,13,6150,49517,505|2|0B67|5A6C,0000,0000|0000|0000|0977|0000,,*F1',
    time: '2012-12-08T02:06:49.000Z',
    lat: -33.866423,
    lon: 151.19006,
    kmh: 0,
    course: 32,
    valid: true,
    crcValid: true,
  },
];

describe('meitrack AAA reports', () => {
  for (const c of cases) {
    it(c.name, () => {
      const result = decode(c.text);
      const p = only(result);
      expect(result.deviceId).toBe(c.text.split(',')[1]);
      expect(result.crcValid).toBe(c.crcValid);
      expect(result.ack).toBeUndefined();
      expect(p.fixTime.toISOString()).toBe(c.time);
      expect(p.valid).toBe(c.valid);
      expect(p.latitude).toBeCloseTo(c.lat, 6);
      expect(p.longitude).toBeCloseTo(c.lon, 6);
      expect(p.speed).toBeCloseTo(c.kmh * KMH, 6);
      expect(p.course).toBe(c.course);
      expect(p.alarm ?? null).toBe(c.alarm ?? null);
      expect(result.kind).toBe(c.alarm ? 'alarm' : 'position');
      if (c.alarm) expect(result.events).toEqual([{ alarm: c.alarm }]);
      if (c.more) expect(p).toMatchObject(c.more);
    });
  }

  it('cell and io attributes', () => {
    const p = only(decode(cases[1]!.text));
    expect(p.attributes).toMatchObject({
      event: 35,
      rssi: 25,
      mcc: 424,
      mnc: 2,
      lac: 0x101c,
      cid: 0xa3ae,
      input: 8,
      output: 0,
      runtime: 98374503,
    });
    // Hex analog values: adc1..3 raw, battery and power in 0.01 V (Traccar's reading without a configured model).
    expect(p.attributes).toMatchObject({ adc1: 0, adc2: 0, adc3: 0 });
    expect(p.battery).toBe(0x2d3 / 100);
    expect(p.power).toBe(0x103 / 100);
  });

  it('hex analog power in 0.01 V (Traccar asserts power 13.95)', () => {
    const p = only(
      decode(
        '$$F160,861412043027965,AAA,22,45.499458,-82.493581,220718171428,V,0,0,0,0,0.0,0,227940,119812,302|220|D8D6|086E1B2B,0000,0000|0000|0000|0191|0573,,,3,,002134,0,0*FA',
      ),
    );
    expect(p.power).toBe(13.95);
    expect(p.battery).toBe(4.01);
    expect(p.attributes).toMatchObject({ mcc: 302, mnc: 220, lac: 0xd8d6, cid: 0x086e1b2b });
  });

  it('fuel and temperatures after the protocol version (protocol 3: 0.01 °C signed)', () => {
    const p = only(decode(cases[8]!.text));
    expect(p.attributes).toMatchObject({ fuel: 0, temp6: -12.34, eventData: '00000001' });
  });

  it('a reply to a command (D03 take photo: OK) is a command result', () => {
    const r = decode('$$D28,353358017784062,D03,OK*F3');
    expect(r).toMatchObject({ kind: 'result', type: 'D03', positions: [], deviceId: '353358017784062', attributes: { result: 'D03,OK' } });
  });

  it('a D82 reply (Traccar asserts the result D82,0)', () => {
    expect(decode('$$u28,864606044993987,D82,0*D6').attributes?.result).toBe('D82,0');
  });
});

describe('meitrack frame splitter', () => {
  const frames = [cases[0]!, cases[3]!, cases[9]!].map((c) => `${c.text}\r\n`).concat('$$D28,353358017784062,D03,OK*F3\r\n');

  it('a capture split at every byte offset and concatenated twice yields identical frames', () => {
    const hexFrames = frames.map((f) => Buffer.from(f, 'latin1').toString('hex'));
    expectSplitInvariant(meitrackProtocol.splitFrames, Buffer.from(frames.join(''), 'latin1'), hexFrames, 2048);
  });

  it('rejects garbage, bad lengths and oversized frames', () => {
    expect(() => meitrackProtocol.splitFrames(Buffer.from('GET / HTTP/1.1\r\n'), 2048)).toThrow(DecodeError);
    expect(() => meitrackProtocol.splitFrames(Buffer.from('$$Axyz,123'), 2048)).toThrowError(
      expect.objectContaining({ reason: 'bad_frame' }),
    );
    expect(() => meitrackProtocol.splitFrames(Buffer.from('$$A99999,123'), 2048)).toThrowError(
      expect.objectContaining({ reason: 'frame_too_large' }),
    );
  });
});

describe('meitrack robustness (fast-check)', () => {
  const onlyDecodeErrors = (run: () => void): void => callAllowing(DecodeError, run);

  it('random text never throws anything but DecodeError', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        onlyDecodeErrors(() => decode(`$$A${text}`));
        onlyDecodeErrors(() => decode(`$$A1,123,AAA,${text}`));
        onlyDecodeErrors(() => meitrackProtocol.splitFrames(Buffer.from(`$$${text}`, 'latin1'), 128));
      }),
      { numRuns: 2000 },
    );
  });

  it('mutated real frames never throw anything but DecodeError and keep positions sane', () => {
    fuzzTextMutations(
      decode,
      cases.map((c) => c.text),
      '0123456789.,-|*AV$ ',
    );
  });
});
