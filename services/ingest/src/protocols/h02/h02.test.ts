import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectSanePosition } from '../../../test/protocol-helpers';
import { DecodeError, type DecodeResult, type ProtocolSession } from '../protocol';
import { h02Protocol } from './index';

// Device messages from Traccar's public test data: src/test/java/org/traccar/protocol/
// H02ProtocolDecoderTest.java and H02FrameDecoderTest.java (repo traccar/traccar). Where Traccar only
// checks that a message decodes, the expected values below were worked out by hand from the text.

const MAX_FRAME = 4096;

function decode(frame: string | Buffer, session: ProtocolSession = {}): DecodeResult {
  const result = h02Protocol.decode(typeof frame === 'string' ? Buffer.from(frame, 'latin1') : frame, session);
  result.positions.forEach(expectSanePosition);
  return result;
}

function only(result: DecodeResult) {
  expect(result.positions).toHaveLength(1);
  return result.positions[0]!;
}

describe('h02 text reports', () => {
  it('V1 west longitude (Traccar asserts 2015-12-22 16:45:49, 9.93978, -84.11178)', () => {
    const result = decode('*HQ,4210051415,V1,164549,A,0956.3869,N,08406.7068,W,000.00,000,221215,FFFFFBFF,712,01,0,0,6#');
    const p = only(result);
    expect(result.kind).toBe('position');
    expect(result.deviceId).toBe('4210051415');
    expect(result.ack).toBeUndefined();
    expect(p.fixTime.toISOString()).toBe('2015-12-22T16:45:49.000Z');
    expect(p.valid).toBe(true);
    expect(p.latitude).toBeCloseTo(9.93978, 5);
    expect(p.longitude).toBeCloseTo(-84.11178, 5);
    expect(p.speed).toBe(0);
    expect(p.course).toBe(0);
    expect(p.alarm).toBeNull();
    expect(p.ignition).toBe(false);
    expect(p.attributes.status).toBe(0xfffffbff);
  });

  it('V1 with empty validity is an invalid fix (Traccar asserts 2015-10-03 05:04:18, 28.46021, 77.06414)', () => {
    const p = only(decode('*HQ,355488020119695,V1,050418,,2827.61232,N,07703.84822,E,0.00,0,031015,FFFEFBFF#'));
    expect(p.fixTime.toISOString()).toBe('2015-10-03T05:04:18.000Z');
    expect(p.valid).toBe(false);
    expect(p.latitude).toBeCloseTo(28.46021, 5);
    expect(p.longitude).toBeCloseTo(77.06414, 5);
  });

  it('V1 with dashed degrees (Traccar asserts 2015-03-07 03:01:49, -23.48349, -46.85975)', () => {
    const p = only(decode('*HQ,1451316409,V1,030149,A,-23-29.0095,S,-46-51.5852,W,2.4,065,070315,FFFFFFFF#'));
    expect(p.fixTime.toISOString()).toBe('2015-03-07T03:01:49.000Z');
    expect(p.latitude).toBeCloseTo(-23.48349, 5);
    expect(p.longitude).toBeCloseTo(-46.85975, 5);
    expect(p.speed).toBe(2.4);
    expect(p.course).toBe(65);
    expect(p.ignition).toBe(true);
    expect(p.alarm).toBeNull();
  });

  it('V1 with a battery field and status bit 19 cleared: powerCut', () => {
    const result = decode('*HQ,4210209006,V1,054048,A,2828.2297,N,07733.4332,E,000.5,047,4,080918,EEE7FBDF,4261193,0#');
    const p = only(result);
    expect(p.fixTime.toISOString()).toBe('2018-09-08T05:40:48.000Z');
    expect(p.latitude).toBeCloseTo(28 + 28.2297 / 60, 6);
    expect(p.longitude).toBeCloseTo(77 + 33.4332 / 60, 6);
    expect(p.speed).toBe(0.5);
    expect(p.course).toBe(47);
    expect(p.attributes.batteryLevel).toBe(4);
    expect(p.alarm).toBe('powerCut');
    expect(result.kind).toBe('alarm');
    expect(result.events).toEqual([{ alarm: 'powerCut' }]);
  });

  it('V1 with odometer, temperature, fuel, altitude, lac and cid', () => {
    const p = only(decode('*HQ,2130510938,V1,012632,A,0520.0663,N,10028.6324,E,0.286,023,100317,FFFFDFFF,69129336,0,100.0,18,5141,5A20#'));
    expect(p.fixTime.toISOString()).toBe('2017-03-10T01:26:32.000Z');
    expect(p.latitude).toBeCloseTo(5 + 20.0663 / 60, 6);
    expect(p.longitude).toBeCloseTo(100 + 28.6324 / 60, 6);
    expect(p.speed).toBe(0.286);
    expect(p.course).toBe(23);
    expect(p.odometer).toBe(69129336);
    expect(p.altitude).toBe(18);
    expect(p.attributes).toMatchObject({ temp1: 0, fuel: 100, lac: 0x5141, cid: 0x5a20 });
    expect(p.ignition).toBe(true);
  });

  it('V1 with status bit 18 cleared: sos', () => {
    const result = decode('*HQ,353588020068342,V1,084436,A,3257.01525,N,00655.03865,W,57.78,40,011216,FFFBFFFF,25c,a, 154,b04c#');
    const p = only(result);
    expect(p.fixTime.toISOString()).toBe('2016-12-01T08:44:36.000Z');
    expect(p.latitude).toBeCloseTo(32 + 57.01525 / 60, 6);
    expect(p.longitude).toBeCloseTo(-(6 + 55.03865 / 60), 6);
    expect(p.speed).toBe(57.78);
    expect(p.course).toBe(40);
    expect(p.alarm).toBe('sos');
    expect(result.events).toEqual([{ alarm: 'sos' }]);
    expect(p.attributes.io3).toBe('154');
  });

  it('V4 command reply carrying a position', () => {
    const p = only(decode('*TH,2020916012,V4,S20,ERROR,130305,050316,A,2212.8745,N,11346.6574,E,14.28,028,220902,FFFFFBFF#'));
    expect(p.fixTime.toISOString()).toBe('2002-09-22T05:03:16.000Z');
    expect(p.latitude).toBeCloseTo(22 + 12.8745 / 60, 6);
    expect(p.longitude).toBeCloseTo(113 + 46.6574 / 60, 6);
    expect(p.speed).toBe(14.28);
    expect(p.course).toBe(28);
    expect(p.attributes.result).toBe('S20,ERROR');
  });

  it('V19 with SIM fields before the status', () => {
    const p = only(
      decode('*HQ,4209951296,V19,214452,A,5201.0178,N,01830.5029,E,000.00,000,200417,,195.63.13.195,89480610500392633029,BFFFFBFF#'),
    );
    expect(p.fixTime.toISOString()).toBe('2017-04-20T21:44:52.000Z');
    expect(p.latitude).toBeCloseTo(52 + 1.0178 / 60, 6);
    expect(p.longitude).toBeCloseTo(18 + 30.5029 / 60, 6);
    expect(p.attributes.status).toBe(0xbffffbff);
    expect(p.alarm).toBeNull();
  });

  it('V1 without coordinates or date yields no position', () => {
    const result = decode('*HQ,353505510948929,V1,,V,,N,,E,0.00,0,,FFFFF7FF,f0,a,11a0,c0c6#');
    expect(result.positions).toEqual([]);
    expect(result.kind).toBe('ignored');
    expect(decode('*HQ,356327080425330,XT,1,100#').kind).toBe('ignored');
    expect(decode('*HQ,4109198974,#').positions).toEqual([]);
  });

  it('NBR (cells, no GPS): a state record with the cells, the device time and the status word', () => {
    const nbr =
      '*HQ,4208150188,NBR,210249,260,6,0,7,1014,50675,37,1014,50633,27,1014,17933,18,1014,17231,15,1014,50632,12,1014,13211,11,1014,17031,10,281216,FFFFFBFF,2#';
    const r = decode(nbr);
    expect(r.kind).toBe('state');
    expect(r.positions).toEqual([]);
    expect(r.deviceTime?.toISOString()).toBe('2016-12-28T21:02:49.000Z');
    expect(r.attributes).toMatchObject({ mcc: 260, mnc: 6, lac: 1014, cid: 50675, status: 0xfffffbff, ignition: false });
    expect(String(r.attributes?.cells).split(' ')).toHaveLength(7);
    expect(String(r.attributes?.cells).startsWith('260/6/1014/50675/37')).toBe(true);
  });

  it('LINK heartbeat: signal, satellites and battery level as device state', () => {
    const r = decode('*HQ,1600068860,LINK,112137,20,8,67,0,0,081116,FFFFFBFF#');
    expect(r.kind).toBe('heartbeat');
    expect(r.positions).toEqual([]);
    expect(r.deviceTime?.toISOString()).toBe('2016-11-08T11:21:37.000Z');
    expect(r.attributes).toMatchObject({ rssi: 20, sat: 8, batteryLevel: 67, steps: 0, turnovers: 0 });
  });

  it('HTBT heartbeat is acknowledged by echoing it up to its type (format from Traccar PATTERN_HTBT)', () => {
    const result = decode('*HQ,355488020882405,HTBT,100#');
    expect(result.kind).toBe('heartbeat');
    expect(result.ack?.toString('latin1')).toBe('*HQ,355488020882405,HTBT#');
    expect(result.attributes).toEqual({ batteryLevel: 100 });
  });
});

describe('h02 binary reports', () => {
  it('45-byte report (Traccar asserts 2015-08-31 21:53:21, 4.69898, -74.06971)', () => {
    const result = decode(Buffer.from('24410600082621532131081504419390060740418306000000fffffbfdff0015060000002c02dc0c000000001f', 'hex'));
    const p = only(result);
    expect(result.deviceId).toBe('4106000826');
    expect(p.fixTime.toISOString()).toBe('2015-08-31T21:53:21.000Z');
    expect(p.valid).toBe(true);
    expect(p.latitude).toBeCloseTo(4.69898, 5);
    expect(p.longitude).toBeCloseTo(-74.06971, 4);
    // The battery byte is a level: batteryLevel %, never the battery voltage.
    expect(p.attributes.batteryLevel).toBe(100);
    expect(p.battery ?? null).toBeNull();
    expect(p.alarm).toBe('sos'); // status FFFFFBFD: bit 1 cleared
  });

  it('32-byte report', () => {
    const p = only(decode(Buffer.from('2441060116601245431311165035313006004318210e000000fffffbffff0024', 'hex')));
    expect(p.deviceId).toBe('4106011660');
    expect(p.fixTime.toISOString()).toBe('2016-11-13T12:45:43.000Z');
    expect(p.latitude).toBeCloseTo(50 + 35.313 / 60, 6);
    expect(p.longitude).toBeCloseTo(4 + 31.821 / 60, 6);
    expect(p.speed).toBe(0);
    expect(p.course).toBe(0);
    expect(p.attributes.status).toBe(0xfffffbff);
  });

  it('42-byte report with a 15-digit id, speed and course', () => {
    const p = only(decode(Buffer.from('2435248308419329301047591808172627335900074412294E024138FEFFFFFFFF01120064BA73005ECC', 'hex')));
    expect(p.deviceId).toBe('352483084193293');
    expect(p.fixTime.toISOString()).toBe('2017-08-18T10:47:59.000Z');
    expect(p.latitude).toBeCloseTo(26 + 27.3359 / 60, 6);
    expect(p.longitude).toBeCloseTo(74 + 41.2294 / 60, 6);
    expect(p.speed).toBe(24);
    expect(p.course).toBe(138);
    expect(p.ignition).toBe(true);
  });

  it('invalid fix in the western hemisphere', () => {
    const p = only(
      decode(Buffer.from('24702802061601234020031910125482600612695044000000ffffbbff000000000000000001760d04e2c9934d', 'hex')),
    );
    expect(p.fixTime.toISOString()).toBe('2019-03-20T01:23:40.000Z');
    expect(p.valid).toBe(false);
    expect(p.latitude).toBeCloseTo(10 + 12.5482 / 60, 6);
    expect(p.longitude).toBeCloseTo(-(61 + 26.9504 / 60), 6);
    expect(p.attributes.batteryLevel).toBe(96);
    expect(p.battery ?? null).toBeNull();
  });

  it('X frames are ignored', () => {
    expect(decode(Buffer.from('5800009814991024031101175540227006012321670c000095fffffbffff0033', 'hex')).kind).toBe('ignored');
  });
});

describe('h02 frame splitter', () => {
  // From H02FrameDecoderTest: text with CR LF, short binary, binary followed by text.
  const frames = [
    '*HQ,355488020113911,V1,012945,A,5231.79283,N,01324.10718,E,0.05,0,170217,FFFFFFFF#',
    '2441060116601245431311165035313006004318210e000000fffffbffff0024',
    '*HQ,4106011660,V1,124552,A,5035.3129,N,00431.8211,E,000.20,000,131116,FFFFBFFF#',
    '24430025645511183817091319355128000465632432000100ffe7fbffff0000',
    '2441060116601245431311165035313006004318210e000000fffffbffff0024',
    '*HQ,4206119130,NBR,102403,238,1,0,7,1111,2264,63,1111,2265,58,1111,2266,50,1111,3135,37,1111,605,33,1111,4920,30,1111,607,28,110117,FFFFDFFF,6#',
  ].map((f) => (f.startsWith('*') ? Buffer.from(f, 'latin1') : Buffer.from(f, 'hex')));
  const capture = Buffer.concat(frames.flatMap((f, i) => (i === 0 ? [f, Buffer.from('\r\n')] : [f])));

  function feed(chunks: Buffer[]): Buffer[] {
    const out: Buffer[] = [];
    let rest: Buffer = Buffer.alloc(0);
    for (const chunk of chunks) {
      const split = h02Protocol.splitFrames(Buffer.concat([rest, chunk]), MAX_FRAME);
      out.push(...split.frames);
      rest = split.rest;
    }
    expect(rest.length).toBe(0);
    return out;
  }

  it('a capture split at every byte offset and concatenated twice yields identical frames', () => {
    const twice = Buffer.concat([capture, capture]);
    const expected = [...frames, ...frames].map((f) => f.toString('hex'));
    for (let at = 0; at <= twice.length; at++) {
      const got = feed([twice.subarray(0, at), twice.subarray(at)]);
      expect(
        got.map((f) => f.toString('hex')),
        `split at ${at}`,
      ).toEqual(expected);
    }
  });

  it('long binary frames arriving whole are cut where the next frame starts', () => {
    const long = [
      '24410600082621532131081504419390060740418306000000fffffbfdff0015060000002c02dc0c000000001f',
      '2435248308419329301047591808172627335900074412294E024138FEFFFFFFFF01120064BA73005ECC',
      '2421305109380127171003170520046500100286297e003085ffffdfffff03440069129344006400001151415a20',
      '24971305007205201916101533335008000073206976000000effffbffff000252776566060000000000000000000049',
    ].map((h) => Buffer.from(h, 'hex'));
    const stream = [long[0]!, frames[0]!, long[1]!, frames[1]!, long[2]!, long[3]!];
    expect(feed(stream).map((f) => f.length)).toEqual(stream.map((f) => f.length));
    expect(feed([Buffer.concat(stream)]).map((f) => f.length)).toEqual(stream.map((f) => f.length));
  });

  it('rejects garbage and oversized text frames', () => {
    expect(() => h02Protocol.splitFrames(Buffer.from('GET / HTTP/1.1\r\n'), MAX_FRAME)).toThrow(DecodeError);
    const long = Buffer.from(`*HQ,1,V1,${'0'.repeat(200)}`);
    expect(() => h02Protocol.splitFrames(long, 100)).toThrowError(expect.objectContaining({ reason: 'frame_too_large' }));
    expect(h02Protocol.splitFrames(Buffer.from('*HQ,123,V1,0'), MAX_FRAME).frames).toEqual([]);
  });
});

describe('h02 robustness (fast-check)', () => {
  const samples = [
    '*HQ,4210051415,V1,164549,A,0956.3869,N,08406.7068,W,000.00,000,221215,FFFFFBFF,712,01,0,0,6#',
    '*HQ,1600068860,LINK,112137,20,8,67,0,0,081116,FFFFFBFF#',
    '*HQ,4208150188,NBR,210249,260,6,0,2,1014,50675,37,1014,50633,27,281216,FFFFFBFF,2#',
    '*HQ,355488020882405,V3,095426,74001,04,010278,045142,128,-92,010278,026311,125,,010278,026582,125,,010278,028322,119,,02DD,0,X,090517,FFFFFBFF#',
    '*hq,356327081001239,VP1,V,470,002,92,3565,0Y92,19433,30Y92,1340,29#',
    '*hq,356327080425330,VP1,A,2702.7245,S,15251.9311,E,0.48,0.0000,080917#',
    '*HQ,9001000002,V8,213945,A,3542.2043,N,38.6508,W,0.00,170,221025,FBFFF9FF,0,0,0,0,22,31,126,0#',
    '*HQ,135790246811220,HTBT,100#',
  ].map((s) => Buffer.from(s, 'latin1'));
  samples.push(Buffer.from('24410600082621532131081504419390060740418306000000fffffbfdff0015060000002c02dc0c000000001f', 'hex'));

  function onlyDecodeErrors(run: () => unknown): void {
    try {
      run();
    } catch (error) {
      expect(error).toBeInstanceOf(DecodeError);
    }
  }

  it('random bytes never throw anything but DecodeError', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.constantFrom(0x2a, 0x24, 0x58), (bytes, marker) => {
        const frame = Buffer.from([marker, ...bytes]);
        onlyDecodeErrors(() => h02Protocol.decode(frame, {}));
        onlyDecodeErrors(() => h02Protocol.splitFrames(frame, 256));
      }),
      { numRuns: 2000 },
    );
  });

  it('mutated real frames never throw anything but DecodeError and keep positions sane', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...samples),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 6 }),
        fc.nat(),
        (sample, edits, cut) => {
          const frame = Buffer.from(sample);
          for (const [at, value] of edits) frame[at % frame.length] = value;
          const truncated = frame.subarray(0, 1 + (cut % frame.length));
          for (const candidate of [frame, truncated]) {
            onlyDecodeErrors(() => {
              const result = h02Protocol.decode(candidate, {});
              result.positions.forEach(expectSanePosition);
            });
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});
