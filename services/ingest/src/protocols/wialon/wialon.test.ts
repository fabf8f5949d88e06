import { describe, expect, it } from 'vitest';
import { describeTextCaptures, expectDecoded, expectSplitInvariant, fuzzSplitter, type DecodeCase } from '../../../test/protocol-helpers';
import { DecodeError } from '../protocol';
import { crc16Arc, decodeWialon, encodeWialonCommand, splitWialonFrames, wialonProtocol, type WialonSession } from './index';

/*
 * Wialon IPS 1.1 and 2.0, packet types L, P, SD, D, B, M (and the refused I). Real device messages
 * from Traccar's public tests (traccar/traccar src/test/java/org/traccar/protocol/WialonProtocolDecoderTest.java);
 * the layouts, answers and error codes from Gurtam's "Wialon IPS" protocol documents (v1.1, v2.0).
 * Traccar asserts a few values (named in the titles); the others are read from the text by hand:
 * DDMMYY hhmmss UTC, DDMM.MMMM → degrees, km/h → knots. The 2.0 checksums of Traccar's data
 * packets are CRC-16/ARC of the message up to its last ';' (checked by hand: 7A01, E7C9, 0x9b0,
 * 626B, F24A all match); its 2.0 login's CE45 does not, so that login decodes with crcValid=false.
 */
const ascii = (text: string): string => Buffer.from(text, 'latin1').toString('hex');
const AL = ascii('#AL#1\r\n');
const AD = ascii('#AD#1\r\n');
const ASD = ascii('#ASD#1\r\n');

const logins: DecodeCase[] = [
  [
    '2.0 login (its checksum does not match: crcValid=false)',
    '#L#2.0;42001300083;;CE45',
    { kind: 'login', type: 'L', ack: AL, crc: false },
  ],
  ['1.1 login with a password', '#L#123456789012345;test', { kind: 'login', ack: AL, crc: true }],
  ['1.1 login without a password', '#L#2002;NA', { kind: 'login', ack: AL }],
  ['ping', '#P#', { kind: 'heartbeat', type: 'P', ack: ascii('#AP#\r\n') }],
];

const shortData: DecodeCase[] = [
  [
    'SD 2.0 with its checksum (7A01), course, height and satellites NA',
    '#SD#300924;154245;5554.350052;N;3644.670410;E;2.92;NA;NA;NA;7A01',
    {
      kind: 'position',
      type: 'SD',
      ack: ASD,
      crc: true,
      pos: {
        time: '2024-09-30T15:42:45.000Z',
        lat: 55 + 54.350052 / 60,
        lon: 36 + 44.67041 / 60,
        kmh: 2.92,
        course: 0,
        valid: true,
        sat: null,
        altitude: null,
      },
    },
  ],
  [
    'SD 1.1 (Traccar asserts 2013-04-27 20:56:01, 55.74338, 37.66139)',
    '#SD#270413;205601;5544.6025;N;03739.6834;E;1;2;3;4',
    {
      kind: 'position',
      ack: ASD,
      pos: { time: '2013-04-27T20:56:01.000Z', lat: 55.743375, lon: 37.66139, kmh: 1, course: 2, altitude: 3, sat: 4, valid: true },
    },
  ],
  [
    'SD with the device id in front (the UDP form)',
    '99999999#SD#270413;205601;5544.6025;N;03739.6834;E;1;2;3;4',
    { kind: 'position', ack: ASD, pos: { time: '2013-04-27T20:56:01.000Z', lat: 55.743375, lon: 37.66139 } },
  ],
  [
    'SD with an empty course',
    '#SD#021214;065947;2237.7552;N;11404.8851;E;0.000;;170.9;5',
    {
      kind: 'position',
      pos: { time: '2014-12-02T06:59:47.000Z', lat: 22 + 37.7552 / 60, lon: 114 + 4.8851 / 60, kmh: 0, course: 0, altitude: 170.9, sat: 5 },
    },
  ],
];

const extendedData: DecodeCase[] = [
  [
    'D 2.0 (E7C9): params d_battr, d_csq, di_light (Traccar asserts di_light 1)',
    '#D#220323;114150;2234.80479;N;11354.87786;E;0;NA;59;11;NA;NA;NA;;NA;d_battr:1:94,d_csq:1:21,di_light:1:1;E7C9',
    {
      kind: 'position',
      type: 'D',
      ack: AD,
      crc: true,
      pos: {
        time: '2023-03-22T11:41:50.000Z',
        lat: 22 + 34.80479 / 60,
        lon: 113 + 54.87786 / 60,
        kmh: 0,
        altitude: 59,
        sat: 11,
        hdop: null,
        attrs: { d_battr: 94, d_csq: 21, di_light: 1 },
      },
    },
  ],
  [
    'D 2.0 (F24A): hdop, negative height, params named by number',
    '#D#101118;061143;0756.0930;N;12338.6403;E;18.223;99.766;-4.000;10;0.800;NA;NA;NA;NA;101_521347:1:521249,101_521126:1:6593598,101_521127:1:774780,101_521072_21.1:1:0,101_521072_21.2:1:71353;F24A',
    {
      kind: 'position',
      ack: AD,
      crc: true,
      pos: {
        time: '2018-11-10T06:11:43.000Z',
        lat: 7 + 56.093 / 60,
        lon: 123 + 38.6403 / 60,
        kmh: 18.223,
        course: 99.766,
        altitude: -4,
        sat: 10,
        hdop: 0.8,
        attrs: { '101_521347': 521249, '101_521072_21.2': 71353 },
      },
    },
  ],
  [
    'D 2.0 with the version and id in front',
    '2.0;99999999#D#101118;061143;0756.0930;N;12338.6403;E;18.223;99.766;-4.000;10;0.800;NA;NA;NA;NA;101_521347:1:521249,101_521126:1:6593598,101_521127:1:774780,101_521072_21.1:1:0,101_521072_21.2:1:71353;F24A',
    { kind: 'position', crc: true, pos: { time: '2018-11-10T06:11:43.000Z', lat: 7.934883, lon: 123.644005 } },
  ],
  [
    'D 1.1: inputs 241, CAN params',
    '#D#151216;135910;5321.1466;N;04441.7929;E;87;156;265.000000;12;1.000000;241;NA;NA;NA;odo:2:0.000000,total_fuel:1:430087,can_fls:1:201,can_taho:1:11623,can_mileage:1:140367515',
    {
      kind: 'position',
      crc: true,
      pos: {
        time: '2016-12-15T13:59:10.000Z',
        lat: 53 + 21.1466 / 60,
        lon: 44 + 41.7929 / 60,
        kmh: 87,
        course: 156,
        altitude: 265,
        sat: 12,
        hdop: 1,
        attrs: { input: 241, odo: 0, total_fuel: 430087, can_mileage: 140367515 },
      },
    },
  ],
  [
    'D 1.1: double params (board and backup voltage)',
    '#D#151216;140203;5312.59514;N;04830.37834;E;53;273;NA;10;NA;NA;NA;NA;NA;EvId:1:1,Board:2:12.81,Accum:2:4.28',
    {
      kind: 'position',
      pos: {
        time: '2016-12-15T14:02:03.000Z',
        lat: 53 + 12.59514 / 60,
        lon: 48 + 30.37834 / 60,
        kmh: 53,
        course: 273,
        attrs: { evid: 1, board: 12.81, accum: 4.28 },
      },
    },
  ],
  [
    'D 1.1: three analog inputs, integer, double and string params',
    '#D#270413;205601;5544.6025;N;03739.6834;E;1;2;3;4;0.0;0;0;14.77,0.02,3.6;NA;count1:1:564,fuel:2:45.8,hw:3:V4.5',
    {
      kind: 'position',
      pos: {
        time: '2013-04-27T20:56:01.000Z',
        lat: 55.743375,
        lon: 37.66139,
        hdop: 0,
        attrs: { input: 0, output: 0, adc1: 14.77, adc2: 0.02, adc3: 3.6, count1: 564, fuel: 45.8, hw: 'V4.5' },
      },
    },
  ],
  [
    'D 1.1: inputs as a number, one analog input',
    '#D#190114;051312;4459.6956;N;04105.9930;E;35;306;204.000000;12;NA;452986639;NA;106.000000;NA;sats_gps:1:9,sats_glonass:1:3,balance:2:12123.000000,stay_balance:1:0',
    {
      kind: 'position',
      pos: {
        time: '2014-01-19T05:13:12.000Z',
        lat: 44 + 59.6956 / 60,
        lon: 41 + 5.993 / 60,
        kmh: 35,
        course: 306,
        altitude: 204,
        attrs: { input: 452986639, adc1: 106, sats_gps: 9, balance: 12123 },
      },
    },
  ],
  [
    'D 1.1 with NA params',
    '#D#021214;065947;2237.7552;N;11404.8851;E;0.000;;170.9;5;1.74;NA;NA;NA;NA;NA',
    { kind: 'position', pos: { time: '2014-12-02T06:59:47.000Z', lat: 22.62925, lon: 114.081418, hdop: 1.74 } },
  ],
  [
    'D 1.1 with an empty adc',
    '#D#021214;065947;2237.7552;N;11404.8851;E;0.000;;170.9;5;1.74;NA;NA;;NA;NA',
    { kind: 'position', pos: { time: '2014-12-02T06:59:47.000Z', lat: 22.62925, lon: 114.081418 } },
  ],
];

const states: DecodeCase[] = [
  [
    'D 2.0 (626B) without coordinates: a state record with the device time',
    '#D#120319;112003;NA;NA;NA;NA;0.000;NA;NA;0;NA;NA;NA;NA;NA;101_521347:1:521246,101_158:1:510,101_521055:1:510,101_521055_2.9:1:509,101_521056:1:3;626B',
    { kind: 'state', ack: AD, crc: true, dt: '2019-03-12T11:20:03.000Z', attrs: { sat: 0, '101_158': 510, '101_521056': 3 } },
  ],
  [
    'D 1.1 without coordinates: motion false (Traccar asserts motion false)',
    '#D#120319;112003;NA;NA;NA;NA;0.000;NA;NA;0;NA;NA;NA;NA;NA;motion:3:false',
    { kind: 'state', dt: '2019-03-12T11:20:03.000Z', attrs: { motion: false } },
  ],
  [
    'D without anything but two cells (Traccar asserts the two cell towers)',
    '#D#NA;NA;NA;NA;NA;NA;NA;NA;NA;NA;NA;NA;NA;;NA;mnc1:1:02,mcc1:1:250,lac1:1:5901,cell_id1:1:45542,mnc2:1:22,mcc2:1:222,lac2:1:2222,cell_id2:1:22222,mcc3:1:333',
    { kind: 'state', attrs: { mcc: 250, mnc: 2, lac: 5901, cid: 45542, cells: '250/2/5901/45542/0 222/22/2222/22222/0', mcc3: 333 } },
  ],
  [
    'D params bat and temp: batteryLevel and deviceTemp (Traccar asserts 99 and 18)',
    '#D#NA;NA;NA;NA;NA;NA;NA;NA;NA;NA;NA;NA;NA;;NA;SOS:1:0,temp:3:18,bat:3:99',
    { kind: 'state', attrs: { sos: 0, deviceTemp: 18, batteryLevel: 99 } },
  ],
];

const blackBox: DecodeCase[] = [
  [
    'B with two packets: archived positions, #AB#2',
    '#B#080914;073235;5027.50625;N;03026.19321;E;0.700;0.000;NA;4;NA;NA;NA;;NA;Батарея:3:100 %|080914;073420;5027.50845;N;03026.18854;E;1.996;292.540;NA;4;NA;NA;NA;;NA;Батарея:3:100 %',
    {
      kind: 'position',
      type: 'B',
      ack: ascii('#AB#2\r\n'),
      positions: [
        {
          time: '2014-09-08T07:32:35.000Z',
          lat: 50 + 27.50625 / 60,
          lon: 30 + 26.19321 / 60,
          kmh: 0.7,
          sat: 4,
          attrs: { archive: true, батарея: '100 %' },
        },
        {
          time: '2014-09-08T07:34:20.000Z',
          lat: 50 + 27.50845 / 60,
          lon: 30 + 26.18854 / 60,
          kmh: 1.996,
          course: 292.54,
          attrs: { archive: true },
        },
      ],
    },
  ],
  [
    'B with one packet, satellites NA',
    '#B#110914;102132;5027.50728;N;03026.20369;E;1.979;288.170;NA;NA;NA;NA;NA;;NA;Батарея:3:100 %',
    {
      kind: 'position',
      ack: ascii('#AB#1\r\n'),
      pos: { time: '2014-09-11T10:21:32.000Z', lat: 50.458455, lon: 30.436728, valid: true, sat: null },
    },
  ],
  [
    'B with minutes past 60 (read as Traccar reads them) and voltages',
    '#B#110315;045857;5364.0167;N;06127.8262;E;0;155;965;7;2.40;4;0;;NA;Uacc:2:3.4,Iacc:2:0.000,Uext:2:13.2,Tcpu:2:14.4,Balance:2:167.65,GPS:3:Off',
    {
      kind: 'position',
      ack: ascii('#AB#1\r\n'),
      pos: {
        time: '2015-03-11T04:58:57.000Z',
        lat: 53 + 64.0167 / 60,
        lon: 61 + 27.8262 / 60,
        course: 155,
        altitude: 965,
        sat: 7,
        hdop: 2.4,
        attrs: { input: 4, output: 0, uacc: 3.4, uext: 13.2, gps: 'Off' },
      },
    },
  ],
  [
    'B with an iButton and empty params',
    '#B#110315;045857;5364.0167;N;06127.8262;E;0;155;965;7;2.40;4;0;14.77,0.02,3.6;AB45DF01145;',
    {
      kind: 'position',
      ack: ascii('#AB#1\r\n'),
      pos: { time: '2015-03-11T04:58:57.000Z', lat: 54.066945, lon: 61.46377, attrs: { driverUniqueId: 'AB45DF01145', adc1: 14.77 } },
    },
  ],
];

describeTextCaptures(
  wialonProtocol,
  {
    'login and ping': logins,
    'short data (SD)': shortData,
    'extended data (D)': extendedData,
    'state records': states,
    'black box (B)': blackBox,
  },
  '#;:,.|0123456789NAES-',
  'utf8',
);

function decode(text: string, session: WialonSession = {}) {
  return decodeWialon(Buffer.from(`${text}\r\n`, 'utf8'), session);
}

/** A 2.0 packet with its checksum computed as the document says. */
function v20(type: string, message: string): string {
  return `#${type}#${message}${crc16Arc(Buffer.from(message, 'utf8')).toString(16).toUpperCase()}`;
}

describe('wialon framing', () => {
  it('splits packet lines at every byte offset, twice over, skipping blank lines; a photo keeps its image bytes', () => {
    const lines = [
      '#L#2.0;42001300083;;CE45\r\n',
      '#P#\r\n',
      '#SD#270413;205601;5544.6025;N;03739.6834;E;1;2;3;4\r\n',
      '#B#110914;102132;5027.50728;N;03026.20369;E;1.979;288.170;NA;NA;NA;NA;NA;;NA;Батарея:3:100 %\r\n',
      '#I#5;1;1;270413;205601;a.jpg;\r\n\r\n#\n\x00',
    ];
    const stream = Buffer.from(lines.join(''), 'utf8');
    expectSplitInvariant(
      splitWialonFrames,
      stream,
      lines.map((l) => Buffer.from(l, 'utf8').toString('hex')),
      1024,
    );
    expect(splitWialonFrames(Buffer.from('\r\n#P#\r\n\r\n'), 1024).frames.map(String)).toEqual(['#P#\r\n']);
  });

  it('keeps a partial line and refuses binary garbage and lines past the limit', () => {
    expect(splitWialonFrames(Buffer.from('#SD#2704'), 1024)).toMatchObject({ frames: [] });
    expect(() => splitWialonFrames(Buffer.from([0x16, 0x03, 0x01]), 1024)).toThrow(expect.objectContaining({ reason: 'bad_frame' }));
    expect(() => splitWialonFrames(Buffer.from('#D#\x01\x02\r\n'), 1024)).toThrow(expect.objectContaining({ reason: 'bad_frame' }));
    expect(() => splitWialonFrames(Buffer.from(`#D#${'1'.repeat(100)}`), 64)).toThrow(
      expect.objectContaining({ reason: 'frame_too_large' }),
    );
  });

  it('fuzz: random bytes throw nothing but DecodeError', () => fuzzSplitter(splitWialonFrames));
});

describe('wialon sessions, checksums and answers', () => {
  it('the login teaches the device id and the version; later packets carry them', () => {
    const session: WialonSession = {};
    expectDecoded(decode(v20('L', '2.0;864350000001111;NA;'), session), { kind: 'login', crc: true, ack: AL });
    expect(session).toMatchObject({ deviceId: '864350000001111', wialonVersion: '2.0' });
    const r = decode(v20('SD', '021214;065947;2237.7552;N;11404.8851;E;0.000;;170.9;5;'), session);
    expect(r).toMatchObject({ kind: 'position', deviceId: '864350000001111', crcValid: true });
  });

  it('a 2.0 packet whose checksum does not match is decoded with crcValid=false', () => {
    const good = v20('D', '101118;061143;0756.0930;N;12338.6403;E;18.223;99.766;-4.000;10;0.800;NA;NA;NA;NA;NA;');
    expect(decode(good).crcValid).toBe(true);
    expect(decode(good.replace('18.223', '18.224'))).toMatchObject({ kind: 'position', crcValid: false });
    expect(
      decode(
        `#B#110315;045857;5364.0167;N;06127.8262;E;0;155;965;7|110315;045858;5364.0167;N;06127.8262;E;0;155;965;7|${crc16Arc(Buffer.from('110315;045857;5364.0167;N;06127.8262;E;0;155;965;7|110315;045858;5364.0167;N;06127.8262;E;0;155;965;7|')).toString(16)}`,
      ),
    ).toMatchObject({ kind: 'position', crcValid: true, ack: Buffer.from('#AB#2\r\n') });
  });

  it("a field that does not parse is answered with the document's error code, nothing stored", () => {
    const cases: [string, string][] = [
      ['#SD#320413;205601;5544.6025;N;03739.6834;E;1;2;3;4', '#ASD#0'],
      ['#SD#270413;205601;5544.6025;X;03739.6834;E;1;2;3;4', '#ASD#10'],
      ['#SD#270413;205601;5544.6025;N;03739.6834;E;fast;2;3;4', '#ASD#11'],
      ['#SD#270413;205601;5544.6025;N;03739.6834;E;1;2;3;four', '#ASD#12'],
      ['#D#270413;205601;5544.6025;N;03739.6834;E;1;2;3;4;0.0;x;0;NA;NA;NA', '#AD#13'],
      ['#D#270413;205601;5544.6025;N;03739.6834;E;1;2;3;4;0.0;0;0;a,b;NA;NA', '#AD#14'],
      ['#D#270413;205601;5544.6025;N;03739.6834;E;1;2;3;4;0.0;0;0;NA;NA;count1:1:many', '#AD#15'],
      ['#D#270413;205601;5544.6025;N;03739.6834;E;1;2;3', '#AD#-1'],
    ];
    for (const [packet, code] of cases) expectDecoded(decode(packet), { kind: 'ignored', ack: ascii(`${code}\r\n`) });
    expectDecoded(decode('#B#270413;205601;5544.6025;X;03739.6834;E;1;2;3;4|270413;205602;5544.6025;N;03739.6834;E;1;2;3;4'), {
      kind: 'position',
      ack: ascii('#AB#1\r\n'),
      pos: { time: '2013-04-27T20:56:02.000Z', lat: 55.743375, lon: 37.66139 },
    });
  });

  it('a packet without date and time takes the arrival time', () => {
    const arrival = new Date('2026-03-02T10:00:00Z');
    const r = decode(
      '#D#NA;NA;5429.681944502211763;N;02654.60403650999069;E;NA;NA;NA;NA;NA;NA;NA;1.0;NA;m1:1:9196679,d1:1:15397,t1:1:20,b1:1:162,fuel1:2:21588.0,pv1:2:35.98,finish:1:1;0x9b0',
      { now: () => arrival },
    );
    expectDecoded(r, {
      kind: 'position',
      crc: true,
      pos: {
        time: arrival.toISOString(),
        lat: 54 + 29.681944502211763 / 60,
        lon: 26 + 54.60403650999069 / 60,
        attrs: { adc1: 1, fuel1: 21588, pv1: 35.98, finish: 1 },
      },
    });
  });

  it("#M# is the driver's message (a command result) answered #AM#1; #I# photos and unknown types are refused", () => {
    expectDecoded(decode('#M#Loading done, leaving Mombasa'), {
      kind: 'result',
      type: 'M',
      ack: ascii('#AM#1\r\n'),
      result: 'Loading done, leaving Mombasa',
    });
    expectDecoded(decode(v20('M', 'Delay; road works;')), { kind: 'result', crc: true, result: 'Delay; road works' });
    expectDecoded(decode('#I#4;1;1;270413;205601;a.jpg;'), { kind: 'ignored', ack: null, why: 'photo' });
    expectDecoded(decode('#QT#x'), { kind: 'ignored', ack: null, why: 'not supported' });
    expect(() => decode('GET / HTTP/1.1')).toThrow(DecodeError);
    expect(() => decode('#L#')).toThrow(expect.objectContaining({ reason: 'bad_id' }));
  });
});

describe('wialon commands', () => {
  it('message and custom go as #M# packets; with a 2.0 device, with the checksum', () => {
    expect(encodeWialonCommand({ type: 'message', attributes: { message: 'Call the office' } }, {}).toString()).toBe(
      '#M#Call the office\r\n',
    );
    const crc = crc16Arc(Buffer.from('reboot;')).toString(16).toUpperCase().padStart(4, '0');
    expect(wialonProtocol.encodeCommand?.({ type: 'custom', attributes: { data: 'reboot' } }, { wialonVersion: '2.0' }).toString()).toBe(
      `#M#reboot;${crc}\r\n`,
    );
    expect(() => encodeWialonCommand({ type: 'custom', attributes: { data: 'a\r\n#L#x' } }, {})).toThrow(
      expect.objectContaining({ reason: 'bad_command' }),
    );
    expect(() => encodeWialonCommand({ type: 'engineStop' }, {})).toThrow(expect.objectContaining({ reason: 'unsupported_command' }));
  });
});
