import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { callAllowing, expectSanePosition, expectSplitInvariant, fuzzMutations, fuzzSplitter, hex } from '../../../test/protocol-helpers';
import { DecodeError, type DecodeResult } from '../protocol';
import { decodeJt808, encodeJt808Command, jt808Protocol, parseJt808, splitJt808Frames, unescapeJt808, type Jt808Session } from './index';

/*
 * Sources of the device messages and expected bytes:
 * - Traccar's public tests (traccar/traccar src/test/java/org/traccar/protocol/HuabaoProtocolDecoderTest.java,
 *   HuabaoFrameDecoderTest.java, HuabaoProtocolEncoderTest.java): JT/T 808-2013 terminals. Traccar
 *   asserts only some attributes (alarm names, battery level); the other values are worked out from
 *   the bytes by hand (1e-6 degree coordinates, 0.1 km/h speed, BCD time in GMT+8, items id-length-value).
 * - The JT/T 808-2019 messages and platform replies published as codec samples by the xtream-codec
 *   project (makeclan/xtream-codec debug/jt/jt-808-server-spring-boot-starter-debug-ui/src/utils/codec-utils.ts),
 *   with their decoded field values (their times are the BCD digits read as UTC; the standard's GMT+8 is applied here).
 * - Every expected acknowledgement was computed apart from this code (header, XOR check, escaping by
 *   hand); the 2019 0x8001/0x8100 replies and the 0x8105 engine stop equal the published bytes.
 */

const MAX_FRAME = 4096;
const KNOTS = 1 / 1.852;

function decode(frameHex: string, session: Jt808Session = {}): DecodeResult {
  const result = decodeJt808(hex(frameHex), session);
  for (const p of result.positions) expectSanePosition(p);
  return result;
}

function only(result: DecodeResult) {
  expect(result.positions).toHaveLength(1);
  return result.positions[0]!;
}

const LOCATION_2013 =
  '7e0200007c0191718447540dcd000000008000000b029eabc204ba78510004000000042111182321120104000017f6cc14383933303237323037303339333033383732373130011d800134810204718202008283010e84017b85021ae986012f870201788901038b114a4e31424a314352364b573333363533358c040008dcb68d02018c8e013da000c07e';
const REGISTER_2013 =
  '7E0100002D013511221122000500000000373031303748422D52303347424400000000000000000000003233363631303402CBD5424136383630387E';
const AUTH_2013 = '7E0102000E013511221122000661757468656E7469636174696F6E3F7E';
const HEARTBEAT_2013 = '7e0002000004304832546500b7ca7e';
const LOCATION_2019 =
  '7e02004026010000000001391234432900000000006f0000001601dc9a0707456246007b004200032501292233440202006401040000000c417e';
const BATCH_2019 =
  '7e0704403f01000000000139123443290000000200001c000000010000000101d907f2073d336c029a00210059241029213903001c000000010000000101d907f3073d336d03090043005a241029213903f87e';
const BATCH_2013 =
  '7E0704014301356777777707F5000801002600000000000000030159741206CBFD5001720000000116052709062401040000001D03020000002600000000000000030159746606CBFD50016B0000000116052709065301040000001D0302000000260000000000000003015975E406CBFE58013F0000000116052709072701040000001D0302000000260000000000000003015976DE06CBFF10012E0000000116052709075601040000001D0302000000260000000000000003015976BC06CBFED0012D0000000116052709083001040000001D0302000000260000000000000003015976FE06CBFEC001080000000116052709090001040000001D0302000000260000000000000003015976FE06CBFE7800FC0000000116052709093301040000001D0302000000260000000000000003015977A606CBFF3001080000000116052709100201040000001D030200001F7E';

describe('jt808 framing', () => {
  it('undoes 7d 02 and 7d 01 (Traccar HuabaoFrameDecoderTest)', () => {
    expect(unescapeJt808(hex('7e307d02087d01557e')).toString('hex')).toBe('307e087d55');
  });

  it('splits a capture identically at every byte offset, twice over', () => {
    const frames = [REGISTER_2013, AUTH_2013, HEARTBEAT_2013, LOCATION_2019, '7e307d02087d01557e'].map((f) => f.toLowerCase());
    expectSplitInvariant(splitJt808Frames, hex(frames.join('')), frames, MAX_FRAME);
  });

  it('keeps a partial frame, skips an empty 7e 7e, refuses garbage and frames past the limit', () => {
    expect(splitJt808Frames(hex('7e0002000004'), MAX_FRAME)).toMatchObject({ frames: [], rest: hex('7e0002000004') });
    expect(splitJt808Frames(hex(`7e${HEARTBEAT_2013}`), MAX_FRAME).frames.map((f) => f.toString('hex'))).toEqual([HEARTBEAT_2013]);
    expect(() => splitJt808Frames(Buffer.from('GET / HTTP/1.1'), MAX_FRAME)).toThrow(expect.objectContaining({ reason: 'bad_frame' }));
    expect(() => splitJt808Frames(Buffer.concat([hex('7e'), Buffer.alloc(64, 1)]), 64)).toThrow(
      expect.objectContaining({ reason: 'frame_too_large' }),
    );
  });

  it('reads the 2013 and 2019 headers: edition, protocol version, phone number, serial', () => {
    expect(parseJt808(hex(HEARTBEAT_2013)).header).toMatchObject({
      msgId: 2,
      v2019: false,
      terminalId: '043048325465',
      serial: 0xb7,
      packet: null,
    });
    const h2019 = parseJt808(hex(LOCATION_2019)).header;
    expect(h2019).toMatchObject({ msgId: 0x200, v2019: true, protocolVersion: 1, terminalId: '013912344329', serial: 0 });
    expect(h2019.phone.toString('hex')).toBe('00000000013912344329');
  });
});

describe('jt808 decoder', () => {
  it('0x0100 registration (2013): login with a register claim; the 0x8100 carries the code issued, or the refusal', () => {
    const session: Jt808Session = {};
    const r = decode(REGISTER_2013, session);
    expect(r).toMatchObject({ kind: 'login', deviceId: '013511221122', crcValid: true, positions: [] });
    expect(r.ack).toBeUndefined(); // the identification layer decides (frames/identity.ts)
    expect(session.deviceId).toBe('013511221122');
    if (r.identity?.kind !== 'register') throw new Error('no register claim');
    // reply serial 5, result 0, code "013511221122" (the bytes Traccar's decoder test expects for that code)
    expect(r.identity.answer({ code: '013511221122' }).toString('hex')).toBe(
      '7e8100000f0135112211220000000500303133353131323231313232b87e',
    );
    // result 3 (terminal already registered) and 4 (no such terminal), without a code (check codes XORed by hand)
    expect(r.identity.answer({ refused: 'registered' }).toString('hex')).toBe('7e810000030135112211220000000503b07e');
    expect(r.identity.answer({ refused: 'unknown' }).toString('hex')).toBe('7e810000030135112211220000000504b77e');
  });

  it('0x0102 authentication (2013): login with the code presented; 0x8001 to serial 6, result 0 when accepted, 1 when not', () => {
    const r = decode(AUTH_2013);
    expect(r.kind).toBe('login');
    expect(r.ack).toBeUndefined();
    expect(r.identity).toMatchObject({ kind: 'authenticate', code: 'authentication' });
    if (r.identity?.kind !== 'authenticate') throw new Error('no authenticate claim');
    expect(r.identity.answer(true).toString('hex')).toBe('7e8001000501351122112200000006010200b57e');
    expect(r.identity.answer(false).toString('hex')).toBe('7e8001000501351122112200000006010201b47e');
  });

  it('0x0102 authentication (2019): length-prefixed code, then IMEI and software version', () => {
    // built here after JT/T 808-2019 section 8.6: code length 6 "A1B2C3", IMEI BYTE[15], version BYTE[20]
    const body = Buffer.concat([Buffer.from([6]), Buffer.from('A1B2C3'), Buffer.from('864768011111111'), Buffer.alloc(20)]);
    const header = Buffer.alloc(17);
    header.writeUInt16BE(0x0102, 0);
    header.writeUInt16BE(body.length | 0x4000, 2);
    header.writeUInt8(1, 4);
    Buffer.from('00000000013912344329', 'hex').copy(header, 5);
    const content = Buffer.concat([header, body]);
    const check = content.reduce((x, b) => x ^ b, 0);
    const r = decode(Buffer.concat([hex('7e'), content, Buffer.from([check]), hex('7e')]).toString('hex'));
    expect(r).toMatchObject({ kind: 'login', deviceId: '013912344329', identity: { kind: 'authenticate', code: 'A1B2C3' } });
  });

  it('0x0002 heartbeat: acknowledged, nothing stored', () => {
    const r = decode(HEARTBEAT_2013);
    expect(r).toMatchObject({ kind: 'heartbeat', positions: [], deviceId: '043048325465' });
    expect(r.ack?.toString('hex')).toBe('7e80010005043048325465000000b70002004e7e');
  });

  it('0x0200 (2013): position, mileage, ICCID and signal items, west longitude from the status word', () => {
    const r = decode(LOCATION_2013);
    expect(r.kind).toBe('position');
    const p = only(r);
    expect(p).toMatchObject({
      fixTime: new Date('2021-11-18T15:21:12Z'),
      valid: true,
      latitude: 43.95309,
      longitude: -79.329361,
      speed: 0,
      course: 4,
      altitude: 4,
      ignition: true,
      odometer: 613_400,
    });
    expect(p.attributes).toMatchObject({ iccid: '89302720703930387271', rssi: 29, blocked: false });
    expect(r.ack?.toString('hex')).toBe('7e8001000501917184475400000dcd020000307e');
  });

  it('0x0200 tampering alarm (Traccar asserts ALARM_TAMPERING) with battery level item 0xFE', () => {
    const r = decode(
      '7e02000033421030000018004c000200000004000201556dcb06c4d41d000c00f100fc210118095853010400000000fe0140ff0c01cc000000002694000055d87a7e',
    );
    expect(r.kind).toBe('alarm');
    expect(r.events).toEqual([{ alarm: 'tampering' }]);
    const p = only(r);
    expect(p).toMatchObject({
      alarm: 'tampering',
      fixTime: new Date('2021-01-18T01:58:53Z'),
      latitude: 22.375883,
      longitude: 113.562653,
      course: 252,
      altitude: 12,
    });
    expect(p.speed).toBeCloseTo(24.1 * KNOTS, 6);
    expect(p.attributes.batteryLevel).toBe(64);
  });

  it('0x0200 low battery alarm (Traccar asserts ALARM_LOW_BATTERY)', () => {
    const r = decode(
      '7E020000480123456789010013000000800000000301597BC506CBFF6600EB00000155210726203531010400000000EB24000C00B28986047701207027150200060089FFFFEFFF0004002D0E10000600C5FFFFFFEF697E',
    );
    expect(only(r)).toMatchObject({
      alarm: 'lowBattery',
      latitude: 22.641605,
      longitude: 114.032486,
      course: 341,
      altitude: 235,
      ignition: true,
      fixTime: new Date('2021-07-26T12:35:31Z'),
    });
  });

  it('0x0200 vendor tail of 18 bytes: odometer km, battery 0.1 V, signal; oil circuit cut → blocked', () => {
    const p = only(
      decode('7e0200002e202000129707001c0000000000001c0601a2f0a8091f0bf00000000000ed201103031733000000000000000000780000000018000000267e'),
    );
    expect(p).toMatchObject({
      latitude: -27.455656,
      longitude: 153.029616,
      course: 237,
      battery: 12,
      fixTime: new Date('2020-11-02T19:17:33Z'),
    });
    expect(p.attributes).toMatchObject({ blocked: true, rssi: 24 });
  });

  it('0x0200 (2019): south latitude, alarm bits to Traccar names, mileage and fuel items, 2019 reply', () => {
    const r = decode(LOCATION_2019);
    const p = only(r);
    expect(p).toMatchObject({
      latitude: -31.234567,
      longitude: 121.987654,
      altitude: 123,
      course: 3,
      odometer: 1200,
      valid: true,
      ignition: false,
    });
    expect(p.fixTime.toISOString()).toBe('2025-01-29T14:33:44.000Z'); // BCD 250129223344 in GMT+8
    expect(p.speed).toBeCloseTo(6.6 * KNOTS, 6);
    expect(p.attributes).toMatchObject({ fuel: 10, alarmFlags: 111, status: 22 });
    expect(r.events?.map((e) => e.alarm)).toEqual(['sos', 'overspeed', 'gpsAntennaCut', 'fatigueDriving']);
    expect(r.ack?.toString('hex')).toBe('7e80014005010000000001391234432900000000020000b37e');
  });

  it('0x0704 batch (2019): two locations, one reply', () => {
    const r = decode(BATCH_2019);
    expect(r.positions.map((p) => [p.latitude, p.longitude, p.altitude, p.course, p.valid])).toEqual([
      [31.000562, 121.451372, 666, 89, false],
      [31.000563, 121.451373, 777, 90, false],
    ]);
    expect(r.positions[0]!.fixTime.toISOString()).toBe('2024-10-29T13:39:03.000Z');
    expect(r.positions[1]!.speed).toBeCloseTo(6.7 * KNOTS, 6);
    expect(r.ack).toBeDefined();
    expect(parseJt808(r.ack!).body.toString('hex')).toBe('0000070400');
  });

  it('0x0704 blind-area batch (2013, type 1): eight archived positions in time order', () => {
    const r = decode(BATCH_2013);
    expect(r.positions).toHaveLength(8);
    expect(r.positions.every((p) => p.attributes.archive === true)).toBe(true);
    expect(r.positions[0]).toMatchObject({
      latitude: 22.639634,
      longitude: 114.031952,
      altitude: 370,
      fixTime: new Date('2016-05-27T01:06:24Z'),
      odometer: 2900,
    });
    expect(r.positions.map((p) => p.fixTime.getTime())).toEqual([...r.positions.map((p) => p.fixTime.getTime())].sort((a, b) => a - b));
    expect(parseJt808(r.ack!).body.toString('hex')).toBe('07f5070400');
  });

  it('a location without a usable time is a state record (attributes, alarms as events)', () => {
    const frame = hex(LOCATION_2019);
    frame.fill(0, 1 + 17 + 22, 1 + 17 + 28); // zero the BCD time (after the 7e flag and the 17-byte 2019 header)
    const content = unescapeJt808(frame);
    content[content.length - 1] = content.subarray(0, content.length - 1).reduce((x, b) => x ^ b, 0);
    const r = decode(frame.toString('hex'));
    expect(r).toMatchObject({ kind: 'alarm', positions: [], crcValid: true });
    expect(r.attributes).toMatchObject({ ignition: false, fuel: 10, odometer: 1200, alarm: 'sos,overspeed,gpsAntennaCut,fatigueDriving' });
  });

  it('a frame with a wrong check code still decodes, with crcValid=false (Traccar sample cut short)', () => {
    const r = decode('7E02000032013511221122000700000000000C000301578CC006CA3A5C00470000000014072317201501040000000030011631010BD07E');
    expect(r.crcValid).toBe(false);
    expect(only(r)).toMatchObject({ latitude: 22.51488, longitude: 113.916508, satellites: 11, fixTime: new Date('2014-07-23T09:20:15Z') });
    expect(r.ack?.toString('hex')).toBe('7e8001000501351122112200000007020000b57e');
  });

  it('0x0001 terminal response: the command result', () => {
    const frame = '7e000100050135112211220009' + '001f810500';
    const content = hex(frame.slice(2));
    const check = content
      .reduce((x, b) => x ^ b, 0)
      .toString(16)
      .padStart(2, '0');
    const r = decode(`${frame}${check}7e`);
    expect(r).toMatchObject({ kind: 'result', attributes: { result: '0x8105 success' } });
    expect(r.ack).toBeUndefined();
  });

  it('refuses unknown, sub-packaged and encrypted messages with a reason', () => {
    const build = (msgAndProps: string, rest: string) => {
      const content = hex(msgAndProps + '013511221122' + '0001' + rest);
      const check = content.reduce((x, b) => x ^ b, 0);
      return Buffer.concat([hex('7e'), content, Buffer.from([check]), hex('7e')]).toString('hex');
    };
    const unknown = decode(build('08000002', 'f000')); // 0x0800 multimedia event
    expect(unknown).toMatchObject({ kind: 'ignored', ignoredReason: 'message type not supported', type: '0x0800' });
    expect(parseJt808(unknown.ack!).body.toString('hex')).toBe('0001080003');
    expect(decode(build('08012004', '000300010000')).ignoredReason).toMatch(/sub-packaged/);
    expect(decode(build('02000400', '')).ignoredReason).toMatch(/encrypted/);
  });

  it('reads a 2013 id that is not BCD as the IMEI it holds (jt808-messages.test.ts has the real ones)', () => {
    expect(decodeJt808(hex('7e00020000ffffffffffff00b7ca7e'), {}).deviceId).toBe(`${0xffffffffffff}6`);
  });
});

describe('jt808 commands', () => {
  it('engineStop is 0x8105 with word F0 (Traccar HuabaoProtocolEncoderTest bytes)', () => {
    const session: Jt808Session = { jt808: { v2019: false, protocolVersion: 0, phone: hex('080201000027') }, jt808Serial: 0x1f };
    expect(jt808Protocol.encodeCommand?.({ type: 'engineStop' }, session).toString('hex')).toBe('7e81050001080201000027001ff0467e');
  });

  it('addresses a 2019 terminal with its version and 10-byte number; message is 0x8300 display+TTS', () => {
    const session: Jt808Session = {};
    decode(LOCATION_2019, session);
    const resume = parseJt808(encodeJt808Command({ type: 'engineResume' }, session));
    expect(resume.header).toMatchObject({ msgId: 0x8105, v2019: true, protocolVersion: 1, terminalId: '013912344329' });
    expect(resume.body.toString('hex')).toBe('f1');
    const text = parseJt808(encodeJt808Command({ type: 'message', attributes: { message: 'Stop at Malaba' } }, session));
    expect(text).toMatchObject({ crcValid: true, header: { msgId: 0x8300 } });
    expect(text.body.toString('latin1')).toBe('\x0c\x01Stop at Malaba');
    expect(parseJt808(encodeJt808Command({ type: 'rebootDevice' }, session)).body.toString('hex')).toBe('04');
  });

  it('refuses commands before the terminal spoke, unknown types and non-ASCII text', () => {
    expect(() => encodeJt808Command({ type: 'engineStop' }, {})).toThrow(DecodeError);
    const session: Jt808Session = {};
    decode(HEARTBEAT_2013, session);
    expect(() => encodeJt808Command({ type: 'setSpeedLimit' }, session)).toThrow(
      expect.objectContaining({ reason: 'unsupported_command' }),
    );
    expect(() => encodeJt808Command({ type: 'message', attributes: { message: 'привет' } }, session)).toThrow(
      expect.objectContaining({ reason: 'bad_command' }),
    );
  });
});

describe('jt808 robustness (fast-check)', () => {
  const captures = [REGISTER_2013, AUTH_2013, HEARTBEAT_2013, LOCATION_2013, LOCATION_2019, BATCH_2019, BATCH_2013].map(hex);

  it('splitFrames on random bytes throws nothing but DecodeError', () => {
    fuzzSplitter(splitJt808Frames);
  });

  it('decode on random framed content throws nothing but DecodeError', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(0x0002, 0x0100, 0x0102, 0x0200, 0x0704, 0x0001, 0x0900),
        fc.boolean(),
        fc.uint8Array({ maxLength: 200 }),
        (msgId, v2019, rest) => {
          const head = Buffer.alloc(v2019 ? 17 : 12);
          head.writeUInt16BE(msgId, 0);
          head.writeUInt16BE(rest.length | (v2019 ? 0x4000 : 0), 2);
          const content = Buffer.concat([head, Buffer.from(rest), Buffer.from([0])]);
          callAllowing(DecodeError, () => {
            for (const p of decodeJt808(Buffer.concat([hex('7e'), content, hex('7e')]), {}).positions)
              expect(p.fixTime.getTime()).not.toBeNaN();
          });
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('decode on mutated and truncated real frames throws nothing but DecodeError', () => {
    fuzzMutations((f) => decodeJt808(f, {}), splitJt808Frames, captures);
  });
});
