import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  callAllowing,
  expectDecoded,
  expectSplitInvariant,
  fuzzMutations,
  hex,
  itDecodes,
  type DecodeCase,
} from '../../../test/protocol-helpers';
import { DecodeError } from '../protocol';
import { decodeJt808, parseJt808, splitJt808Frames, type Jt808Session } from './index';

/*
 * JT/T 808 messages beyond registration, location and batch: 0x0107 terminal attributes, 0x0210,
 * 0x0701, 0x0702 driver identity, 0x0900 transparent data (0x40 driver card text, 0x41 OBD text,
 * 0xF0 OBD box, 0x53 Bluetooth tags, 0x54 sensors), 0x1007, 0x1300, 0x2070, the vendor locations
 * 0x5501/0x5502, 0x6006, the JT709 seals' text frames, and terminals whose 2013 id is a hex IMEI.
 * Real device messages from Traccar's public tests (traccar/traccar
 * src/test/java/org/traccar/protocol/Jt808ProtocolDecoderTest.java, Jt808FrameDecoderTest.java),
 * escaped as on the wire. Traccar asserts some values (named in the titles); the others are read
 * from the bytes by hand: BCD times in GMT+8 (the 0x5501 times in UTC, DDMMYY), BCD DDMM.mmmm
 * coordinates, the hex id's 48 bits as a number with its Luhn digit.
 */
const ack8001 = (hexHeaderAndBody: string): string => {
  const content = hex(hexHeaderAndBody);
  return `7e${hexHeaderAndBody}${content
    .reduce((x, b) => x ^ b, 0)
    .toString(16)
    .padStart(2, '0')}7e`;
};

const messages: DecodeCase[] = [
  [
    '0x0702 driver identity: card inserted, certificate code (Traccar asserts cardCode 0029b885)',
    '7e0702002201827061151401bc012510091507510000303032396238383500000000000000000000000000000000002b7e',
    {
      kind: 'state',
      type: '0x0702',
      dt: '2025-10-09T07:07:51.000Z',
      ack: ack8001('800100050182706115140000' + '01bc070200'),
      attrs: { cardStatus: 1, cardResult: 0, cardCode: '0029b885', driverUniqueId: '0029b885' },
    },
  ],
  [
    '0x0701 waybill / command reply (Traccar asserts MD,SET CONFIG OK!)',
    '7e070100150120764632790008000000114d442c53455420434f4e464947204f4b21187e',
    { kind: 'result', type: '0x0701', result: 'MD,SET CONFIG OK!' },
  ],
  [
    '0x0900/0x40 driver card line GTSL (Traccar asserts driverUniqueId 10218094)',
    '7e0900001b41305888975883194000184754534c7c367c317c307c31303231383039347c317c0d0ab47e',
    { kind: 'state', type: '0x0900/0x40', attrs: { driverUniqueId: '10218094' } },
  ],
  [
    '0x0900/0x41 OBD real-time text (Traccar asserts fuelUsed 565.96)',
    '7e0900004a018178393931007941244f42442d52542c31322e332c302c32302c302e30302c302e30302c302c31302e38392c33312e31352c3138312e36382c3138312c35342e32362c3536352e39362c302c302c300d0ae97e',
    {
      kind: 'state',
      type: '0x0900/0x41',
      attrs: { power: 12.3, rpm: 0, obdSpeed: 20, coolantTemp: 0, obdOdometer: 181, tripOdometer: 181.68, fuelUsed: 565.96 },
    },
  ],
  [
    '0x0900/0xF0 OBD box data stream with its location (hex id)',
    '7e0900005a4e5de66fba2200c4f02204280610090002010d052b0150052c0400129009052d016b052e014f05300231ba053502000005360203b8053802000005390200ad053d0201ea05440150054604009899d90545040000001e000c00030160a85c06d1c1389c7e',
    {
      kind: 'position',
      type: '0x0900/0xf0',
      pos: {
        time: '2022-04-27T22:10:09.000Z',
        lat: 23.111772,
        lon: 114.409784,
        valid: true,
        power: 12.73,
        attrs: { fuel: 80, fuelUsed: 12165.21, coolantTemp: 67, rpm: 952, archive: undefined },
      },
    },
  ],
  [
    '0x0900/0xF0 OBD box trouble codes',
    '7e090000344f07788ef87d010138f02305151230460102020001ffffffff000100001457000000020006503134353700000c000a029dc63004b99a98230515132726787e',
    { kind: 'position', pos: { time: '2023-05-15T04:30:46.000Z', lat: 43.89432, lon: -79.2726, attrs: { dtcs: 'P1457' } } },
  ],
  [
    '0x0900/0x53 Bluetooth tags without a fix: a state record',
    '7e0900007a413050338598004b530000001000000000000000000000000000002306260457470700aabbcc001122bd0b043f0464014864034a003e01aabbcc011122bd08052f04641200010302aabbcc201122bd05012f04640103aabbcc031122bd06022f0464486404aabbcc401122bd06032f04641c04767e',
    {
      kind: 'state',
      type: '0x0900/0x53',
      dt: '2023-06-25T20:57:47.000Z',
      attrs: { tag1Mac: 'aabbcc001122', tag1Rssi: -67, tag5Mac: 'aabbcc401122' },
    },
  ],
  [
    '0x0900/0x54 sensor samples without a fix: light, temperature, humidity, pressure',
    '7e09000049487060054219000e54100000000000000000000000000000000000240112034640001f2401120345210c4100f4011c00f3ffe80008004003fe001f2401120345510c4100f4011c00f3fff0000800a003feb67e',
    { kind: 'state', type: '0x0900/0x54', attrs: { lightSensor: 3137, deviceTemp: 24.4, humidity: 28.4, temp3: 24.3, airPressure: 1022 } },
  ],
  [
    '0x6006 text report (Traccar asserts the version text)',
    '7e60060055014164192753005a003c5645523a53444b3a42433738455f5045545f56312e30325f3234303631312c4150503a50455431302348573031344a54533130323033443234313130345f4e6f7620203420323032345f31343a34393a33343e4c7e',
    { kind: 'result', type: '0x6006', result: '<VER:SDK:BC78E_PET_V1.02_240611,APP:PET10#HW014JTS10203D241104_Nov  4 2024_14:49:34>' },
  ],
  [
    '0x1300 text reply in UTF-16',
    '7e13000012045450091546010900000053006500740020004f004b0021000d197e',
    { kind: 'result', type: '0x1300', result: 'Set OK!' },
  ],
  [
    '0x0107 terminal attributes: model, ICCID, firmware',
    '7e0107004904546000563500030000584300000043354c00000000000000000000000000000000003938383731323589883030000131882455001943354c5f56322e3620323032362f30362f30342031353a33310301f47e',
    { kind: 'state', type: '0x0107', attrs: { deviceModel: 'C5L', iccid: '89883030000131882455', versionFw: 'C5L_V2.6 2026/06/04 15:31' } },
  ],
  [
    '0x0210 of 7 bytes: battery level and time',
    '7e0210000704546000231900884f2606180229579c7e',
    { kind: 'state', type: '0x0210', dt: '2026-06-17T18:29:57.000Z', attrs: { batteryLevel: 79 } },
  ],
  [
    '0x1007 time zone synchronisation: answered like a heartbeat',
    '7e10070004045460002319090640000000567e',
    { kind: 'heartbeat', type: '0x1007' },
  ],
  [
    '0x2070 acceleration samples',
    '7e207002940121523001530047210927151009000e002d80ac210927151010000e002d80ab210927151011000e002d80ac210927151012000e002e80ab210927151013000e002d80ab210927151014000e002d80ab210927151015000e002d80ab210927151016000e002d80aa210927151017000e002e80ab210927151018000e002d80ab210927151019000e002e80ac210927151020000e002d80ab210927151021000e002d80ab210927151022000d002d80ac210927151023000e002d80ac210927151024000e002e80ab210927151025000e002e80b0210927151026000e002e80ab210927151027000e002d80ab210927151028000e002e80b0210927151029000e002d80b0210927151030000e002e80ab210927151031000e002d80ab210927151032000e002d80aa210927151033000e002d80ab210927151034000e002d80ab210927151035000e002d80ab210927151036000e002d80ab210927151037000e002d80ab210927151038000e002d80b0210927151039000d002e80aa210927151040000e002d80ab210927151041000e002d80a5210927151042000e002e80ab210927151043000e002d80aa210927151044000e002d80ab210927151045000e002d80ab210927151046000e002d80ac210927151047000e002e80ab210927151048000e002e80a5210927151049000e002d80ab210927151050000e002d80ab210927151051000e002d80ab210927151052000e002d80ab210927151053000e002d80aa210927151054000e002e80b0210927151055000e002e80ab210927151056000e002d80ac210927151057000e002e80ab210927151058000e002d80ab210927151059000e002e80ab210927151100000e002d80ab210927151101000e002e80aa210927151102000e002d80a6210927151103000e002e80a5847e',
    { kind: 'state', type: '0x2070', dt: '2021-09-27T07:10:09.000Z' },
  ],
  [
    '0x5501 vendor location, lock password and unlock result (Traccar asserts unlockResult 0x65), answered 0x4401',
    '7e55018c418560090010174701022106242122348476113550490700001c06000000074e0000000000000308100000100102020200000a030000000b0803363839363037650c0600000001000afa7e',
    {
      kind: 'position',
      type: '0x5501',
      ack: '7e4401000385600900101700550100f97e',
      pos: {
        time: '2021-02-01T06:24:21.000Z',
        lat: 22 + 34.8476 / 60,
        lon: 113 + 55.049 / 60,
        sat: 6,
        odometer: 7000,
        attrs: { batteryLevel: 78, lockPassword: '689607', unlockResult: 0x65, rssi: 28 },
      },
    },
  ],
  [
    '0x5501 vendor location (Traccar verifyPosition)',
    '7e55018c378580120300032a06052117594022348474113550560705981e0400000002370ac30c0c28660308000000100101020200000a0301cc000c0600a2ffa7ff5e1b7e',
    {
      kind: 'position',
      pos: {
        time: '2021-05-06T17:59:40.000Z',
        lat: 22 + 34.8474 / 60,
        lon: 113 + 55.056 / 60,
        knots: 5,
        course: 304,
        sat: 4,
        attrs: { batteryLevel: 55, lac: 10342 },
      },
    },
  ],
  [
    '0x5502 blind-area location: archived, charging (Traccar verifyPosition)',
    '7e55028c37850011000200c008052106305122348621113550170700001e080000000aaa0000000000000300000000100100020200140a030000000c06003bffa8ffc3c77e',
    {
      kind: 'position',
      type: '0x5502',
      pos: {
        time: '2021-05-08T06:30:51.000Z',
        lat: 22 + 34.8621 / 60,
        lon: 113 + 55.017 / 60,
        altitude: 20,
        attrs: { archive: true, charge: true },
      },
    },
  ],
  [
    '0x5501 of a product 1 seal: low power alarm, no answer asked',
    '7e550100287001608180000127061008045322332880113555602e050031010000000608000010931435010002000300030100051b7e',
    {
      kind: 'alarm',
      ack: null,
      events: ['lowPower'],
      pos: { time: '2010-06-27T08:04:53.000Z', lat: 22 + 33.288 / 60, lon: 113 + 55.5602 / 60, valid: false, alarm: 'lowPower' },
    },
  ],
  [
    'JT709 text frame on the JT/T 808 port: a command reply',
    '283734303139303331313138352c312c3030312c454c4f434b2c332c35323934333929',
    { kind: 'result', type: 'text', ack: null, result: '(740190311185,1,001,ELOCK,3,529439)' },
  ],
  [
    '0x0200 of a terminal whose id is a hex IMEI (4eb6fb4ad628 → 86547807000104 + Luhn 7)',
    '7e020000344eb6fb4ad6280001000000000000000301587d010106cbff6600000000000026010112000001040000007b30011831010ae80a2003070105019f030190657e',
    { kind: 'position', type: '0x0200', pos: { time: '2026-01-01T04:00:00.000Z', lat: 22.576385, lon: 114.032486, sat: 10 } },
  ],
  [
    '0x0704 batch of a hex-id terminal: archived positions, one answer',
    '7e070401654eb6fb4afd9e485b000601003900000000000c000301f5a58700ca24c5000d0000004925111215454501040000000025040000000030011731010aeb095554432b30383a3030003900000000000c000301f5a58e00ca24cd000d0000002825111215454701040000000025040000000030011731010aeb095554432b30383a3030003900000000000c000301f5a5ad00ca24de000e0000011025111215455901040000000025040000000030011931010aeb095554432b30383a3030003900000000000c000301f5a5b100ca24ed000e0000004625111215461401040000000025040000000030011931010aeb095554432b30383a3030003900000000000c000301f5a5a900ca24f5000e000000a125111215461701040000000025040000000030011931010aeb095554432b30383a3030003900000000000c000301f5a5af00ca24fb000e000000dd25111215463201040000000025040000000030011731010beb095554432b30383a3030537e',
    {
      kind: 'position',
      type: '0x0704',
      ack: ack8001('800100054eb6fb4afd9e0000485b070400'),
      positions: [
        { time: '2025-11-12T07:45:45.000Z', lat: 32.875911, lon: 13.247685, course: 73, attrs: { archive: true } },
        { time: '2025-11-12T07:45:47.000Z', lat: 32.875918, lon: 13.247693, course: 40 },
        { time: '2025-11-12T07:45:59.000Z', lat: 32.875949, lon: 13.24771 },
        { time: '2025-11-12T07:46:14.000Z', lat: 32.875953, lon: 13.247725 },
        { time: '2025-11-12T07:46:17.000Z', lat: 32.875945, lon: 13.247733 },
        { time: '2025-11-12T07:46:32.000Z', lat: 32.875951, lon: 13.247739 },
      ],
    },
  ],
];

describe('jt808 further messages', () => {
  itDecodes(messages, (frame) => decodeJt808(hex(frame), {}));

  it('a hex id is the IMEI: 48 bits as a number and its Luhn digit (the IMEI 490154203237518 of the Luhn examples)', () => {
    const id = Buffer.alloc(6);
    id.writeUIntBE(49015420323751, 0, 6);
    const content = Buffer.concat([hex('00020000'), id, hex('0001')]);
    const frame = Buffer.concat([hex('7e'), content, Buffer.from([content.reduce((x, b) => x ^ b, 0)]), hex('7e')]);
    expect(parseJt808(frame).header.terminalId).toBe('490154203237518');
    expect(decodeJt808(frame, {})).toMatchObject({ kind: 'heartbeat', deviceId: '490154203237518' });
  });

  it('the JT709 time request is answered with the server time', () => {
    const session: Jt808Session & { now: () => Date } = { now: () => new Date('2026-03-02T08:04:05Z') };
    const r = decodeJt808(hex('283739343130343030343134302c312c3030312c424153452c322c54494d4529'), session);
    expectDecoded(r, { kind: 'heartbeat', ack: Buffer.from('(794104004140,1,001,BASE,2,20260302080405)').toString('hex') });
    expect(session.deviceId).toBe('794104004140');
  });

  it('frames: a $$ before a frame is skipped; text frames stand between binary ones; all split at every offset (Traccar Jt808FrameDecoderTest)', () => {
    expect(splitJt808Frames(hex('24247e307d02087d01557e'), 4096).frames.map((f) => f.toString('hex'))).toEqual(['7e307d02087d01557e']);
    const frames = [
      '283734303139303331313138352c312c3030312c454c4f434b2c332c35323934333929',
      '7e55018c418560090010174701022106242122348476113550490700001c06000000074e0000000000000308100000100102020200000a030000000b0803363839363037650c0600000001000afa7e',
      '283739343130343030343134302c312c3030312c424153452c322c54494d4529',
      '7e0702002201827061151401bc012510091507510000303032396238383500000000000000000000000000000000002b7e',
    ];
    expectSplitInvariant(splitJt808Frames, hex(frames.join('')), frames, 4096);
    expect(() => splitJt808Frames(Buffer.from(`(${'1'.repeat(70)}`), 64)).toThrow(expect.objectContaining({ reason: 'frame_too_large' }));
  });

  it('a 2019 terminal id that is not BCD is refused', () => {
    const content = Buffer.concat([hex('00024000'), hex('01'), hex('ffffffffffffffffffff'), hex('0001')]);
    const frame = Buffer.concat([hex('7e'), content, Buffer.from([content.reduce((x, b) => x ^ b, 0)]), hex('7e')]);
    expect(() => decodeJt808(frame, {})).toThrow(expect.objectContaining({ reason: 'bad_id' }));
  });
});

describe('jt808 further messages robustness (fast-check)', () => {
  it('random bodies of every further message type throw nothing but DecodeError', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(0x0107, 0x0210, 0x0701, 0x0702, 0x0900, 0x1007, 0x1300, 0x2070, 0x5501, 0x5502, 0x6006),
        fc.uint8Array({ maxLength: 200 }),
        (msgId, rest) => {
          const head = Buffer.alloc(msgId === 0x5501 || msgId === 0x5502 ? 11 : 12);
          head.writeUInt16BE(msgId, 0);
          head.writeUInt16BE(rest.length, 2);
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

  it('mutated and truncated captures throw nothing but DecodeError', () => {
    fuzzMutations(
      (f) => decodeJt808(f, {}),
      splitJt808Frames,
      messages.map(([, frame]) => hex(frame)),
    );
  });
});
