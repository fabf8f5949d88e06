import { describe, expect, it } from 'vitest';
import { expectSanePosition, expectSplitInvariant, fuzzMutations, fuzzSplitter, hex } from '../../../test/protocol-helpers';
import { DecodeError, type DecodeResult, type ProtocolSession } from '../protocol';
import { jt701Protocol, splitJt701Frames } from './index';

/*
 * Device messages:
 * - JT701 seal binary reports (protocol 0x19) and a P45 lock event published by Jointech with its
 *   parser SDK (icloud.assetscontrols.com docs, "jt701-sdk"; the binary report near Cape Town, MCC 655);
 * - Traccar's public tests (traccar/traccar src/test/java/org/traccar/protocol/Jt600ProtocolDecoderTest.java):
 *   a 0x17 and a 0x19 seal report, a P45, U01, W01, @JT and a short JT600 report.
 * Values are read from the bytes by hand (BCD DDMMYY hhmmss UTC, DDMM.mmmm coordinates, flag nibble
 * bit 1 north / bit 2 east, speed knots, course ×2, mileage km); Traccar asserts the W01 position.
 * The alarm frames are the real 0x19 report with its status word changed (bits as Jointech's
 * document lists them): the binary format has no checksum.
 */
const MAX_FRAME = 1024;
const SEAL_0x19 =
  '2480405003701911003426032115595533197294020020085d0586000010e10c0000000020e043600a526d1700020f0f0f0f0f0f0f0f0f0f0eaa028f018b';
const SEAL_0x17 =
  '2478807035371711003419081920061851380856003256223b000000000000070000000020c0ff965d54de1800000f0f0f0f0f0f0f0f0f0f02d600ea0a21';
const SEAL_UK =
  '2480413009781914003406102107544354193631006213423b00000000006c070000000020e064f91ea0671d00020f0f0f0f0f0f0f0f0f0f07f100ea0f6e';
const P45 = '(7890629284,P45,260321,185342,26.181296,N,50.329788,E,V,0.00,0,5,0,0000000000,0,0,0)';
const P45_TRACCAR = '(8000632862,P45,290322,132412,25.28217,S,57.54683,W,A,0,0,5,0,0000000000,0,0,9,0)';
const U01 = '(3301210003,U01,040812,185302,T,22.564025,N,113.242329,E,5.21,152,9,32%,00000000000011,10133,5173,22,100,1)';
const W01 = '(3110312099,W01,11404.6204,E,2232.9961,N,A,040511,063736,4,7,100,4,17,1,1,company)';
const SHORT = '24311021600111001B16021105591022329862114046227B0598095080012327951435161F';

const bytes = (frame: string): Buffer => (frame.startsWith('(') ? Buffer.from(frame, 'latin1') : hex(frame));

function decode(frame: string | Buffer, session: ProtocolSession = {}): DecodeResult {
  const r = jt701Protocol.decode(typeof frame === 'string' ? bytes(frame) : frame, session);
  for (const p of r.positions) expectSanePosition(p);
  return r;
}

/** The 0x19 report with another status word (offset 36). */
function withStatus(status: number): Buffer {
  const frame = hex(SEAL_0x19);
  frame.writeUInt16BE(status, 36);
  return frame;
}

/** The Jointech P45 with fields 11 (event source), 12 (unlock verification) and 14 (password verification) replaced. */
function p45With(source: number, unlock: number, password: number): string {
  const f = P45.slice(1, -1).split(',');
  [f[11], f[12], f[14]] = [String(source), String(unlock), String(password)];
  return `(${f.join(',')})`;
}

describe('jt701 framing', () => {
  it('splits binary and text frames identically at every byte offset, twice over', () => {
    const frames = [SEAL_0x19, P45, SEAL_0x17, W01, SHORT].map((f) => bytes(f).toString('hex'));
    expectSplitInvariant(splitJt701Frames, hex(frames.join('')), frames, MAX_FRAME);
  });

  it('waits for a whole frame and refuses anything else', () => {
    expect(splitJt701Frames(hex(SEAL_0x19.slice(0, 40)), MAX_FRAME).frames).toEqual([]);
    expect(() => splitJt701Frames(Buffer.from('GET / HTTP/1.1'), MAX_FRAME)).toThrow(expect.objectContaining({ reason: 'bad_frame' }));
    expect(() => splitJt701Frames(hex('2480405003701911ffff'), MAX_FRAME)).toThrow(expect.objectContaining({ reason: 'frame_too_large' }));
  });
});

describe('jt701 seal binary reports', () => {
  it('0x19 report: fix, lock state, battery, odometer, cell; ack (P69,0,<serial>)', () => {
    const session: ProtocolSession = {};
    const r = decode(SEAL_0x19, session);
    expect(r).toMatchObject({ kind: 'position', deviceId: '8040500370', type: 'binary-19' });
    expect(session.deviceId).toBe('8040500370');
    const p = r.positions[0]!;
    expect(p).toMatchObject({
      fixTime: new Date('2021-03-26T15:59:55Z'),
      valid: true,
      speed: 5,
      course: 268,
      satellites: 12,
      odometer: 4_321_000,
    });
    expect(p.latitude).toBeCloseTo(-(33 + 19.7294 / 60), 6);
    expect(p.longitude).toBeCloseTo(20 + 2.0085 / 60, 6);
    expect(p.attributes).toMatchObject({
      lock: true,
      ropeInserted: true,
      coverClosed: true,
      batteryLevel: 67,
      rssi: 23,
      mcc: 655,
      mnc: 1,
      lac: 0x526d,
      index: 139,
    });
    expect(p.alarm).toBeNull();
    expect(r.ack?.toString()).toBe('(P69,0,139)');
  });

  it('0x17 report: charging (battery 0xFF); no ack for real-time data', () => {
    const r = decode(SEAL_0x17);
    expect(r.positions[0]).toMatchObject({
      fixTime: new Date('2019-08-19T20:06:18Z'),
      latitude: expect.closeTo(51.63476, 5),
      longitude: expect.closeTo(-3.427038, 5),
      satellites: 7,
    });
    expect(r.positions[0]!.attributes).toMatchObject({ charge: true, lock: true, rssi: 24 });
    expect(r.ack).toBeUndefined();
  });

  it('alarm data: unlocking alarm → unlock; rope cut, wrong password, card, cover → tampering with their seal events', () => {
    const unlocked = decode(withStatus(0x2160)); // bits 5, 6, 8, 13: alarm data, rope in, unlocking alarm, cover closed; lock bit 7 clear
    expect(unlocked.kind).toBe('alarm');
    expect(unlocked.events).toEqual([{ alarm: 'unlock' }]);
    expect(unlocked.positions[0]).toMatchObject({ alarm: 'unlock', attributes: { lock: false, sealEvent: 'unlocked' } });
    const tampered = decode(withStatus(0x20e0 | 0x0008 | 0x0200 | 0x0400 | 0x1000)); // rope cut, wrong password, card, cover opened
    expect(tampered.events).toEqual([{ alarm: 'tampering' }]);
    expect(tampered.positions[0]!.attributes.sealEvent).toBe('ropeCut,wrongPassword,unauthorizedCard,coverOpened');
    const motor = decode(withStatus(0x20e0 | 0x4000 | 0x0800));
    expect(motor.positions[0]!.alarm).toBe('fault,lowBattery');
    // the same bits in real-time data (bit 5 clear) are not alarms
    expect(decode(withStatus(0x20c0 | 0x0008)).positions[0]!.alarm).toBeNull();
  });

  it('a change of the lock bit between reports on one connection is an unlock or lock event', () => {
    const session: ProtocolSession = {};
    expect(decode(withStatus(0x20c0), session).events).toBeUndefined();
    const opened = decode(withStatus(0x2040), session); // lock bit cleared, no alarm data
    expect(opened.events).toEqual([{ alarm: 'unlock' }]);
    expect(opened.positions[0]!.attributes.sealEvent).toBe('unlocked');
    expect(decode(withStatus(0x2040), session).events).toBeUndefined();
    const closed = decode(withStatus(0x20c0), session);
    expect(closed.events).toEqual([{ alarm: 'lock' }]);
    expect(closed.positions[0]!.attributes.sealEvent).toBe('locked');
  });

  it('a report without a date is a state record (a short JT600 report is a position: jt600 tests below)', () => {
    const noDate = hex(SEAL_0x19);
    noDate.fill(0, 10, 16);
    const r = decode(noDate);
    expect(r).toMatchObject({ kind: 'state', positions: [], attributes: { lock: true, batteryLevel: 67 } });
    expect(r.ack?.toString()).toBe('(P69,0,139)');
    expect(decode(SHORT)).toMatchObject({ kind: 'position', deviceId: '3110216001', type: 'short-1' });
  });

  it('the UK 0x19 report (Traccar test data)', () => {
    expect(decode(SEAL_UK).positions[0]).toMatchObject({
      latitude: expect.closeTo(54 + 19.3631 / 60, 6),
      longitude: expect.closeTo(-(6 + 21.3423 / 60), 6),
      attributes: { mcc: 234, mnc: 15 },
    });
  });
});

describe('jt701 text messages', () => {
  it('P45 lock event (Jointech sample, source 5): position with the event code, ack (P69,0,<serial>)', () => {
    const r = decode(P45);
    expect(r).toMatchObject({ kind: 'position', type: 'P45', deviceId: '7890629284' });
    expect(r.positions[0]).toMatchObject({
      fixTime: new Date('2021-03-26T18:53:42Z'),
      valid: false,
      latitude: 26.181296,
      longitude: 50.329788,
      attributes: { event: 5, index: 0 },
    });
    expect(r.ack?.toString()).toBe('(P69,0,0)');
    expect(decode(P45_TRACCAR).positions[0]).toMatchObject({ latitude: -25.28217, longitude: -57.54683, valid: true });
  });

  it('P45 verification fields: wrong password → tampering, unlocked → unlock (area id), refused outside an area', () => {
    expect(decode(p45With(6, 0, 0))).toMatchObject({
      kind: 'alarm',
      events: [{ alarm: 'tampering' }],
      positions: [{ attributes: { sealEvent: 'wrongPassword' } }],
    });
    expect(decode(p45With(6, 3, 0)).positions[0]).toMatchObject({
      alarm: 'unlock',
      attributes: { sealEvent: 'unlocked', lock: false, geofenceId: 3 },
    });
    expect(decode(p45With(6, 98, 0)).positions[0]!.alarm).toBe('unlock');
    expect(decode(p45With(6, 99, 0)).positions[0]).toMatchObject({ alarm: null, attributes: { sealEvent: 'unlockRefused' } });
    expect(decode(p45With(4, 0, 0)).positions[0]!.attributes.sealEvent).toBe('wrongPassword');
    expect(decode(p45With(4, 0, 1)).positions[0]!.alarm).toBe('unlock');
  });

  it('U01 and W01 reports; @JT heartbeat; other P-messages are command results; the rest refused', () => {
    const u = decode(U01);
    expect(u.positions[0]).toMatchObject({
      latitude: 22.564025,
      longitude: 113.242329,
      course: 152,
      satellites: 9,
      odometer: 100_000,
      attributes: { batteryLevel: 32, rssi: 22 },
    });
    expect(u.positions[0]!.speed).toBeCloseTo(5.21 * 0.868976, 5);
    expect(u.ack?.toString()).toBe('(S39)');
    const w = decode(W01); // Traccar asserts 2011-05-04 06:37:36, 22.54994, 114.07701
    expect(w.positions[0]).toMatchObject({
      fixTime: new Date('2011-05-04T06:37:36Z'),
      latitude: expect.closeTo(22.54994, 4),
      longitude: expect.closeTo(114.07701, 4),
      power: 100,
    });
    expect(decode('(3460311327,@JT)')).toMatchObject({ kind: 'heartbeat', deviceId: '3460311327' });
    expect(decode('(7890629284,P52,2,1)')).toMatchObject({ kind: 'result', attributes: { result: '(7890629284,P52,2,1)' } });
    expect(decode('(6221107674,2,U09,129,2,A)')).toMatchObject({ kind: 'ignored' });
    expect(() => decode('(not-an-id,P45)')).toThrow(DecodeError);
  });

  it('custom is the only command, sent as the text it is', () => {
    expect(jt701Protocol.encodeCommand?.({ type: 'custom', attributes: { data: '(P50,1)' } }, {}).toString()).toBe('(P50,1)');
    expect(() => jt701Protocol.encodeCommand?.({ type: 'custom', attributes: { data: 'P50' } }, {})).toThrow(
      expect.objectContaining({ reason: 'bad_command' }),
    );
    expect(() => jt701Protocol.encodeCommand?.({ type: 'engineStop' }, {})).toThrow(
      expect.objectContaining({ reason: 'unsupported_command' }),
    );
  });
});

/*
 * The JT600 vehicle trackers' short binary format (versions 1, 2, 3; several records per frame), the
 * seals' long format in protocol versions before 0x17, and the WLNET sensor frames, from Traccar's
 * public tests (Jt600ProtocolDecoderTest.java, Jt600FrameDecoderTest.java; WLNET frames with their
 * binary data escaped again as on the wire). Values read from the bytes by hand (BCD DDMMYY
 * hhmmss, DDMM.mmmm, flag nibble, speed BCD knots, course ×2).
 */
const JT600_V1 = '24311021600111001b16021105591022329862114046227b0598095080012327951435161f'; // Traccar asserts 2011-02-16 05:59:10, valid, 22.54977, -114.07705
const JT600_V2_SIX =
  '2440811188882400a209060908045322564025113242329f0598000001003f0000002d0009060908050322564025113242329f0598000001003f0000002d0009060908051322564025113242329f0598000001003f0000002d0009060908052322564025113242329f0598000001003f0000002d0009060908053322564025113242329f0598000001003f0000002d0009060908054322564025113242329f0598000001003f0000002d001f';
const JT600_V2_ALARMS = '24624090196121001b19071703493631277203074235752f295800005308010000768b0822';
const JT600_V3 = '24657060730131001b13111710361906538525079524797f000000000000000003f300036c';
const SEAL_0x01 = '2480433966040111002718031919195822424550114158888e15a40000f124080000000000f00f110a24991900000df0c7';
const SEAL_0x16 = '2475604055531611002311111600311326144436028210791d016c0000001f070000000020c03c4f6d07d80ccf';
const SEAL_NO_FIX =
  '2475810297431713003401010000030100000000000000000e000000000001000000000020e0641aba1b6f1b00000f0f0f0f0f0f0f0f0f0f000001942803';
const WLNET_1 =
  '28383035343230313937332c312c3136382c574c4e45542c352c322c3d15022508595325169288057327940900003d1502250859551021220618730140644701011d4300000029';
const WLNET_2 =
  '28373530303331333630392c32332c32392c574c4e45542c352c322c22071916311822350966113549495e1f232207191622591190702002fe0117623c0101134700000029'; // Traccar asserts temp1 27.5

describe('jt600 binary formats and WLNET sensors', () => {
  it('short format version 1: satellites, altitude, cell, signal; no answer', () => {
    const r = decode(JT600_V1);
    expect(r).toMatchObject({ kind: 'position', type: 'short-1', deviceId: '3110216001' });
    expect(r.ack).toBeUndefined();
    expect(r.positions[0]).toMatchObject({
      fixTime: new Date('2011-02-16T05:59:10Z'),
      valid: true,
      speed: 5,
      course: 304,
      satellites: 9,
      altitude: 291,
      attributes: { cid: 10133, lac: 5173, rssi: 22, powerLevel: 80, index: 31 },
    });
    expect(r.positions[0]!.latitude).toBeCloseTo(22 + 32.9862 / 60, 6);
    expect(r.positions[0]!.longitude).toBeCloseTo(-(114 + 4.6227 / 60), 6);
  });

  it('short format version 2: six records ten seconds apart; status, mileage, fuel', () => {
    const r = decode(JT600_V2_SIX);
    expect(r.positions.map((p) => p.fixTime.toISOString().slice(11, 19))).toEqual([
      '08:04:53',
      '08:05:03',
      '08:05:13',
      '08:05:23',
      '08:05:33',
      '08:05:43',
    ]);
    expect(r.positions[0]).toMatchObject({
      latitude: expect.closeTo(22 + 56.4025 / 60, 6),
      longitude: expect.closeTo(113 + 24.2329 / 60, 6),
      odometer: 45_000,
      ignition: false,
      attributes: { charge: true, blocked: false, fuel: 0 },
    });
  });

  it('short format version 2 status alarms: GPS antenna cut and overspeed (bit 4), tow; blocked', () => {
    const r = decode(JT600_V2_ALARMS);
    expect(r).toMatchObject({ kind: 'alarm', events: [{ alarm: 'gpsAntennaCut' }, { alarm: 'overspeed' }, { alarm: 'tow' }] });
    expect(r.positions[0]).toMatchObject({
      fixTime: new Date('2017-07-19T03:49:36Z'),
      speed: 29,
      course: 176,
      odometer: 30_347_000,
      attributes: { blocked: true, fuel: 8 },
    });
  });

  it('short format version 3: bit-packed fuel, mileage and status', () => {
    expect(decode(JT600_V3).positions[0]).toMatchObject({
      fixTime: new Date('2017-11-13T10:36:19Z'),
      latitude: expect.closeTo(6 + 53.8525 / 60, 6),
      longitude: expect.closeTo(79 + 52.4797 / 60, 6),
      odometer: 3000,
      ignition: true,
      attributes: { fuel1: 0, fuel3: 0, status: 0xf30003 },
    });
  });

  it('long format of protocol versions 0x01 and 0x16 (seals before 0x17); a report without a fix is a state record', () => {
    const v1 = decode(SEAL_0x01);
    expect(v1).toMatchObject({ type: 'binary-1', ack: Buffer.from('(P35)') });
    expect(v1.positions[0]).toMatchObject({
      fixTime: new Date('2019-03-18T19:19:58Z'),
      satellites: 8,
      odometer: 61_732_000,
      attributes: { batteryLevel: 15 },
    });
    expect(decode(SEAL_0x16).positions[0]).toMatchObject({
      fixTime: new Date('2016-11-11T00:31:13Z'),
      latitude: expect.closeTo(-(26 + 14.4436 / 60), 6),
      longitude: expect.closeTo(28 + 21.0791 / 60, 6),
      satellites: 7,
      attributes: { batteryLevel: 60 },
    });
    expect(decode(SEAL_NO_FIX)).toMatchObject({ kind: 'state', positions: [], attributes: { lock: true, batteryLevel: 100 } });
  });

  it('WLNET sensor frames (escaped binary data): location, sensor battery, signal, temperature and humidity', () => {
    const r = decode(WLNET_1);
    expect(r).toMatchObject({ kind: 'position', type: 'WLNET', deviceId: '8054201973' });
    expect(r.positions[0]).toMatchObject({
      fixTime: new Date('2025-02-28T08:59:53Z'),
      valid: true,
      latitude: expect.closeTo(-(25 + 16.9288 / 60), 6),
      attributes: { sensorBattery: 3.2, sensorBatteryLevel: 100, sensorRssi: -71, temp1: 28.5, humidity: 67 },
    });
    expect(decode(WLNET_2)).toMatchObject({ kind: 'state', attributes: { temp1: 27.5, humidity: 71, sensorBatteryLevel: 98 } });
  });

  it('frames the long format told by the zero at offset 8 (Jt600FrameDecoderTest), and the escaped text frames', () => {
    const long =
      '2460201102320112003401010000000422434199114158229e000000000009000000000010e06400000000000020100e0868817043592664000000000000';
    const frames = [long, WLNET_1, JT600_V1, SEAL_0x16, WLNET_2];
    expectSplitInvariant(splitJt701Frames, hex(frames.join('')), frames, MAX_FRAME);
  });
});

describe('jt701 robustness (fast-check)', () => {
  it('splitFrames on random bytes throws nothing but DecodeError', () => {
    fuzzSplitter(splitJt701Frames);
  });

  it('decode on mutated and truncated real frames throws nothing but DecodeError', () => {
    fuzzMutations(
      (f) => jt701Protocol.decode(f, {}),
      splitJt701Frames,
      [SEAL_0x19, SEAL_0x17, SEAL_UK, P45, U01, W01, SHORT, JT600_V2_SIX, JT600_V3, SEAL_0x01, WLNET_1, WLNET_2].map(bytes),
    );
  });
});
