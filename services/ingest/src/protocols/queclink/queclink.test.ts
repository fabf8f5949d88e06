import { describe, expect, it } from 'vitest';
import { expectSanePosition, expectSplitInvariant, fuzzMutations, fuzzSplitter } from '../../../test/protocol-helpers';
import { DecodeError, type DecodeResult, type ProtocolSession } from '../protocol';
import { decodeQueclink, encodeQueclinkCommand, queclinkProtocol, splitQueclinkFrames } from './index';

/*
 * Device messages from Traccar's public tests (traccar/traccar
 * src/test/java/org/traccar/protocol/Gl200TextProtocolDecoderTest.java and Gl200FrameDecoderTest.java):
 * GV300 (protocol versions 06xxxx, 27xxxx), GV55 (0Fxxxx) and GL300 (1Axxxx, 2Cxxxx). Traccar
 * asserts only some of them; the values below are read from the fields by hand (Queclink @Track:
 * location block `accuracy, speed km/h, azimuth, altitude, lon, lat, UTC time, MCC, MNC, LAC hex,
 * cell hex, reserved|odometer km`). The GTPNA/GTPFA messages of Traccar's tests come from a GL300M
 * (F5xxxx): they are used as the refused model, and with a GL300 version (1A0800) put in.
 */
const MAX_FRAME = 2048;
const KNOTS = 1 / 1.852;
const GV300_FRI = '+RESP:GTFRI,060228,862894020178276,,15153,10,1,1,0.0,0,431.7,-63.169571,-17.776235,20160210153458,0736,0003,6AD4,80EF,00,34.9,00117:31:26,13442,15163,0,210101,,,,20160210113503,38EE$';
const GV55_FRI = '+RESP:GTFRI,0F0106,862193020451183,,,10,1,1,0.0,163,,-57.513617,-25.368191,20150918182145,,,,,,21235.0,,,,0,210100,,,,20150918182149,00B8$';
const GL300_FRI4 =
  '+RESP:GTFRI,1A0900,860599000306845,G3-313,0,0,4,1,2.1,0,426.7,8.611466,47.681639,20181214134603,0228,0001,077F,4812,25.2,1,5.7,34,437.3,8.611600,47.681846,20181214134619,0228,0001,077F,4812,25.2,1,4.4,62,438.2,8.611893,47.681983,20181214134633,0228,0001,077F,4812,25.2,1,4.8,78,436.6,8.612236,47.682040,20181214134648,0228,0001,077F,4812,25.2,83,20181214134702,0654$';
const GL300W_FRI2 = '+RESP:GTFRI,2C0204,867162020003125,GL300W,0,0,2,1,1.7,205,2867.0,-78.481127,-0.206828,20160215210433,0740,0000,7596,5891C,0.0,1,1.7,205,2867.0,-78.481127,-0.206828,20160215210503,0740,0000,7596,5891C,0.0,88,20160215210506,1E78$';
const GV300W_IGF = '+RESP:GTIGF,270302,867162025085234,,3519,0,0.0,92,111.2,-116.867638,32.450321,20180327070835,0334,0020,2B24,52CC3DE,00,,243.1,20180327070837,2A98$';
const GV300_IGN = '+RESP:GTIGN,060228,862894020180553,,9860,0,0.2,189,420.0,-63.158195,-17.800608,20160309022951,0736,0003,6AD4,3471,00,,881.2,20160308222956,129A$';
const GV300_BUFF_IGF = '+BUFF:GTIGF,060228,862894020180553,,1958,0,0.0,240,390.3,-63.089213,-17.764712,20160309122854,0736,0003,6AB8,5A23,00,,936.8,20160309082858,1368$';
const GV55_HBM = '+RESP:GTHBM,0F0100,135790246811220,,,11,1,1,24.3,92,70.0,121.354335,31.222073,20090214013254,0460,0000,18d8,6141,00,2000.0,20090214093254,11F0$';
const GV300W_DIS = '+RESP:GTDIS,270302,867162025086950,,,21,1,1,0.0,81,117.8,-116.862025,32.453497,20180309084516,0334,0020,2B24,52CA916,00,1286.2,20180309084517,357E$';
const GL300_STT = '+RESP:GTSTT,1A0401,860599000508846,,41,0,0.0,84,107.5,-76.657998,39.497203,20150623160622,0310,0260,B435,3B81,,20150623160622,0F54$';
const GL300_INF = '+RESP:GTINF,1A0800,860599000773978,GL300,41,89701016426133851978,17,0,1,26.6,,3.90,1,1,0,0,0,20161003184043,69,1,44,,,20161004040811,022C$';
const GV300_INF = '+RESP:GTINF,060100,135790246811220,,16,898600810906F8048812,16,0,1,12000,,4.4,0,0,0,0,20090214013254,0,1300,2000,00,00,+0800,0,20090214093254,11F0$';
const HBD = '+ACK:GTHBD,1A0401,135790246811220,,20100214093254,11F0$';
const GL300M_PFA = '+RESP:GTPFA,F50201,866425030235982,GL300M,20190208124849,0BD4$';

function decode(text: string, session: ProtocolSession = {}): DecodeResult {
  const r = decodeQueclink(Buffer.from(text, 'latin1'), session);
  for (const p of r.positions) expectSanePosition(p);
  return r;
}

describe('queclink framing', () => {
  it('splits messages at every byte offset, twice over, skipping CR LF between them', () => {
    const frames = [GV300_FRI, HBD, GL300_FRI4, GV300W_IGF];
    const stream = Buffer.from(frames.join('\r\n'), 'latin1');
    const split = splitQueclinkFrames(Buffer.concat([stream, Buffer.from('\r\n')]), MAX_FRAME);
    expect(split.frames.map((f) => f.toString('latin1'))).toEqual(frames);
    expectSplitInvariant(splitQueclinkFrames, Buffer.from(frames.join(''), 'latin1'), frames.map((f) => Buffer.from(f, 'latin1').toString('hex')), MAX_FRAME);
  });

  it('keeps a partial message and refuses what is not @Track ASCII', () => {
    expect(splitQueclinkFrames(Buffer.from('+RESP:GTFRI,0602'), MAX_FRAME)).toMatchObject({ frames: [] });
    expect(() => splitQueclinkFrames(Buffer.from('GET / HTTP/1.1'), MAX_FRAME)).toThrow(expect.objectContaining({ reason: 'bad_frame' }));
    expect(() => splitQueclinkFrames(Buffer.from(`+RESP:${'x'.repeat(100)}`), 64)).toThrow(expect.objectContaining({ reason: 'frame_too_large' }));
  });
});

describe('queclink GV300 / GV55', () => {
  it('GTFRI (GV300): position, external power, mileage, hour meter, analog inputs, device status; +SACK', () => {
    const session: ProtocolSession = {};
    const r = decode(GV300_FRI, session);
    expect(r).toMatchObject({ kind: 'position', type: 'GTFRI', deviceId: '862894020178276' });
    expect(session.deviceId).toBe('862894020178276');
    expect(r.positions[0]).toMatchObject({
      fixTime: new Date('2016-02-10T15:34:58Z'), valid: true, latitude: -17.776235, longitude: -63.169571, altitude: 431.7, course: 0, speed: 0, hdop: 1,
      power: 15.153, odometer: 34_900, ignition: true,
    });
    expect(r.positions[0]!.attributes).toMatchObject({ mcc: 736, mnc: 3, lac: 0x6ad4, cid: 0x80ef, adc1: 13.442, adc2: 15.163, batteryLevel: 0, hours: (117 * 3600 + 31 * 60 + 26) * 1000, input: 1, output: 1, out1: true });
    expect(r.ack?.toString()).toBe('+SACK:38EE$');
  });

  it('GTFRI (GV55): no external power, mileage; status ignition on', () => {
    expect(decode(GV55_FRI).positions[0]).toMatchObject({ latitude: -25.368191, longitude: -57.513617, course: 163, odometer: 21_235_000, ignition: true, power: null });
  });

  it('GTIGN / GTIGF: ignition on / off with hour meter and mileage; GPS accuracy 0 is the last known fix (valid=false)', () => {
    expect(decode(GV300_IGN).positions[0]).toMatchObject({ ignition: true, odometer: 881_200, valid: false, latitude: -17.800608, course: 189 });
    const off = decode(GV300W_IGF);
    expect(off.positions[0]).toMatchObject({ ignition: false, odometer: 243_100, latitude: 32.450321, longitude: -116.867638, altitude: 111.2 });
    expect(off.ack?.toString()).toBe('+SACK:2A98$');
  });

  it('+BUFF reports are archived positions', () => {
    expect(decode(GV300_BUFF_IGF).positions[0]).toMatchObject({ attributes: { archive: true }, fixTime: new Date('2016-03-09T12:28:54Z') });
  });

  it('GTHBM: harsh behaviour by report type (x1 acceleration); GTDIS: input report with mileage', () => {
    const hbm = decode(GV55_HBM);
    expect(hbm).toMatchObject({ kind: 'alarm', events: [{ alarm: 'hardAcceleration' }] });
    expect(hbm.positions[0]!.speed).toBeCloseTo(24.3 * KNOTS, 6);
    expect(decode(GV300W_DIS).positions[0]).toMatchObject({ odometer: 1_286_200, latitude: 32.453497 });
  });

  it('GTSOS: an sos alarm (the GV300 FRI layout under the SOS type)', () => {
    const sos = decode(GV300_FRI.replace('GTFRI', 'GTSOS').replace(',34.9,00117:31:26,13442,15163,0,210101,,,,', ',34.9,'));
    expect(sos).toMatchObject({ kind: 'alarm', events: [{ alarm: 'sos' }] });
    expect(sos.positions[0]).toMatchObject({ alarm: 'sos', odometer: 34_900 });
  });

  it('GTINF: state record with motion, ICCID, signal, external power, battery, charging', () => {
    const r = decode(GV300_INF);
    expect(r).toMatchObject({ kind: 'state', positions: [], deviceTime: new Date('2009-02-14T09:32:54Z') });
    expect(r.attributes).toEqual({ ignition: false, motion: true, iccid: '898600810906F8048812', rssi: 16, power: 12, battery: 4.4, charge: false });
    expect(r.ack?.toString()).toBe('+SACK:11F0$');
  });
});

describe('queclink GL300', () => {
  it('GTFRI with four positions: odometer in each block, battery level on the last', () => {
    const r = decode(GL300_FRI4);
    expect(r.positions.map((p) => p.fixTime.toISOString().slice(11, 19))).toEqual(['13:46:03', '13:46:19', '13:46:33', '13:46:48']);
    expect(r.positions[0]).toMatchObject({ latitude: 47.681639, longitude: 8.611466, altitude: 426.7, odometer: 25_200, attributes: { mcc: 228, mnc: 1 } });
    expect(r.positions[0]!.speed).toBeCloseTo(2.1 * KNOTS, 6);
    expect(r.positions[3]!.attributes.batteryLevel).toBe(83);
    expect(r.positions[0]!.attributes.batteryLevel).toBeUndefined();
    expect(decode(GL300W_FRI2).positions.map((p) => p.attributes.batteryLevel ?? null)).toEqual([null, 88]);
  });

  it('GTSTT: motion state 41 (rest, no ignition sensed); GTINF: odometer, battery, charging', () => {
    expect(decode(GL300_STT).positions[0]).toMatchObject({ attributes: { motion: false }, valid: false });
    expect(decode(GL300_INF).attributes).toEqual({ motion: false, iccid: '89701016426133851978', rssi: 17, odometer: 26_600, battery: 3.9, charge: true });
  });

  it('GTPNA / GTPFA: power on / off as state records with the alarm', () => {
    const on = decode(GL300M_PFA.replace('GTPFA,F50201', 'GTPNA,1A0800'));
    expect(on).toMatchObject({ kind: 'alarm', positions: [], events: [{ alarm: 'powerOn' }], attributes: { alarm: 'powerOn' }, deviceTime: new Date('2019-02-08T12:48:49Z') });
    expect(decode(GL300M_PFA.replace('F50201', '1A0800')).events).toEqual([{ alarm: 'powerOff' }]);
  });
});

describe('queclink acknowledgements, command results, refusals', () => {
  it('+ACK:GTHBD is a heartbeat answered +SACK:GTHBD,<version>,<count>$', () => {
    const r = decode(HBD);
    expect(r).toMatchObject({ kind: 'heartbeat', deviceId: '135790246811220' });
    expect(r.ack?.toString()).toBe('+SACK:GTHBD,1A0401,11F0$');
  });

  it('other +ACK messages are command results', () => {
    expect(decode('+ACK:GTRTO,1A0800,860599000773978,GL300,VER,FFFF,20161006053520,0C19$')).toMatchObject({ kind: 'result', attributes: { result: '+ACK:GTRTO,1A0800,860599000773978,GL300,VER,FFFF,20161006053520,0C19' } });
  });

  it('refuses other models and other report types with the reason, without an ack', () => {
    const model = decode(GL300M_PFA);
    expect(model).toMatchObject({ kind: 'ignored', ignoredReason: 'model not supported (protocol version F50201)', type: 'GTPFA' });
    expect(model.ack).toBeUndefined();
    const can = decode('+RESP:GTCAN,270703,867162025056839,gv300w,0,1,E07FFFFF,,2,H9307659,368713.50,1291,90,91,,P82.40,,61,10.10,6.76,3.34,524.08,,,0000,,00,,,007FFFFF,,,,,,,,,,,,,,,,,,,,,0000,2,0,,,0,88.6,104,117.6,-116.886007,32.543697,20181031202959,0334,0020,5234,7FCC3D0,00,20181031203002,9F50$');
    expect(can).toMatchObject({ kind: 'ignored', ignoredReason: 'message type not supported for GV300' });
    expect(() => decode('+RESP:GTFRI,060228,not-an-imei,,1,10,1$')).toThrow(DecodeError);
    expect(() => decode('+RESP:GTFRI,060228,862894020178276,,15153,10,9,1,0.0$')).toThrow(expect.objectContaining({ reason: 'truncated' }));
  });
});

describe('queclink commands', () => {
  it('engine stop/resume (GTOUT), position, reboot, identification (GTRTO) with the device password; custom as given', () => {
    expect(queclinkProtocol.encodeCommand?.({ type: 'engineStop', attributes: { devicePassword: 'gv300' } }, {}).toString()).toBe('AT+GTOUT=gv300,1,,,0,0,0,0,0,0,0,,,,,,,FFFF$');
    expect(encodeQueclinkCommand({ type: 'engineResume' }).toString()).toBe('AT+GTOUT=,0,,,0,0,0,0,0,0,0,,,,,,,FFFF$');
    expect(encodeQueclinkCommand({ type: 'rebootDevice', attributes: { devicePassword: 'gl300' } }).toString()).toBe('AT+GTRTO=gl300,3,,,,,,FFFF$');
    expect(encodeQueclinkCommand({ type: 'positionSingle' }).toString()).toBe('AT+GTRTO=,1,,,,,,FFFF$');
    expect(encodeQueclinkCommand({ type: 'custom', attributes: { data: 'AT+GTRTO=gv300,8,,,,,,FFFF$' } }).toString()).toBe('AT+GTRTO=gv300,8,,,,,,FFFF$');
    expect(() => encodeQueclinkCommand({ type: 'custom', attributes: { data: 'reboot' } })).toThrow(expect.objectContaining({ reason: 'bad_command' }));
    expect(() => encodeQueclinkCommand({ type: 'alarmArm' })).toThrow(expect.objectContaining({ reason: 'unsupported_command' }));
  });
});

describe('queclink robustness (fast-check)', () => {
  it('splitFrames on random bytes throws nothing but DecodeError', () => {
    fuzzSplitter(splitQueclinkFrames);
  });

  it('decode on mutated and truncated real messages throws nothing but DecodeError', () => {
    const captures = [GV300_FRI, GV55_FRI, GL300_FRI4, GV300W_IGF, GV55_HBM, GL300_STT, GL300_INF, GV300_INF, HBD].map((t) => Buffer.from(t, 'latin1'));
    fuzzMutations((f) => decodeQueclink(f, {}), splitQueclinkFrames, captures, 40);
  });
});
