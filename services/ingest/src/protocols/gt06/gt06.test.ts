import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { callAllowing, expectSanePosition, expectSplitInvariant, hex } from '../../../test/protocol-helpers';
import { DecodeError, type DecodeResult } from '../protocol';
import { crcX25, decodeGt06, gt06Protocol, parseGt06Envelope, splitGt06Frames, type Gt06Session } from './index';

/*
 * Captures are real device messages from Traccar's public test data
 * (traccar/traccar src/test/java/org/traccar/protocol/Gt06ProtocolDecoderTest.java,
 * Gt06FrameDecoderTest.java and Gt06ProtocolEncoderTest.java). Traccar's tests mostly check only
 * that a message decodes; the expected values below are computed from the bytes by hand
 * (latitude/longitude = raw / 30000 / 60, speed km/h / 1.852, course = low 10 bits of the status
 * word) and cross-checked against the cell's country code.
 */

const MAX_FRAME = 1024;
const KNOTS = 1 / 1.852;

function decode(frameHex: string, session: Gt06Session = { deviceId: '864717003283581' }): DecodeResult {
  const result = decodeGt06(hex(frameHex), session);
  for (const p of result.positions) expectSanePosition(p);
  return result;
}

function onlyPosition(result: DecodeResult) {
  expect(result.positions).toHaveLength(1);
  const [p] = result.positions;
  if (!p) throw new Error('no position');
  return p;
}

describe('gt06 CRC-16/X-25', () => {
  it('matches the catalogue check value', () => {
    expect(crcX25(Buffer.from('123456789', 'ascii'))).toBe(0x906e);
  });

  it('matches the login response example of the GT06 protocol document', () => {
    // Document example: server reply 78 78 05 01 00 01 D9 DC 0D 0A
    expect(crcX25(hex('05 01 00 01'))).toBe(0xd9dc);
  });
});

describe('gt06 decoder', () => {
  it('login (0x01): IMEI from BCD into the session, ack echoes the serial', () => {
    const session: Gt06Session = {};
    const r = decode('78780D01086471700328358100093F040D0A', session);
    expect(r.kind).toBe('login');
    expect(r.deviceId).toBe('864717003283581');
    expect(session.deviceId).toBe('864717003283581');
    expect(r.crcValid).toBe(true);
    expect(r.ack?.toString('hex')).toBe('78780501000955940d0a');
  });

  it('login ack matches the document example for serial 0x0001', () => {
    // GT06 document example login: 78 78 0D 01 01 23 45 67 89 01 23 45 00 01 8C DD 0D 0A
    const session: Gt06Session = {};
    const r = decode('78780D01012345678901234500018CDD0D0A', session);
    expect(session.deviceId).toBe('123456789012345');
    expect(r.crcValid).toBe(true);
    expect(r.ack?.toString('hex')).toBe('78780501' + '0001d9dc0d0a');
  });

  it('location 0x22: time, position, LBS, ack bytes', () => {
    const r = decode('787822220F0C1D023305C9027AC8180C46586000140001CC00287D001F71000001000820860D0A');
    expect(r.kind).toBe('position');
    const p = onlyPosition(r);
    expect(p.fixTime.toISOString()).toBe('2015-12-29T02:51:05.000Z');
    expect(p.latitude).toBeCloseTo(0x027ac818 / 30000 / 60, 6);
    expect(p.latitude).toBeCloseTo(23.111693, 5);
    expect(p.longitude).toBeCloseTo(114.409298, 5);
    expect(p.satellites).toBe(9);
    expect(p.speed).toBe(0);
    expect(p.course).toBe(0);
    expect(p.valid).toBe(true);
    expect(p.ignition).toBe(false); // ACC byte 0x00
    expect(p.attributes).toMatchObject({ mcc: 460, mnc: 0, lac: 0x287d, cid: 0x1f71, archive: true });
    expect(r.ack?.toString('hex')).toBe('787805220008a8420d0a');
    expect(parseGt06Envelope(r.ack ?? Buffer.alloc(0)).crcValid).toBe(true);
  });

  it('location 0x22 in the southern/eastern hemisphere flags and speed', () => {
    const r = decode('78782222120616083817c5050cc8c801a819d600152400e8011dbf003332000000004862500d0a');
    const p = onlyPosition(r);
    expect(p.fixTime.toISOString()).toBe('2018-06-22T08:56:23.000Z');
    expect(p.latitude).toBeCloseTo(47.06884, 5);
    expect(p.longitude).toBeCloseTo(15.441043, 5);
    expect(p.course).toBe(0x124);
    expect(p.attributes.mcc).toBe(232); // Austria
  });

  it('location 0x22 without a fix reports valid=false and ignition from the ACC byte', () => {
    const p = onlyPosition(decode('787822221106160a1016c60278019407c7783800040001940504700046fc01030100065f570d0a'));
    expect(p.fixTime.toISOString()).toBe('2017-06-22T10:16:22.000Z');
    expect(p.valid).toBe(false);
    expect(p.latitude).toBeCloseTo(23.010642, 5);
    expect(p.longitude).toBeCloseTo(72.507196, 5);
    expect(p.ignition).toBe(true);
    expect(p.attributes.event).toBe(3);
  });

  it('location 0x12 with ACC in the status word', () => {
    const p = onlyPosition(decode('787821121303120b2524c70138e363085b549003d43301940057d200cd52c000006aa1ca0d0a'));
    expect(p.fixTime.toISOString()).toBe('2019-03-18T11:37:36.000Z');
    expect(p.latitude).toBeCloseTo(11.391913, 5);
    expect(p.longitude).toBeCloseTo(77.89064, 5);
    expect(p.speed).toBeCloseTo(3 * KNOTS, 6);
    expect(p.course).toBe(51);
    expect(p.satellites).toBe(7);
    expect(p.ignition).toBe(true);
  });

  it('location 0x12 VXT01 variant: south/west, power, ignition off (Traccar asserts ignition false)', () => {
    const p = onlyPosition(decode('7878241216040e102c22cf00915ffb04c6016300195a02d402283b00753f400571040001dda4880d0a'));
    expect(p.fixTime.toISOString()).toBe('2022-04-14T16:44:34.000Z');
    expect(p.latitude).toBeCloseTo(-0x00915ffb / 1_800_000, 6);
    expect(p.longitude).toBeCloseTo(-0x04c60163 / 1_800_000, 6);
    expect(p.course).toBe(346);
    expect(p.ignition).toBe(false);
    expect(p.power).toBeCloseTo(13.93, 2);
    expect(p.attributes.mcc).toBe(724); // Brazil
  });

  it('location 0x12 S5 variant: temperature (Traccar asserts temp1 = 0x1c), odometer', () => {
    const p = onlyPosition(decode('78782b1215050d03041bcf031ff30a0be795bc001c17014e14a065dd95314504b6040000001c00000cd90ab8fb6f0d0a'));
    expect(p.fixTime.toISOString()).toBe('2021-05-13T03:04:27.000Z');
    expect(p.latitude).toBeCloseTo(29.125268, 5);
    expect(p.longitude).toBeCloseTo(-110.95918, 5);
    expect(p.attributes.temp1).toBe(0x1c);
    expect(p.power).toBeCloseTo(12.06, 2);
    expect(p.odometer).toBe(0x0cd9 * 10);
  });

  it('GPS-only 0x10 frame without serial/CRC', () => {
    const r = decode('7878121011091c0b1b2999058508040097a89e0034520d0a');
    const p = onlyPosition(r);
    expect(p.fixTime.toISOString()).toBe('2017-09-28T11:27:41.000Z');
    expect(p.latitude).toBeCloseTo(51.4469, 5);
    expect(p.longitude).toBeCloseTo(5.521723, 5);
    expect(p.course).toBe(0x52);
    expect(r.ack).toBeUndefined();
  });

  it('alarm 0x16: removing (Traccar asserts ALARM_REMOVING)', () => {
    const r = decode('7878251613020C12141AC5027951430C2A16F60014000900000000001A00007C550300020002F1E70D0A');
    expect(r.kind).toBe('alarm');
    expect(r.events).toEqual([{ alarm: 'removing' }]);
    const p = onlyPosition(r);
    expect(p.alarm).toBe('removing');
    expect(p.fixTime.toISOString()).toBe('2019-02-12T18:20:26.000Z');
    expect(p.latitude).toBeCloseTo(23.058384, 5);
    expect(p.longitude).toBeCloseTo(113.380546, 5);
    expect(r.ack?.toString('hex')).toBe('787805160002e2d70d0a');
  });

  it('alarm 0x26: vibration from the alarm byte, no fix', () => {
    const r = decode('7878252612030C063816C3026C10540C38C9700144030901CC002866000EEE0C06040302000DA2DB0D0A');
    expect(r.kind).toBe('alarm');
    const p = onlyPosition(r);
    expect(p.alarm).toBe('vibration');
    expect(p.valid).toBe(false);
    expect(p.fixTime.toISOString()).toBe('2018-03-12T06:56:22.000Z');
    expect(p.latitude).toBeCloseTo(22.575833, 5);
    expect(p.longitude).toBeCloseTo(113.915653, 5);
    expect(p.speed).toBeCloseTo(1 * KNOTS, 6);
    expect(p.course).toBe(3);
    expect(p.attributes).toMatchObject({ batteryLevel: 100, rssi: 4, mcc: 460 });
  });

  it('status 0x13 (length miscounted by two): terminal info, voltage level, GSM signal', () => {
    const r = decode('787808134606020002044dc5050d0a');
    expect(r.kind).toBe('heartbeat');
    expect(r.positions).toEqual([]);
    expect(r.attributes).toMatchObject({ ignition: true, charge: true, batteryLevel: 100, rssi: 2 });
    expect(r.crcValid).toBe(true);
    expect(r.ack?.toString('hex')).toBe('78780513044d06f90d0a');
  });

  it('status 0x13 long form: battery level (Traccar asserts 6) and temperature', () => {
    const r = decode('7878151330802b00000642014f0008720000802b5ee4d4c90d0a');
    expect(r.attributes).toMatchObject({ batteryLevel: 6, temp1: 4.3 });
  });

  it('heartbeat 0x23 (GK310): battery volts and GSM signal', () => {
    const r = decode('78780B23C00122040001000818720D0A');
    expect(r.kind).toBe('heartbeat');
    expect(r.attributes).toMatchObject({ battery: 2.9, rssi: 4, ignition: false });
  });

  it('LBS 0x28: no position, serving cell as attributes, acknowledged', () => {
    const r = decode('78783B2810010D02020201CC00287D001F713E287D001F7231287D001E232D287D001F4018000000000000000000000000000000000000FF00020005B14B0D0A');
    expect(r.kind).toBe('heartbeat');
    expect(r.positions).toEqual([]);
    expect(r.attributes).toMatchObject({ mcc: 460, mnc: 0, lac: 0x287d, cid: 0x1f71, lbsTime: '2016-01-13T02:02:02.000Z' });
    expect(r.ack).toBeDefined();
  });

  it('command response 0x15: ICCID (Traccar asserts 89882390000097302650)', () => {
    const r = decode('7878281520000000003c49434349443a38393838323339303030303039373330323635303e00020d446f260d0a');
    expect(r.attributes?.iccid).toBe('89882390000097302650');
  });

  it('wrong CRC still decodes, with crcValid=false', () => {
    const frame = hex('787822220F0C1D023305C9027AC8180C46586000140001CC00287D001F71000001000820860D0A');
    frame[frame.length - 3] = (frame[frame.length - 3] ?? 0) ^ 0xff;
    const r = decodeGt06(frame, { deviceId: '1' });
    expect(r.crcValid).toBe(false);
    expect(onlyPosition(r).latitude).toBeCloseTo(23.111693, 5);
  });

  it('rejects a login whose IMEI is not BCD', () => {
    expect(() => decodeGt06(hex('78780D01FFFFFFFFFFFFFFFF00093F040D0A'), {})).toThrow(DecodeError);
  });
});

describe('gt06 commands', () => {
  it('engineStop is the 0x80 packet with "Relay,1#" (Traccar Gt06ProtocolEncoderTest)', () => {
    const out = gt06Protocol.encodeCommand?.({ type: 'engineStop' }, {});
    expect(out?.toString('hex')).toBe('787812800c0000000052656c61792c312300009dee0d0a');
  });

  it('alternative engineStop/engineResume use DYD/HFYD with the password', () => {
    const stop = gt06Protocol.encodeCommand?.({ type: 'engineStop', attributes: { alternative: true } }, {}) ?? Buffer.alloc(0);
    const resume = gt06Protocol.encodeCommand?.({ type: 'engineResume', attributes: { alternative: true, password: '654321' } }, {}) ?? Buffer.alloc(0);
    const stopEnv = parseGt06Envelope(stop);
    expect(stopEnv.type).toBe(0x80);
    expect(stopEnv.crcValid).toBe(true);
    expect(stopEnv.body.subarray(5).toString('ascii')).toBe('DYD,123456#');
    expect(stopEnv.body[0]).toBe(4 + 'DYD,123456#'.length);
    expect(parseGt06Envelope(resume).body.subarray(5).toString('ascii')).toBe('HFYD,654321#');
  });

  it('rejects unknown command types', () => {
    expect(() => gt06Protocol.encodeCommand?.({ type: 'rebootDevice' }, {})).toThrow(DecodeError);
  });
});

describe('gt06 frame splitter', () => {
  // Frames from Gt06FrameDecoderTest / Gt06ProtocolDecoderTest, including the irregular ones:
  // a status packet whose length is two short, a 0x10 packet without serial/CRC, and a zero-length
  // Wi-Fi packet.
  const frames = [
    '78780D01086471700328358100093F040D0A',
    '787808134606020002044dc5050d0a',
    '7878121011091c0b1e2e98058507f80097a6ac03344a0d0a',
    '787822220F0C1D023305C9027AC8180C46586000140001CC00287D001F71000001000820860D0A',
    '787800691709261259400700cc0400d376714600d37a3d5000d37a3c5000d393505a00d3765d5a00d376735a00d32e6b640d0a',
    '797900262100000000020043006f006d006d0061006e00640020006500720072006f0072002100236e850d0a',
    '78782516000000000000c000000000000000000020000900fa0210ef00fb620006640301000468030d0a',
  ].map((f) => f.toLowerCase());

  it('splits a capture identically at every byte offset, twice over', () => {
    expectSplitInvariant(splitGt06Frames, hex(frames.join('')), frames, MAX_FRAME);
  });

  it('keeps a partial frame as the remainder', () => {
    const out = splitGt06Frames(hex('78780D0108647170032835'), MAX_FRAME);
    expect(out.frames).toEqual([]);
    expect(out.rest.toString('hex')).toBe('78780d0108647170032835');
  });

  it('throws bad_frame on garbage and frame_too_large past the limit', () => {
    expect(() => splitGt06Frames(hex('474554202f20485454'), MAX_FRAME)).toThrow(expect.objectContaining({ reason: 'bad_frame' }));
    expect(() => splitGt06Frames(hex('7979ffff01'), MAX_FRAME)).toThrow(expect.objectContaining({ reason: 'frame_too_large' }));
    expect(() => splitGt06Frames(Buffer.concat([hex('787800'), Buffer.alloc(MAX_FRAME)]), MAX_FRAME)).toThrow(
      expect.objectContaining({ reason: 'frame_too_large' }),
    );
  });
});

describe('gt06 robustness (fast-check)', () => {
  const captures = [
    '78780D01086471700328358100093F040D0A',
    '787822220F0C1D023305C9027AC8180C46586000140001CC00287D001F71000001000820860D0A',
    '7878251613020C12141AC5027951430C2A16F60014000900000000001A00007C550300020002F1E70D0A',
    '78782b1215050d03041bcf031ff30a0be795bc001c17014e14a065dd95314504b6040000001c00000cd90ab8fb6f0d0a',
    '787808134606020002044dc5050d0a',
    '7878281520000000003c49434349443a38393838323339303030303039373330323635303e00020d446f260d0a',
  ].map(hex);

  it('splitFrames on random bytes throws nothing but DecodeError', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), fc.integer({ min: 1, max: 2048 }), (bytes, maxFrame) => {
        callAllowing(DecodeError, () => splitGt06Frames(Buffer.from(bytes), maxFrame));
      }),
      { numRuns: 2000 },
    );
  });

  it('decode on random frames with a valid envelope throws nothing but DecodeError', () => {
    fc.assert(
      fc.property(fc.constantFrom(0x7878, 0x7979), fc.integer({ min: 0, max: 255 }), fc.uint8Array({ maxLength: 120 }), (header, type, body) => {
        const extended = header === 0x7979;
        const length = 1 + body.length + 4;
        const head = extended ? [0x79, 0x79, length >> 8, length & 0xff] : [0x78, 0x78, length & 0xff];
        const frame = Buffer.from([...head, type, ...body, 0, 1, 0, 0, 0x0d, 0x0a]);
        callAllowing(DecodeError, () => {
          const r = decodeGt06(frame, {});
          for (const p of r.positions) expect(p.fixTime.getTime()).not.toBeNaN();
        });
      }),
      { numRuns: 3000 },
    );
  });

  it('decode on mutated and truncated real frames throws nothing but DecodeError', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...captures),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 6 }),
        fc.nat(),
        (capture, edits, cut) => {
          const frame = Buffer.from(capture);
          for (const [at, value] of edits) frame[at % frame.length] = value;
          const truncated = frame.subarray(0, Math.max(0, frame.length - (cut % 8)));
          callAllowing(DecodeError, () => decodeGt06(truncated, {}));
          callAllowing(DecodeError, () => {
            for (const f of splitGt06Frames(truncated, MAX_FRAME).frames) decodeGt06(f, {});
          });
        },
      ),
      { numRuns: 3000 },
    );
  });
});
