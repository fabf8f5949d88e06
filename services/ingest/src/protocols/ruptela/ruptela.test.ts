import { describe, expect, it } from 'vitest';
import { expectSanePosition, expectSplitInvariant, fuzzMutations, fuzzSplitter, hex } from '../../../test/protocol-helpers';
import { DecodeError, type DecodeResult } from '../protocol';
import { crc16Kermit } from '../crc16';
import { decodeRuptela, encodeRuptela, encodeRuptelaCommand, ruptelaProtocol, splitRuptelaFrames } from './index';

/*
 * Device messages from Traccar's public tests (traccar/traccar
 * src/test/java/org/traccar/protocol/RuptelaProtocolDecoderTest.java and RuptelaProtocolEncoderTest.java).
 * Traccar checks only that they decode; the values below are read from the bytes by hand (unix
 * seconds, 1e-7 degree coordinates, altitude 0.1 m, angle 0.01 degree, speed km/h, IO ids as the
 * Ruptela IO list). The acknowledgements and command frames were computed apart from this code
 * (CRC-16/KERMIT by hand); the custom command equals Traccar's encoder test bytes.
 */
const MAX_FRAME = 2048;
const KNOTS = 1 / 1.852;

const IDENTIFICATION = '002e000315bc70d3e2ff0f4f42443130302e30312e30382e30300000c2b30ea77e430000601b000001f40000003c00144aa0';
const SMS_REPLY =
  '0044000313612d76c5cb0744494e313d312c44494e323d302c44494e333d302c44494e343d302c444f5554313d312c444f5554323d312c41494e313d31372c41494e323d3236ac80';
/** Command 1, one record near Tema, Ghana (operator 62002). */
const RECORDS_GHANA =
  '0050000310f5615f419c0100015613d8ed0000fff5b37a035af37801e700000900000d07071b0c020003001c01202cad000500064302a81d33e61e100116317cd3ffff174ad60241000077fa960000f232003c2e';
/** Command 1, five records a minute apart. */
const RECORDS_FIVE =
  '009200000c07a6bacd4701000552db5cc20000187b8b251ace478e087c044c0a000009070000000052db5cfe0000187b8ab01ace47190879044c0900000b070000000052db5d3a0000187b8b251ace474b089d044c09000009070000000052db5d760000187b8b9a1ace475c08cd044c08000009070000000052db5db20000187b8b141ace46e708b3044c08000009070000000041cb';
/** Command 68, four records merged into one (record extension 0x30..0x33). */
const EXTENDED =
  '01a4000315bc70f9b69244000458068f4a0030000d11398a1c0c19fd056524040b000c0a00090c0005010031f40032fd0033f200ce47002400002500001c010199000195010196010086000900aa0000001e0ff000d3ffff0043ffff01930000019200000194000002220000022300000200300000000200af000e872401008e000000000000000058068f4a0031000d11398a1c0c19fd056524040b000c0a00090400870000880000a90000820010008b0002021e0000021f0000021d0000021c0000022400000225000000890000008505f00220000002210000008300000084000002260000022700000228000003008a00000000008d00000000008c000000000058068f4a0032000d11398a1c0c19fd056524040b000c0a000905019f01005800001b1f00ad0000cfb10b02290000022a0000022b0000022c0000022d00000012000000130000001d367400c52f8000740055023e0502060097000000000096000058520041007746cb00d0000003f1005c0007c21b0072001864880058068f4a0033000d11398a1c0c19fd056524040b000c0a000900000001008e0000000000000000e815';

function decode(frameHex: string): DecodeResult {
  const r = decodeRuptela(hex(frameHex), {});
  for (const p of r.positions) expectSanePosition(p);
  return r;
}

/** A device frame around `payload`, with its length and CRC. */
function deviceFrame(payload: Buffer): Buffer {
  const out = Buffer.alloc(payload.length + 4);
  out.writeUInt16BE(payload.length, 0);
  payload.copy(out, 2);
  out.writeUInt16BE(crc16Kermit(payload), payload.length + 2);
  return out;
}

describe('ruptela framing', () => {
  it('CRC-16/KERMIT matches the catalogue check value and the captures', () => {
    expect(crc16Kermit(Buffer.from('123456789'))).toBe(0x2189);
    for (const f of [IDENTIFICATION, RECORDS_GHANA, EXTENDED].map(hex))
      expect(crc16Kermit(f.subarray(2, f.length - 2))).toBe(f.readUInt16BE(f.length - 2));
  });

  it('splits a capture identically at every byte offset, twice over', () => {
    const frames = [IDENTIFICATION, RECORDS_GHANA, SMS_REPLY, RECORDS_FIVE];
    expectSplitInvariant(splitRuptelaFrames, hex(frames.join('')), frames, MAX_FRAME);
  });

  it('keeps a partial frame and refuses zero lengths and frames past the limit', () => {
    expect(splitRuptelaFrames(hex('002e000315bc'), MAX_FRAME).rest.toString('hex')).toBe('002e000315bc');
    expect(() => splitRuptelaFrames(hex('0000aa'), MAX_FRAME)).toThrow(expect.objectContaining({ reason: 'bad_frame' }));
    expect(() => splitRuptelaFrames(hex('ffff00'), MAX_FRAME)).toThrow(expect.objectContaining({ reason: 'frame_too_large' }));
  });
});

describe('ruptela decoder', () => {
  it('identification (15): login with the IMEI, ack 115 01', () => {
    const session = {};
    const r = decodeRuptela(hex(IDENTIFICATION), session);
    expect(r).toMatchObject({ kind: 'login', deviceId: '868324021101311', crcValid: true, positions: [] });
    expect(session).toEqual({ deviceId: '868324021101311' });
    expect(r.ack?.toString('hex')).toBe('00027301cb25');
  });

  it('heartbeat (16): ack 116 01', () => {
    const r = decodeRuptela(deviceFrame(hex('000315bc70d3e2ff10')), {});
    expect(r).toMatchObject({ kind: 'heartbeat', deviceId: '868324021101311' });
    expect(r.ack?.toString('hex')).toBe('00027401862d');
  });

  it('records (1): fix, IO elements under Traccar keys (power, battery, odometer, temperature, operator), ack 100 01', () => {
    const r = decode(RECORDS_GHANA);
    expect(r).toMatchObject({ kind: 'position', deviceId: '863071016796572' });
    expect(r.positions).toHaveLength(1);
    const p = r.positions[0]!;
    expect(p).toMatchObject({
      fixTime: new Date('2015-10-06T14:21:33Z'),
      valid: true,
      latitude: 5.6292216,
      longitude: -0.067495,
      altitude: 48.7,
      course: 0,
      satellites: 9,
      hdop: 1.3,
      speed: 0,
      power: 13.286,
      battery: 4.097,
      odometer: 30_714,
    });
    expect(p.attributes).toMatchObject({ event: 7, deviceTemp: 44, operator: 62002, motion: false, adc1: 12668, in1: 0 });
    expect(r.ack?.toString('hex')).toBe('0002640113bc');
  });

  it('records (1): five fixes a minute apart', () => {
    const r = decode(RECORDS_FIVE);
    expect(r.positions.map((p) => p.fixTime.toISOString())).toEqual(
      ['05:04:02', '05:05:02', '05:06:02', '05:07:02', '05:08:02'].map((t) => `2014-01-19T${t}.000Z`),
    );
    expect(r.positions[0]).toMatchObject({
      latitude: 44.972635,
      longitude: 41.0749733,
      altitude: 217.2,
      course: 11,
      satellites: 10,
      hdop: 0.9,
    });
  });

  it('extended records (68): the four merged records make one position with all their IO elements', () => {
    const r = decode(EXTENDED);
    expect(r.positions).toHaveLength(1);
    const p = r.positions[0]!;
    expect(p).toMatchObject({
      fixTime: new Date('2016-10-18T21:08:26Z'),
      latitude: 47.0555133,
      longitude: 21.923265,
      altitude: 138.1,
      course: 92.2,
      satellites: 11,
      hdop: 1,
    });
    expect(p.speed).toBeCloseTo(12 * KNOTS, 6);
    // IO of the first record (battery io30), the third (power io29, odometer io65), and the event id WORD
    expect(p).toMatchObject({ battery: 4.08, power: 13.94, odometer: 7_816_907 });
    expect(p.attributes.event).toBe(9);
    expect(r.ack?.toString('hex')).toBe('0002640113bc');
  });

  it('a record without a fix (INT32_MIN coordinates) is a state record', () => {
    const payload = hex(RECORDS_GHANA).subarray(2, -2);
    payload.writeUInt32BE(0x80000000, 9 + 2 + 6); // longitude of the first record (after IMEI, command, left, count, time, extension, priority)
    const r = decodeRuptela(deviceFrame(payload), {});
    expect(r).toMatchObject({ kind: 'state', positions: [], crcValid: true, deviceTime: new Date(0x5613d8ed * 1000) });
    expect(r.attributes).toMatchObject({ event: 7, power: 13.286, operator: 62002 });
    expect(r.ack?.toString('hex')).toBe('0002640113bc');
  });

  it('IO alarms (jamming 88, hard braking 134, tampering 758) become alarms and events', () => {
    // one record, extended: ids are WORDs; 1-byte group holds 88=1, 134=1 and 758=1
    const record = hex(
      '58068f4a' +
        '00' +
        '00' +
        '00' +
        '0d11398a' +
        '1c0c19fd' +
        '0565' +
        '2404' +
        '0b' +
        '000c' +
        '0a' +
        '0009' +
        '03' +
        '005801' +
        '008601' +
        '02f601' +
        '00' +
        '00' +
        '00',
    );
    const payload = Buffer.concat([hex('000315bc70f9b692' + '44' + '00' + '01'), record]);
    const r = decodeRuptela(deviceFrame(payload), {});
    expect(r.kind).toBe('alarm');
    expect(r.positions[0]!.alarm).toBe('jamming,hardBraking,tampering');
    expect(r.events).toEqual([{ alarm: 'jamming' }, { alarm: 'hardBraking' }, { alarm: 'tampering' }]);
  });

  it('SMS-via-GPRS reply (7): command result text', () => {
    expect(decode(SMS_REPLY)).toMatchObject({
      kind: 'result',
      attributes: { result: 'DIN1=1,DIN2=0,DIN3=0,DIN4=0,DOUT1=1,DOUT2=1,AIN1=17,AIN2=26' },
    });
  });

  it('a wrong CRC still decodes with crcValid=false; unsupported commands are refused with a reason', () => {
    const frame = hex(RECORDS_GHANA);
    frame.writeUInt8(frame.readUInt8(frame.length - 1) ^ 0xff, frame.length - 1);
    expect(decodeRuptela(frame, {})).toMatchObject({ crcValid: false, kind: 'position' });
    expect(decodeRuptela(deviceFrame(hex('000315bc70f9b692' + '25' + '0200')), {})).toMatchObject({
      kind: 'ignored',
      type: '37',
      ignoredReason: 'file (photo) transfer not supported',
    });
    expect(decodeRuptela(deviceFrame(hex('000315bc70f9b692' + '12' + '00')), {})).toMatchObject({
      kind: 'ignored',
      type: '18',
      ignoredReason: 'message type not supported',
    });
    // Traccar's message whose length field does not count its payload cannot be a frame
    expect(() => decodeRuptela(hex('0011000315A07F440B1D07534554494f20636f6e66696775726174696f6e2064617461206f6b341C'), {})).toThrow(
      DecodeError,
    );
  });
});

/*
 * Two of Traccar's messages carry a length field that does not count their payload (0x0011 for 36
 * bytes, 0x000B for 48; their CRCs match the payload): Traccar's decoder test skips its frame
 * decoder, which on a connection would cut them short. With the length corrected they are a
 * configuration reply (2 is the command in the first; 7 the SMS-via-GPRS one) and trouble codes.
 */
function relength(frameHex: string): string {
  const b = hex(frameHex);
  b.writeUInt16BE(b.length - 4, 0);
  return b.toString('hex');
}
const TEXT_REPLY_7 = relength('0011000315A07F440B1D07534554494f20636f6e66696775726174696f6e2064617461206f6b341C');
const DTCS = relength('000B00000B1A29F64B1A0902FF4E9CAF2C07D608F11A1480BA015030303130FF4E9CAF2C07D608F11A1480BA0250303031318C91');

describe('ruptela further messages', () => {
  it('trouble codes (9): a position per code, the stored one archived, ack 109 01', () => {
    const r = decode(DTCS);
    expect(r).toMatchObject({ kind: 'position', type: '9' });
    expect(r.ack?.toString('hex')).toBe('00026d01c4a4'); // the bytes Traccar sends
    expect(r.positions.map((p) => [p.fixTime.toISOString(), p.attributes.dtcs, p.attributes.archive ?? false])).toEqual([
      ['2011-10-17T22:41:48.000Z', 'P0010', false],
      ['2011-10-17T22:41:48.000Z', 'P0011', true],
    ]);
    expect(r.positions[0]).toMatchObject({ longitude: expect.closeTo(0x07d608f1 / 1e7, 7), latitude: expect.closeTo(0x1a1480ba / 1e7, 7) });
  });

  it('configuration reply text (7 here): the command result', () => {
    expect(decode(TEXT_REPLY_7)).toMatchObject({ kind: 'result', type: '7', attributes: { result: 'SETIO configuration data ok' } });
  });

  it('set-connection (5), set-odometer (6) and set-IO (17) replies: their status byte as the result', () => {
    for (const [command, status] of [
      ['05', '01'],
      ['06', '01'],
      ['11', '00'],
    ] as const) {
      expect(decodeRuptela(deviceFrame(hex('000315bc70f9b692' + command + status)), {})).toMatchObject({
        kind: 'result',
        type: String(parseInt(command, 16)),
        attributes: { result: String(Number(status)) },
      });
    }
  });
});

describe('ruptela commands', () => {
  it('custom is SMS-via-GPRS (108) carrying the text (Traccar RuptelaProtocolEncoderTest bytes)', () => {
    expect(ruptelaProtocol.encodeCommand?.({ type: 'custom', attributes: { data: ' Setio 2,1' } }, {}).toString('hex')).toBe(
      '000b6c20536574696f20322c31eb3e',
    );
  });

  it('getVersion, outputControl and setOdometer', () => {
    expect(encodeRuptelaCommand({ type: 'getVersion' }, {}).toString('hex')).toBe('00016717b9');
    expect(encodeRuptelaCommand({ type: 'outputControl', attributes: { index: 2, data: '1' } }, {}).toString('hex')).toBe(
      '00097500000002000000019bd7',
    );
    expect(encodeRuptelaCommand({ type: 'setOdometer', attributes: { data: 1000 } }, {})).toEqual(encodeRuptela(106, hex('000003e8')));
    expect(() => encodeRuptelaCommand({ type: 'engineStop' }, {})).toThrow(expect.objectContaining({ reason: 'unsupported_command' }));
    expect(() => encodeRuptelaCommand({ type: 'outputControl', attributes: { index: -1, data: 1 } }, {})).toThrow(
      expect.objectContaining({ reason: 'bad_command' }),
    );
  });
});

describe('ruptela robustness (fast-check)', () => {
  it('splitFrames on random bytes throws nothing but DecodeError', () => {
    fuzzSplitter(splitRuptelaFrames);
  });

  it('decode on mutated and truncated real frames throws nothing but DecodeError', () => {
    fuzzMutations(
      (f) => decodeRuptela(f, {}),
      splitRuptelaFrames,
      [IDENTIFICATION, SMS_REPLY, RECORDS_GHANA, RECORDS_FIVE, EXTENDED, DTCS, TEXT_REPLY_7].map(hex),
    );
  });
});
