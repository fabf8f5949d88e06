import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { callAllowing, expectSanePosition, expectSplitInvariant, hex } from '../../../test/protocol-helpers';
import { DecodeError, type DecodeResult, type ProtocolSession } from '../protocol';
import { crc16Arc as crc16Ibm } from '../crc16';
import { decodeTeltonika, decodeTeltonikaUdp, splitTeltonikaFrames, teltonikaProtocol } from './index';

/*
 * Captures are real device messages from Traccar's public test data
 * (traccar/traccar src/test/java/org/traccar/protocol/TeltonikaProtocolDecoderTest.java).
 * Traccar's test only checks that they decode; the expected values below are computed from the
 * bytes by hand (timestamp ms, lon/lat signed / 1e7, speed km/h / 1.852, IO values per the
 * Teltonika FMB parameter list).
 */

const MAX_FRAME = 65_536;
const KNOTS = 1 / 1.852;
const IMEI_FRAME = '000F313233343536373839303132333435';

const CODEC8_ONE =
  '000000000000004c08010000016818d500580009c28d9f1cb3757a00be00c60f0053000f06f0011503c80001011d00fc0007423799180053cdf80dce426f430f88190bb8560bb802f100005aa110002887e000010000ee8d';
const CODEC8E_ONE =
  '00000000000000818e0100000166e368a510000f0d8b5b20961c35008d010308000000000014000900ef0000f00100500100150400c800004501001e00002500002900000a00b5000800b60007004230dc0018000000430fcb0044005f001103de001200e50013001200240000000000000001010000113141314a433534343452373235323336370100005e99';
const CODEC16_ONE =
  '000000000000009F100100000164D855401800D5E3B744EC11C762023B011A060000000007200A010000010500010600010D00010E00010F00011600011700011800011F001301010000010700000108000001090000010A0000010B0000010C000001100000011100000112000001130000011400000115000001190000011A0000011B0000011C0000011D0000011E000003010200000000010300000000010400000000000100000D3B';
const CODEC8E_ALARM =
  '00000000000000b98e0200000179555c7bf8010b3a1cfbebc142b00000000000000000ec000f000900f00000150000c80000450200710100740001070100fa0000ec01000500b500000018000000430d560044000000190000000100f1000000000000000000000179555c83c8010b3a1cfbebc142b0000000000000000185000f000900f00000150000c80000450200710100740001070100fa00018511000500b500000018000000430d560044000000190000000100f100000000000000000200003251';
const CODEC8_THREE =
  '00000000000000da08030000017fcedf499600280431be0eded45d0038012d100000fa100901000200b300b4004501500415034702fa00054232a1180000cd3b2fce281d43001f02c700000006f10000a029000000017fcedea99600280432070eded3dd00380046130009000f0801010200b300b400450150051502470205423276180009cd3b2fce281d43001f02c700000027f10000a0290000000179d50853180027f65d3f0ed67212001500f1110061000f0801010200b300b4004501500515034702054234f4180061cd53d1ce28c043003e02c700000147f1000000290003000052cb';
const CODEC8_NEGATIVE_ALT =
  '000000000000002b080100000140d4e3ec6e000cc661d01674a5e0fffc00000900000004020100f0000242322318000000000100007a04';
// Codec 7 (GH3000), two records.
const CODEC7_TWO =
  '000000000000003107024c61410b013f4231c2c141d0beb9003d000005006483ff4c6140eb013f4231c2c141d0beb9003d000005006483ff02000041df';
const CODEC12_RESPONSE =
  '000000000000004f0c01060000004755555555777730362e343b30342e323b30302e303b30302e303b30302e303b30302e303b30302e303b30302e303b30312e333b30302e303b31302e373b30302e303b5353530d0a010000e371';
const CODEC13_RESPONSE = '00000000000000170D01050000000F0000016C0A81C320676574696E666F0100006855';
// Teltonika Data Sending Protocols wiki, Codec 14 example: the device's ACK to `getver`.
const CODEC14_ACK =
  '00000000000000AB0E0106000000A303520930814522515665723A30332E31382E31345F3034204750533A41584E5F352E31305F333333332048773A464D42313230204D6F643A313520494D45493A33353230393330383134353232353120496E69743A323031382D31312D323220373A313320557074696D653A3137323334204D41433A363042444430303136323631205350433A312830292041584C3A30204F42443A3020424C3A312E362042543A340100007AAE';
const UDP_CODEC8 =
  '0049cafe0122000f33353734353430373237313339373508010000015d3766f6a800003eef961ec6215e0063006d09003100070401000200f001c8000242381c18003201c7000000e10001';

function decode(frameHex: string, session: ProtocolSession = { deviceId: '123456789012345' }): DecodeResult {
  const result = decodeTeltonika(hex(frameHex), session);
  for (const p of result.positions) expectSanePosition(p);
  return result;
}

function first(result: DecodeResult) {
  const [p] = result.positions;
  if (!p) throw new Error('no position');
  return p;
}

/** Builds a codec 8 TCP packet with one record and the given 1-byte IO elements (for alarm-table checks). */
function codec8WithIo(io: [number, number][]): Buffer {
  const record = Buffer.alloc(8 + 1 + 4 + 4 + 2 + 2 + 1 + 2 + 2 + 1 + io.length * 2 + 3);
  let at = 0;
  record.writeBigUInt64BE(BigInt(Date.UTC(2024, 0, 2, 3, 4, 5)), at);
  at += 9; // timestamp + priority 0
  record.writeInt32BE(368_219_000, at); // lon 36.8219 (Nairobi)
  record.writeInt32BE(-12_864_000, at + 4); // lat -1.2864
  at += 8;
  record.writeInt16BE(1661, at);
  record.writeUInt16BE(90, at + 2);
  record.writeUInt8(11, at + 4);
  record.writeUInt16BE(60, at + 5);
  at += 7;
  record.writeUInt8(io[0]?.[0] ?? 0, at++); // event id
  record.writeUInt8(io.length, at++); // total
  record.writeUInt8(io.length, at++); // N1
  for (const [id, value] of io) {
    record.writeUInt8(id, at++);
    record.writeUInt8(value, at++);
  }
  // N2, N4, N8 = 0 (already zero)
  const data = Buffer.concat([Buffer.from([0x08, 0x01]), record, Buffer.from([0x01])]);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 4);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc16Ibm(data), 0);
  return Buffer.concat([head, data, crc]);
}

describe('teltonika CRC-16/IBM', () => {
  it('matches the catalogue check value (CRC-16/ARC)', () => {
    expect(crc16Ibm(Buffer.from('123456789', 'ascii'))).toBe(0xbb3d);
  });

  it('matches the CRC field of a real packet', () => {
    const frame = hex(CODEC8_ONE);
    expect(crc16Ibm(frame.subarray(8, frame.length - 4))).toBe(frame.readUInt32BE(frame.length - 4));
  });
});

describe('teltonika TCP decoder', () => {
  it('IMEI handshake sets the session device and answers 0x01', () => {
    const session: ProtocolSession = {};
    const r = decode(IMEI_FRAME, session);
    expect(r.kind).toBe('login');
    expect(r.deviceId).toBe('123456789012345');
    expect(session.deviceId).toBe('123456789012345');
    expect(r.ack?.toString('hex')).toBe('01');
  });

  it('codec 8, one record: position, IO table, ack = record count', () => {
    const r = decode(CODEC8_ONE);
    expect(r.kind).toBe('position');
    expect(r.crcValid).toBe(true);
    expect(r.ack?.toString('hex')).toBe('00000001');
    const p = first(r);
    expect(p.deviceId).toBe('123456789012345');
    expect(p.fixTime.toISOString()).toBe(new Date(0x0000016818d50058).toISOString());
    expect(p.fixTime.toISOString()).toBe('2019-01-04T12:27:19.000Z');
    expect(p.longitude).toBe(16.3745183);
    expect(p.latitude).toBe(48.1523066);
    expect(p.altitude).toBe(190);
    expect(p.course).toBe(198);
    expect(p.satellites).toBe(15);
    expect(p.speed).toBeCloseTo(83 * KNOTS, 6);
    expect(p.power).toBeCloseTo(14.233, 3); // IO 66 = 0x3799 mV
    expect(p.battery).toBeCloseTo(3.976, 3); // IO 67 = 0x0f88 mV
    expect(p.odometer).toBe(0x002887e0); // IO 16
    expect(p.attributes).toMatchObject({ motion: true, rssi: 3, in1: true, operator: 23201, io29: 0 });
  });

  it('codec 8 Extended: 2-byte ids, variable-length VIN, ignition, hdop', () => {
    const p = first(decode(CODEC8E_ONE));
    expect(p.fixTime.toISOString()).toBe('2018-11-05T10:26:18.000Z');
    expect(p.latitude).toBe(54.6708533);
    expect(p.longitude).toBe(25.2545883);
    expect(p.ignition).toBe(false);
    expect(p.hdop).toBeCloseTo(0.7, 6);
    expect(p.attributes.pdop).toBeCloseTo(0.8, 6);
    expect(p.power).toBeCloseTo(12.508, 3);
    expect(p.attributes.vin).toBe('1A1JC5444R7252367');
  });

  it('codec 16: generation type and 2-byte ids', () => {
    const r = decode(CODEC16_ONE);
    const p = first(r);
    expect(p.fixTime.toISOString()).toBe('2018-07-26T20:43:43.000Z');
    expect(p.latitude).toBe(-33.4379166);
    expect(p.longitude).toBe(-70.64967);
    expect(p.altitude).toBe(571);
    expect(p.course).toBe(282);
    expect(p.attributes.generationType).toBe(7);
    expect(p.attributes.io256).toBe(0);
    expect(r.ack?.toString('hex')).toBe('00000001');
  });

  it('codec 8 Extended with IO 236 set raises a general alarm', () => {
    const r = decode(CODEC8E_ALARM);
    expect(r.positions).toHaveLength(2);
    expect(r.kind).toBe('alarm');
    expect(r.events).toEqual([{ alarm: 'general' }]);
    const p = first(r);
    expect(p.alarm).toBe('general');
    expect(p.valid).toBe(false); // no satellites
    expect(p.fixTime.toISOString()).toBe('2021-05-10T08:19:55.000Z');
    expect(p.latitude).toBe(-33.9656016);
    expect(p.longitude).toBe(18.8357883);
    expect(r.ack?.toString('hex')).toBe('00000002');
  });

  it('codec 8 with three records keeps their order and millisecond times', () => {
    const r = decode(CODEC8_THREE);
    expect(r.positions.map((p) => p.fixTime.toISOString())).toEqual([
      '2022-03-28T04:53:34.230Z',
      '2022-03-28T04:52:53.270Z',
      '2021-06-04T03:19:23.160Z',
    ]);
    expect(r.positions[1]?.speed).toBeCloseTo(9 * KNOTS, 6);
    expect(r.positions[2]?.latitude).toBe(24.893493);
    expect(r.positions[2]?.longitude).toBe(67.0457151);
    expect(r.ack?.toString('hex')).toBe('00000003');
  });

  it('codec 8 with a negative altitude', () => {
    const p = first(decode(CODEC8_NEGATIVE_ALT));
    expect(p.altitude).toBe(-4);
    expect(p.fixTime.toISOString()).toBe('2013-08-31T15:00:41.710Z');
    expect(p.latitude).toBe(37.6743392);
    expect(p.longitude).toBe(21.432776);
  });

  it('codec 12 axle-load report: device state (axle loads, truck and trailer totals), no ack', () => {
    const r = decode(CODEC12_RESPONSE);
    expect(r.kind).toBe('state');
    expect(r.type).toBe('codec12');
    expect(r.positions).toEqual([]);
    expect(r.ack).toBeUndefined();
    expect(r.attributes).toMatchObject({
      axle1: 6.4,
      axle2: 4.2,
      axle3: 0,
      loadTruck: 1.3,
      loadTrailer: 0,
      totalTruck: 10.7,
      totalTrailer: 0,
    });
  });

  it('codec 14 ACK (Teltonika wiki example): the reply as a command result, the IMEI kept, no ack', () => {
    const r = decode(CODEC14_ACK);
    expect(r.kind).toBe('result');
    expect(r.type).toBe('codec14');
    expect(r.ack).toBeUndefined();
    expect(r.crcValid).toBe(true);
    expect(r.attributes?.result).toBe(
      'Ver:03.18.14_04 GPS:AXN_5.10_3333 Hw:FMB120 Mod:15 IMEI:352093081452251 Init:2018-11-22 7:13 Uptime:17234 MAC:60BDD0016261 SPC:1(0) AXL:0 OBD:0 BL:1.6 BT:4',
    );
    expect(r.attributes).toMatchObject({ imei: '352093081452251', type: 6 });
  });

  it('codec 14 nACK (built per the wiki layout: type 0x11, the IMEI and no text): a failed command result', () => {
    const data = Buffer.concat([hex('0e0111 00000008 0352093081452251 01')]);
    const frame = Buffer.concat([hex('00000000'), Buffer.alloc(4), data, Buffer.alloc(4)]);
    frame.writeUInt32BE(data.length, 4);
    frame.writeUInt32BE(crc16Ibm(data), 8 + data.length);
    const r = decodeTeltonika(frame, { deviceId: '352093081452251' });
    expect(r.kind).toBe('result');
    expect(r.attributes?.result).toContain('nACK');
    expect(r.attributes?.imei).toBe('352093081452251');
  });

  it('codec 13 command response with a millisecond timestamp', () => {
    expect(decode(CODEC13_RESPONSE).attributes?.result).toBe('getinfo');
  });

  it('maps alarm IO elements through the table (unplug, towing, green driving)', () => {
    const r = decodeTeltonika(
      codec8WithIo([
        [252, 1],
        [246, 1],
        [253, 2],
        [239, 1],
      ]),
      { deviceId: '1' },
    );
    const p = first(r);
    expectSanePosition(p);
    expect(p.alarm).toBe('powerCut,tow,hardBraking');
    expect(r.events).toEqual([{ alarm: 'powerCut' }, { alarm: 'tow' }, { alarm: 'hardBraking' }]);
    expect(p.ignition).toBe(true);
    expect(p.latitude).toBe(-1.2864);
    expect(p.longitude).toBe(36.8219);
    expect(p.speed).toBeCloseTo(60 * KNOTS, 6);
    expect(p.fixTime.toISOString()).toBe('2024-01-02T03:04:05.000Z');
  });

  it('unknown IO ids land in io<ID>', () => {
    const p = first(decodeTeltonika(codec8WithIo([[222, 7]]), { deviceId: '1' }));
    expect(p.attributes.io222).toBe(7);
  });

  it('wrong CRC still decodes, with crcValid=false', () => {
    const frame = hex(CODEC8_ONE);
    frame[frame.length - 1] = (frame[frame.length - 1] ?? 0) ^ 0x55;
    const r = decodeTeltonika(frame, { deviceId: '1' });
    expect(r.crcValid).toBe(false);
    expect(first(r).latitude).toBe(48.1523066);
  });

  it('keep-alive 0xFF is a heartbeat', () => {
    expect(decodeTeltonika(Buffer.from([0xff]), {}).kind).toBe('heartbeat');
  });

  it('rejects non-digit IMEIs and unsupported codecs with DecodeError', () => {
    expect(() => decodeTeltonika(hex('0003414243'), {})).toThrow(DecodeError);
    const codec9 = hex('0000000000000003090000' + '00000000');
    expect(() => decodeTeltonika(codec9, {})).toThrow(expect.objectContaining({ reason: 'unsupported_codec' }));
  });
});

describe('teltonika UDP decoder', () => {
  it('decodes the in-packet IMEI and acknowledges packet id, AVL packet id and count', () => {
    const r = decodeTeltonikaUdp(hex(UDP_CODEC8));
    expect(r.deviceId).toBe('357454072713975');
    expect(r.ack?.toString('hex')).toBe('0005cafe012201');
    const p = first(r);
    expectSanePosition(p);
    expect(p.deviceId).toBe('357454072713975');
    expect(p.fixTime.toISOString()).toBe('2017-07-12T15:24:41.000Z');
    expect(p.latitude).toBe(51.630115);
    expect(p.longitude).toBe(0.4124566);
    expect(p.speed).toBeCloseTo(49 * KNOTS, 6);
    expect(p.power).toBeCloseTo(14.364, 3);
  });

  it('rejects a length field longer than the datagram', () => {
    expect(() => decodeTeltonikaUdp(hex('00ffcafe0122000f3335'))).toThrow(DecodeError);
  });
});

describe('teltonika frame splitter', () => {
  const frames = [IMEI_FRAME, CODEC8_ONE, 'ff', CODEC8E_ONE, CODEC16_ONE, CODEC12_RESPONSE, CODEC14_ACK, CODEC8_THREE].map((f) =>
    f.toLowerCase(),
  );

  it('splits a session capture identically at every byte offset, twice over', () => {
    expectSplitInvariant(splitTeltonikaFrames, hex(frames.join('')), frames, MAX_FRAME);
  });

  it('throws bad_frame for garbage and frame_too_large for huge declared lengths', () => {
    expect(() => splitTeltonikaFrames(hex('474554202f20485454502f312e31'), MAX_FRAME)).toThrow(
      expect.objectContaining({ reason: 'bad_frame' }),
    );
    expect(() => splitTeltonikaFrames(hex('00000001000000100801'), MAX_FRAME)).toThrow(expect.objectContaining({ reason: 'bad_frame' }));
    expect(() => splitTeltonikaFrames(hex('000000007fffffff08'), MAX_FRAME)).toThrow(
      expect.objectContaining({ reason: 'frame_too_large' }),
    );
  });

  it('is the splitter of the protocol object', () => {
    expect(teltonikaProtocol.splitFrames).toBe(splitTeltonikaFrames);
    expect(teltonikaProtocol.transport).toEqual(['tcp', 'udp']);
  });
});

describe('teltonika robustness (fast-check)', () => {
  const captures = [
    CODEC8_ONE,
    CODEC8E_ONE,
    CODEC16_ONE,
    CODEC8E_ALARM,
    CODEC12_RESPONSE,
    CODEC13_RESPONSE,
    CODEC14_ACK,
    CODEC8_THREE,
    CODEC7_TWO,
    IMEI_FRAME,
  ].map(hex);

  it('splitFrames on random bytes throws nothing but DecodeError', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), fc.integer({ min: 1, max: 4096 }), (bytes, maxFrame) => {
        callAllowing(DecodeError, () => splitTeltonikaFrames(Buffer.from(bytes), maxFrame));
      }),
      { numRuns: 2000 },
    );
  });

  it('decode on random AVL payloads throws nothing but DecodeError', () => {
    fc.assert(
      fc.property(fc.constantFrom(0x07, 0x08, 0x8e, 0x10, 0x0c, 0x0d, 0x0e), fc.uint8Array({ maxLength: 300 }), (codec, payload) => {
        const data = Buffer.concat([Buffer.from([codec]), Buffer.from(payload)]);
        const frame = Buffer.concat([Buffer.alloc(8), data, Buffer.alloc(4)]);
        frame.writeUInt32BE(data.length, 4);
        callAllowing(DecodeError, () => decodeTeltonika(frame, {}));
        const udp = Buffer.concat([hex('0000cafe0122000f333537343534303732373133393735'), data]);
        udp.writeUInt16BE(udp.length - 2, 0);
        callAllowing(DecodeError, () => decodeTeltonikaUdp(udp));
      }),
      { numRuns: 3000 },
    );
  });

  it('decode on mutated real packets throws nothing but DecodeError', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...captures),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 6 }),
        fc.nat(),
        (capture, edits, cut) => {
          const frame = Buffer.from(capture);
          for (const [at, value] of edits) frame[at % frame.length] = value;
          const truncated = frame.subarray(0, Math.max(0, frame.length - (cut % 10)));
          callAllowing(DecodeError, () => decodeTeltonika(truncated, {}));
          callAllowing(DecodeError, () => {
            for (const f of splitTeltonikaFrames(truncated, MAX_FRAME).frames) decodeTeltonika(f, {});
          });
        },
      ),
      { numRuns: 3000 },
    );
  });
});
