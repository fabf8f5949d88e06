import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { callAllowing, expectSanePosition, expectSplitInvariant, hex } from '../../../test/protocol-helpers';
import { DecodeError, type DecodeResult } from '../protocol';
import { crc16X25 as crcX25 } from '../crc16';
import { decodeGt06, encodeGt06Ack, encodeGt06Packet, gt06Protocol, parseGt06Envelope, splitGt06Frames, type Gt06Session } from './index';

/*
 * Captures are real device messages from Traccar's public test data
 * (traccar/traccar src/test/java/org/traccar/protocol/Gt06ProtocolDecoderTest.java,
 * Gt06FrameDecoderTest.java and Gt06ProtocolEncoderTest.java). Traccar's tests mostly check only
 * that a message decodes; the expected values below are computed from the bytes by hand
 * (latitude/longitude = raw / 30000 / 60, speed km/h / 1.852, course = low 10 bits of the status
 * word) and cross-checked against the cell's country code.
 */

const MAX_FRAME = 1024;

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

  it('extended login: its time zone (UTC+8, zone word 0x3201) applies to the fixes that follow', () => {
    const session: Gt06Session = {};
    decode('787811010123456789012345100B3201000171930D0A', session);
    expect(session.gt06TimezoneMinutes).toBe(480);
    const p = onlyPosition(decode('787822220F0C1D023305C9027AC8180C46586000140001CC00287D001F71000001000820860D0A', session));
    expect(p.fixTime.toISOString()).toBe('2015-12-28T18:51:05.000Z'); // 02:51:05 local
  });

  it('extended login west of UTC (zone word 0x190a: UTC-4)', () => {
    const session: Gt06Session = {};
    decode('787811010864717003664467100f190a0002c6d20d0a', session);
    expect(session.gt06TimezoneMinutes).toBe(-240);
  });

  it('a location type in the 7979 long form decodes as in 7878 and is acknowledged in the 7979 form', () => {
    // Constructed from the 0x22 capture above: the same content behind a 7979 header and a fresh CRC.
    const content = hex('0F0C1D023305C9027AC8180C46586000140001CC00287D001F710000010008');
    const long = encodeGt06Packet(true, 0x22, 0x0008, content.subarray(0, content.length - 2));
    const r = decode(long.toString('hex'));
    expect(r.crcValid).toBe(true);
    expect(onlyPosition(r).latitude).toBeCloseTo(23.111693, 5);
    expect(r.ack?.toString('hex')).toBe(encodeGt06Ack(true, 0x22, 8).toString('hex'));
    expect(r.ack?.subarray(0, 2).toString('hex')).toBe('7979');
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
    const resume =
      gt06Protocol.encodeCommand?.({ type: 'engineResume', attributes: { alternative: true, password: '654321' } }, {}) ?? Buffer.alloc(0);
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
    // Wi-Fi 0x69 whose length byte counts access points, a 0x11 with three odd bytes before 0D0A,
    // a type-only packet, three 7979 frames back to back and a 7979 0x70 of 178 bytes.
    '787803691604130318491475905BD30E25001E10BBF7635D14759006E626560501CC0028660F213228660F1F2828660EA81E286610731428660F20140D0A',
    '78781511170103100e1f9904efe30400a97f88003410ffdd000d0a',
    '787801080d0a',
    '7979005bfd0358899050927725004c0020bf984358df603b2ea3a339e54335013a5b56455253494f4e5d47543036445f32305f3630444d325f423235455f5631355f574d5b4255494c445d323031332f31322f32382031353a3234002a3b240d0a',
    '7979005bfd0358899050927725004c0020bf984358df603b2ea3a339e54335013a5b56455253494f4e5d47543036445f32305f3630444d325f423235455f5631355f574d5b4255494c445d323031332f31322f32382031353a3234002d4f9b0d0a',
    '7979005bfd0358899050927725004c0020bf984358df603b2ea3a339e54335013a5b56455253494f4e5d47543036445f32305f3630444d325f423235455f5631355f574d5b4255494c445d323031332f31322f32382031353a3234003084ff0d0a',
    '797900a87000000001020035000101003300125d7e3a180600d504b598f708814b3a001d1500340006125d7e39dc000011000a012e02620000000000000001000803537601000129800002000803102608593397620003000a89012608522933976266001800020172002b000114002c00045d7df3c70009000106000a000109002800010d002e00040000f25d002a000111002900040000017e0030000a000100b4000a00b402d0000591250d0a',
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
  // One capture per decoding path (see gt06-location.test.ts and gt06-state.test.ts for their sources).
  const captures = [
    '78780D01086471700328358100093F040D0A',
    '787822220F0C1D023305C9027AC8180C46586000140001CC00287D001F71000001000820860D0A',
    '7878251613020C12141AC5027951430C2A16F60014000900000000001A00007C550300020002F1E70D0A',
    '78782b1215050d03041bcf031ff30a0be795bc001c17014e14a065dd95314504b6040000001c00000cd90ab8fb6f0d0a',
    '787808134606020002044dc5050d0a',
    '7878131302801900002e42016f000000003a0177ef180d0a',
    '7878281520000000003c49434349443a38393838323339303030303039373330323635303e00020d446f260d0a',
    '787840a218061b0e0f05cf021d22430aa2660b005c00014e140000026500000000024d4e02114504df06031c010007d00000000000086973105524576500c802a86fda0d0a',
    '787829a01707150f2d0ecd01635100041e96d000087c02d4020000912e000000000718798d000e0006ed3ce50d0a',
    '78782EA4110C0C02281BF6026C18720C38D22800149C1181CC00010000260E000000000615F8012C05041102FF001058FD0D0A',
    '78786CA1110B0413093801CC01000025FC000000000618C10201000025FC000000000618C10201000025FC000000000618C10201000025FC000000000618C10201000025FC000000000618C10201000025FC000000000618C10201000025FC000000000618C10201FF0002000541D70D0A',
    '7878412c11030b011c1f013604cb8a00b17754cb8a00bef357cb8a00b73f5fcb8900b0e25fcb8900b6655fcb8a00b74960cb8a00b178620701001801eb40393800bbbde10d0a',
    '787803691604130318491475905BD30E25001E10BBF7635D14759006E626560501CC0028660F213228660F1F2828660EA81E286610731428660F20140D0A',
    '787844F3140C0B0A262A070000DC9FDB1C1D760000C83A3569A37100008825937287000000EC41180C8209000088C39749553700003891D5604D6300003891D5604D68002EC4230D0A',
    '797900849404414c4d313d43353b414c4d323d43433b414c4d333d35433b535441313d43303b4459443d30313b534f533d303133323838333730302c2c3b43454e5445523d303133323838333730303b46454e43453d46656e63652c4f46462c302c302e3030303030302c302e3030303030302c3330302c494e206f72204f55542c313b00b79d120d0a',
    '7979003F940D110315102A202141494F494C2C30322C3030382E3239302C3032392E3630302C3531394A2C303430302C3030382E3433302C302C30302C4142001678EA0D0A',
    '797900cd8c15010d08200d013137333d302c3232333d312c3238333d30303032373464382c3436333d30303030303239352c3437333d30303030363333622c3438333d30303030303036372c3242333d30303030303030302c3244333d30303030316332302c3335333d30303030323133342c3336333d30303033626430382c3339333d30303030303336622c3330333d30303030303539362c3439333d30303030306563382c3441333d2c3341333d30303030303430352c3530333d30303030cb03850c3603c025af5414a6003fc5940d0a',
    '797900a87000000001020035000101003300125d7e3a180600d504b598f708814b3a001d1500340006125d7e39dc000011000a012e02620000000000000001000803537601000129800002000803102608593397620003000a89012608522933976266001800020172002b000114002c00045d7df3c70009000106000a000109002800010d002e00040000f25d002a000111002900040000017e0030000a000100b4000a00b402d0000591250d0a',
    '7979004a321106170c1b180cc900a875580b7ab4f00010350901fe0a007c0009112424007c000912240081004efe2100c500100f1200000000000000000000000000000000000000000000bc7c900d0a',
    '7979003e3819050e0e0c26c5010fd98e0905f53000ccab0e000302c80100000c240000000000048b08001b002e04000015c4003b020000003c0401020001021f60220d0a',
    '78789795ffff01180b0d031406da04b5ab0d08813df01ca9002c008a9200004556454e545f3836323739383035323432393038375f30303030303030305f323032345f31315f31325f32325f32305f30365f495f35362e6d70342c4556454e545f3836323739383035323432393038375f30303030303030305f323032345f31315f31325f32325f32305f30365f465f35352e6d70340037d45b0d0a',
    '78783c34000000001106190336070903107d51084889b900152e0000000043b101940b00b10000480100000000050001a3422100000001000300011bdc7b5f0d0a',
    '78782e610869412070143950190a1e0d3806c802b0eb0f0561ecdc00d80002d404000004215f0e000001395581000d1ca60d0a',
    '79790037f26718e389000b0a0423027aca200c465a60000a001d01c4a82828ccfe0000024254425554544f4e2c412c53233136382c35340016a1eb0d0a',
    '78783c22010357789648774484180c06142038180c06142038cb03313ee4061fe98300185e090000000000000000460984284c000200000000017101d6f35d0d0a',
    '78782E2A0F0C1D071139CA027AC8000C4658000014D83132353230313335333231373730373900000000000001002A6ECE0D0A',
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
      fc.property(
        fc.constantFrom(0x7878, 0x7979),
        fc.integer({ min: 0, max: 255 }),
        fc.uint8Array({ maxLength: 120 }),
        (header, type, body) => {
          const extended = header === 0x7979;
          const length = 1 + body.length + 4;
          const head = extended ? [0x79, 0x79, length >> 8, length & 0xff] : [0x78, 0x78, length & 0xff];
          const frame = Buffer.from([...head, type, ...body, 0, 1, 0, 0, 0x0d, 0x0a]);
          callAllowing(DecodeError, () => {
            const r = decodeGt06(frame, {});
            for (const p of r.positions) expect(p.fixTime.getTime()).not.toBeNaN();
          });
        },
      ),
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
          callAllowing(DecodeError, () => decodeGt06(truncated, { deviceId: '357789648774484' }));
          callAllowing(DecodeError, () => {
            for (const f of splitGt06Frames(truncated, MAX_FRAME).frames) decodeGt06(f, { deviceId: '357789648774484' });
          });
        },
      ),
      { numRuns: 3000 },
    );
  });
});
