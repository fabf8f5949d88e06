import { describe, expect, it } from 'vitest';
import { expectSanePosition, expectSplitInvariant, fuzzMutations, hex, itDecodes, type DecodeCase } from '../../../test/protocol-helpers';
import { DecodeError } from '../protocol';
import { decodeMeitrack, encodeMeitrackCommand, splitMeitrackFrames } from './index';

/*
 * Binary CCE reports: real device messages from Traccar's public test data (traccar/traccar
 * src/test/java/org/traccar/protocol/MeitrackProtocolDecoderTest.java). Traccar asserts one value
 * per message (named in the title); the other expected values were read off the bytes by hand
 * (little-endian, coordinates 1e-6 degrees, seconds since 2000-01-01) and checked against the
 * cell's country code (505 Australia, 510 Indonesia, 460 China, 240 Sweden, 525 Singapore,
 * 232 Austria). Two captures were edited upstream and carry a wrong checksum.
 */

describe('meitrack CCE buffered reports', () => {
  itDecodes(
    [
      [
        'T399 with a camera alarm: image file (Traccar asserts the image path), 4G cell, power 13.7 V',
        '2424623139352c3836363439363037373538323136342c4343452c000000000100a1001b00050501060e0718140015020a0826000965000a08000b00001600001700001800001992001a5a05408f0205029e1460fe03470f1f0904785ed62f0c4cbc00000d2af20100070e0cf901010031700210cc080000fe311c020732303235303630373132323034315f4348315f6463612e6a706749090403000000000000004b0a010107464444204c54454c0a03010000020000228435fe79020102fe800201022a34310d0a',
        {
          kind: 'position',
          type: 'CCE',
          ack: '40406232372c3836363439363037373538323136342c4343452c312a31340d0a',
          crc: true,
          pos: {
            time: '2025-06-07T02:20:40.000Z',
            lat: -27.257698,
            lon: 153.030471,
            kmh: 38,
            course: 101,
            sat: 14,
            power: 13.7,
            battery: 1.46,
            odometer: 48204,
            hdop: 0.8,
            attrs: { image: '2025-06-07/20250607122041_CH1_dca.jpg', alarmType: 7, mcc: 505, mnc: 1, lac: 28721, cid: 147591170, input: 2 },
          },
        },
      ],
      [
        'BLE temperature tag (Traccar asserts tagTemp -10.63671875)',
        '2424483136302c3836323039303035303436323733362c4343452c0000000001007e0018000705010609071714001500fe69601b0008080000093e010a0b000b4f001608001993011af40440230006028e03a0ff036bc85d06046b1f582e0cbc1100000dfd8507001c01000000030e0cfe010a00de0419019a06a1fffe731a010554656d7031ac233faf076e645df5913200000000000000004b060101034c54452a39450d0a',
        {
          kind: 'position',
          pos: {
            time: '2024-08-21T03:45:47.000Z',
            lat: -6.290546,
            lon: 106.809451,
            course: 318,
            altitude: 79,
            power: 12.68,
            battery: 4.03,
            attrs: { tagName: 'Temp1', tagTemp: -10.63671875, tagBattery: 100, batteryLevel: 96, mcc: 510 },
          },
        },
      ],
      [
        'OBD truck: rpm, coolant, fuel used, engine hours (Traccar asserts hours 644515 min; the capture checksum is wrong)',
        '24246d3230312c3836393430393036323730323834332c4343452c000000000100a7002a000d05010626070914001502930194009500960097629d209e63a1640e0824000956000a07000b2a001606001704001901001a0e0b91280092280099ef049c52009f1b004023000c0215b9f2ff035855f506041e0f142d0c01708c010d748ac2001c012000009a000000009bd0623e02a0889ff201a2d61a0000a542020000fef4a3d50900030e0cfe010a007f466ffc0000000049090401000000000000004b0501010232472a44360d0a',
        {
          kind: 'position',
          crc: false,
          pos: {
            time: '2023-12-19T08:21:50.000Z',
            lat: -0.870123,
            lon: 116.741464,
            kmh: 36,
            course: 86,
            power: 28.3,
            attrs: {
              hours: 38670900000,
              rpm: 1263,
              coolantTemp: 82,
              obdSpeed: 40,
              throttle: 98,
              fuelUsed: 32677.768,
              obdOdometer: 37642960,
            },
          },
        },
      ],
      [
        'BLE tag name (Traccar asserts tnhsensor; the capture checksum is wrong)',
        '2424593136312c3836323039303035303031363139332c4343452c0000000001007f0017000705010607071714001500fe69601b00070800000971000a13000b19001605001acc0440230006029779570103eb5bcc06041ff0e8290c430100000d780400001c01000000030e0ccc010000922781abb90ca4fffe731e0109746e6873656e736f72ac233f6e219064051b753b00000000000000004b060101034c54452a42380d0a',
        {
          kind: 'position',
          crc: false,
          pos: { time: '2022-04-13T02:21:19.000Z', lat: 22.509975, lon: 114.056171, attrs: { tagName: 'tnhsensor', tagBattery: 100 } },
        },
      ],
      [
        'three battery levels (Traccar asserts battery2Level 88), no fix: valid=false',
        '2424683136342c3836363334343035333039353238322c4343452c000000000100820018000505000600070b14001500080800000900000a00000b00001606001a0000402300fe90000006022e79570103e55ccc0604e1fdb32b0cc32c00000d58eb02001c01000000050e0ccc010000b627bf11000000004b1001010d475052532847534d2039303029fea50601ffffff7ffffea80701010258023800feb20501010000002a41360d0a',
        {
          kind: 'position',
          pos: {
            time: '2023-03-27T07:10:25.000Z',
            lat: 22.50987,
            lon: 114.056421,
            valid: false,
            attrs: { batteryLevel: 1, battery2Level: 88, battery3Level: 56 },
          },
        },
      ],
      [
        'eight Wi-Fi access points and an LTE cell (Sweden)',
        '2424533232312c3836323331313036323737393431362c4343452c000000000100bb001c0006012305000600071f1500fe6961050800000900000a00000b00001aca000702a72c52030340a0c90004f3408b2c0ca80100000d238d08001c01000000fe37000000000a0e0cf00001002700167aa601a0ff1d082abd890a491cd2ff1e0828bd890a491cd2ff1f0842490f526db0caff20083c286d5b082cc9ff21083e286d5b082cc9ff2208ac233fc0d2e0c7ff2308b0411d64d9d5c7ff2408ae233fc0d496c3ff4b150101124c54452845555452414e2d42414e443230292a38420d0a',
        {
          kind: 'position',
          pos: {
            time: '2023-09-06T13:53:55.000Z',
            lat: 55.717031,
            lon: 13.21376,
            valid: false,
            attrs: {
              mcc: 240,
              mnc: 1,
              batteryLevel: 97,
              wifi: '2a:bd:89:0a:49:1c/-46 28:bd:89:0a:49:1c/-46 42:49:0f:52:6d:b0/-54 3c:28:6d:5b:08:2c/-55 3e:28:6d:5b:08:2c/-55 ac:23:3f:c0:d2:e0/-57 b0:41:1d:64:d9:d5/-57 ae:23:3f:c0:d4:96/-61',
            },
          },
        },
      ],
      [
        'lock state (Traccar asserts lock true)',
        '24245b3131342c3836343630363034343939333938372c4343452c0000000001005000130006012305000600070f1b004702060800000900000a00000b0000199d011a00000602d179570103b25ccc0604cf04862b0cc65b01000da4090d001c01000000010e0ccc010000b627be11000000002a41300d0a',
        {
          kind: 'position',
          pos: { time: '2023-02-20T10:15:43.000Z', lat: 22.510033, lon: 114.05637, battery: 4.13, attrs: { lock: true } },
        },
      ],
      [
        'eight temperature sensors',
        '24246a3138312c3836343238313034313930383330332c4343452c00000000010093001f000505000600070714001502090800000900000a00000b0000160a001706001904001ad90440230006023279570103305ccc0604f536492b0c510300000d495701001c014000000b0e0ccc010000922781abb90c00002a030034212b03008b082c030053082d03009e082e030034212f030034213003003421310300342149090400000000000000004b07010104574946492a36310d0a',
        {
          kind: 'position',
          pos: {
            time: '2023-01-05T07:21:25.000Z',
            lat: 22.509874,
            lon: 114.05624,
            power: 12.41,
            attrs: { temp1: 85, temp2: 21.87, temp3: 21.31, temp4: 22.06 },
          },
        },
      ],
      [
        'OBD speed and rpm, hard cornering event 90 (Singapore)',
        '2424413132332c3836313538353034333230303836322c4343452c010000000100590015000305010609071b0b081c000939010a07000b1700199e011a9505921a0099c4089c5500c93e00405a000602a8b114000343f12e0604d18806270c654a2e000da20537009bb8963904010e0c0d020300aa7a0af69e0100002a35340d0a',
        {
          kind: 'alarm',
          events: ['hardCornering'],
          pos: {
            time: '2020-09-30T00:07:45.000Z',
            lat: 1.3562,
            lon: 103.739715,
            kmh: 28,
            course: 313,
            alarm: 'hardCornering',
            attrs: { obdSpeed: 26, rpm: 2244, coolantTemp: 85, mcc: 525 },
          },
        },
      ],
      [
        'Graz, cell with signal',
        '24246b3131342c3836353738393032343134303439352c4343452c0000000001005000130006011f05010607071415001b00060800000949010a0c000b9b0119a1011afe010602e934ce0203fc9aeb0004309f13220cafc503000d97741e001c01000000010e0ce8000300092f2e060000b7ff2a33330d0a',
        {
          kind: 'position',
          pos: {
            time: '2018-02-12T00:41:20.000Z',
            lat: 47.068393,
            lon: 15.440636,
            course: 329,
            altitude: 411,
            power: 5.1,
            battery: 4.17,
            attrs: { mcc: 232, mnc: 3, lac: 12041, cid: 1582 },
          },
        },
      ],
    ] satisfies DecodeCase[],
    (frame) => decodeMeitrack(hex(frame), {}),
  );

  it('three packets in one report: three positions, acknowledged with CCE,3 so the tracker drops them', () => {
    const r = decodeMeitrack(
      hex(
        '2424593434312c3836353431333035303839313733372c4343452c00000000030088001800050501061607191400150008080000098e000a05000b0c001608001a0000402300fe9000000602c3fe5ffe03e22a1f0904e6688d2b0cd94002000d5f6f03001c01000000050e0cf901010032700298c80899ff4b16010113464444204c5445284c54452042414e44203329fea50601ffffff7ffffea807024d0000000000feb205010000000083001700050501061607191400150008080000098e000a05000b0c001608001a0000405100fe9000000502c3fe5ffe03e22a1f0904e6688d2b0cd94002000d606f0300050e0cf901010032700298c80899ff4b16010113464444204c5445284c54452042414e44203329fea50601ffffff7ffffea807024d0000000000feb205010000000088001800050501061607151400150008080000098e000a05000b0c001607001a0000402300fe9000000602c3fe5ffe03e22a1f0904f0688d2b0cd94002000d696f03001c01000000050e0cf901010032700298c80897ff4b16010113464444204c5445284c54452042414e44203329fea50601ffffff7ffffea807024d0000000000feb20501000000002a36320d0a',
      ),
      {},
    );
    expect(r.positions).toHaveLength(3);
    r.positions.forEach(expectSanePosition);
    expect(r.positions.map((p) => p.attributes.batteryLevel)).toEqual([77, 77, 77]);
    expect(r.ack?.toString('latin1')).toBe('@@Y27,865413050891737,CCE,3*01\r\n');
  });

  it('events 22 (power restored) and 1 (SOS) across three packets', () => {
    const r = decodeMeitrack(
      hex(
        '2424423233392c3836323039303035303030373436352c4343452c0100000003004300130006050006000700140015801b00080800000900000a00000b0000165105198d011a630540160005024c5e910103590bfe0204922153290c6b2501000dd5b50200004300130006050006000700140015011b00080800000900000a00000b0000165005198d011a630540010005024c5e910103590bfe0204932153290c6b2501000dd6b50200004300130006050006000700140015011b00080800000900000a00000b0000165205198d011a630540230005024c5e910103590bfe0204942153290c6b2501000dd7b50200002a43330d0a',
      ),
      {},
    );
    expect(r.kind).toBe('alarm');
    expect(r.events).toEqual([{ alarm: 'powerRestored' }, { alarm: 'sos' }]);
    expect(r.positions[1]).toMatchObject({ alarm: 'sos', power: 13.79, battery: 3.97 });
    expect(r.positions[1]?.attributes).toMatchObject({ input: 1, event: 1 });
  });

  it('a driver card event (37) with its id, two packets', () => {
    const r = decodeMeitrack(
      hex(
        '24245b3139312c3836343630363034343939333938372c4343452c010000000200500013000601250500060007111b00470206080000093e000ae7030b0000199e011a850306028d7a570103f35acc0604f9d06c2b0cb92e00000d3fa40c00250ca2b900010e0ccc010000b6276313000000004b00120006012a0500060007111b00470206080000093e000ae7030b0000199e011a7c0305028d7a570103f35acc0604f9d06c2b0cb92e00000d3fa40c00010e0ccc010000b6276313000000002a31340d0a',
      ),
      {},
    );
    expect(r.positions).toHaveLength(2);
    expect(r.positions[0]?.attributes).toMatchObject({ event: 37, driverUniqueId: '12165644', lock: true });
    expect(r.ack?.toString('latin1')).toContain(',CCE,2*');
  });

  it('the acknowledgement is framed like every server command: length from the first comma, byte-sum checksum', () => {
    const ack = encodeMeitrackCommand('Y', '865413050891737', 'CCE,3');
    const text = ack.toString('latin1');
    expect(Number(text.slice(3, text.indexOf(',')))).toBe(ack.length - text.indexOf(','));
    let sum = 0;
    for (const b of ack.subarray(0, text.indexOf('*') + 1)) sum = (sum + b) & 0xff;
    expect(text.slice(text.indexOf('*') + 1, text.indexOf('*') + 3)).toBe(sum.toString(16).toUpperCase().padStart(2, '0'));
    // Traccar's AAC answer, for comparison: @@z27,<imei>,AAC,1*<checksum>
    expect(encodeMeitrackCommand('z', '865413050891737', 'AAC,1').toString('latin1')).toMatch(
      /^@@z27,865413050891737,AAC,1\*[0-9A-F]{2}\r\n$/,
    );
  });
});

describe('meitrack CCC compressed reports', () => {
  it('52-byte packets (built per the T622 layout: no public capture), acknowledged with CCC,<count>', () => {
    const packet = Buffer.alloc(52);
    packet.writeUInt8(35, 0); // event
    packet.writeInt32LE(-1_286_389, 1); // lat -1.286389 (Nairobi)
    packet.writeInt32LE(36_817_223, 5); // lon 36.817223
    packet.writeUInt32LE(Date.UTC(2024, 4, 6, 7, 8, 9) / 1000 - 946_684_800, 9);
    packet.writeUInt8(1, 13); // valid
    packet.writeUInt8(9, 14); // satellites
    packet.writeUInt8(20, 15); // GSM signal
    packet.writeUInt16LE(56, 16); // km/h
    packet.writeUInt16LE(180, 18); // course
    packet.writeUInt16LE(8, 20); // hdop x10
    packet.writeUInt16LE(1661, 22); // altitude
    packet.writeUInt32LE(123_456, 24); // odometer
    packet.writeUInt16LE(639, 32); // mcc Kenya
    packet.writeUInt16LE(2, 34);
    packet.writeUInt16LE(412, 44); // battery 0.01 V
    packet.writeUInt16LE(2710, 46); // power 0.01 V
    const body = Buffer.concat([Buffer.from('0105340001000000', 'hex'), packet]);
    const head = Buffer.from(',865413050891737,CCC,', 'latin1');
    const withoutLength = Buffer.concat([head, body, Buffer.from('*00\r\n', 'latin1')]);
    const frame = Buffer.concat([Buffer.from(`$$A${withoutLength.length}`, 'latin1'), withoutLength]);
    const r = decodeMeitrack(frame, {});
    expect(r.type).toBe('CCC');
    const [p] = r.positions;
    expectSanePosition(p!);
    expect(p).toMatchObject({
      latitude: -1.286389,
      longitude: 36.817223,
      satellites: 9,
      course: 180,
      altitude: 1661,
      odometer: 123_456,
      hdop: 0.8,
      battery: 4.12,
      power: 27.1,
    });
    expect(p!.fixTime.toISOString()).toBe('2024-05-06T07:08:09.000Z');
    expect(r.ack?.toString('latin1')).toMatch(/^@@A27,865413050891737,CCC,1\*[0-9A-F]{2}\r\n$/);
  });
});

describe('meitrack binary framing and robustness', () => {
  const frames = [
    '2424623139352c3836363439363037373538323136342c4343452c000000000100a1001b00050501060e0718140015020a0826000965000a08000b00001600001700001800001992001a5a05408f0205029e1460fe03470f1f0904785ed62f0c4cbc00000d2af20100070e0cf901010031700210cc080000fe311c020732303235303630373132323034315f4348315f6463612e6a706749090403000000000000004b0a010107464444204c54454c0a03010000020000228435fe79020102fe800201022a34310d0a',
    '2424593434312c3836353431333035303839313733372c4343452c00000000030088001800050501061607191400150008080000098e000a05000b0c001608001a0000402300fe9000000602c3fe5ffe03e22a1f0904e6688d2b0cd94002000d5f6f03001c01000000050e0cf901010032700298c80899ff4b16010113464444204c5445284c54452042414e44203329fea50601ffffff7ffffea807024d0000000000feb205010000000083001700050501061607191400150008080000098e000a05000b0c001608001a0000405100fe9000000502c3fe5ffe03e22a1f0904e6688d2b0cd94002000d606f0300050e0cf901010032700298c80899ff4b16010113464444204c5445284c54452042414e44203329fea50601ffffff7ffffea807024d0000000000feb205010000000088001800050501061607151400150008080000098e000a05000b0c001607001a0000402300fe9000000602c3fe5ffe03e22a1f0904f0688d2b0cd94002000d696f03001c01000000050e0cf901010032700298c80897ff4b16010113464444204c5445284c54452042414e44203329fea50601ffffff7ffffea807024d0000000000feb20501000000002a36320d0a',
    '24245f3237382c3836353738393032313434373233322c4343452c5b00000003005000130006012305010608070d15001b0006080000091e010a09000b2e0019a1011af90106025c033300039be60c06044f6678210c6f1806000d48db06001c41000000010e0cf60113002005912b830001ff5000130006012305010608070d15001b0006080000091e010a09000b2e0019a0011af90106025c033300039be60c0604506678210c6f1806000d49db06001c41000000010e0cf60113002005912b830001ff5000130006012305010608070d15001b0006080000091e010a09000b2e0019a1011af90106025c033300039be60c0604516678210c6f1806000d4adb06001c41000000010e0cf60113002005912b830001ff2a37460d0a',
  ];

  it('binary CCE frames (with CR LF and $$ bytes inside) split identically at every byte offset', () => {
    expectSplitInvariant(splitMeitrackFrames, hex(frames.join('')), frames, 4096);
  });

  it('mutated and truncated CCE captures throw nothing but DecodeError', () => {
    fuzzMutations(
      (f) => decodeMeitrack(f, {}),
      splitMeitrackFrames,
      [
        ...frames,
        '24245b3139312c3836343630363034343939333938372c4343452c010000000200500013000601250500060007111b00470206080000093e000ae7030b0000199e011a850306028d7a570103f35acc0604f9d06c2b0cb92e00000d3fa40c00250ca2b900010e0ccc010000b6276313000000004b00120006012a0500060007111b00470206080000093e000ae7030b0000199e011a7c0305028d7a570103f35acc0604f9d06c2b0cb92e00000d3fa40c00010e0ccc010000b6276313000000002a31340d0a',
        '2424423233392c3836323039303035303030373436352c4343452c0100000003004300130006050006000700140015801b00080800000900000a00000b0000165105198d011a630540160005024c5e910103590bfe0204922153290c6b2501000dd5b50200004300130006050006000700140015011b00080800000900000a00000b0000165005198d011a630540010005024c5e910103590bfe0204932153290c6b2501000dd6b50200004300130006050006000700140015011b00080800000900000a00000b0000165205198d011a630540230005024c5e910103590bfe0204942153290c6b2501000dd7b50200002a43330d0a',
      ].map(hex),
    );
  });

  it('a CCE packet longer than its report is refused with DecodeError', () => {
    const broken = hex(
      '2424623139352c3836363439363037373538323136342c4343452c000000000100a1001b00050501060e0718140015020a0826000965000a08000b00001600001700001800001992001a5a05408f0205029e1460fe03470f1f0904785ed62f0c4cbc00000d2af20100070e0cf901010031700210cc080000fe311c020732303235303630373132323034315f4348315f6463612e6a706749090403000000000000004b0a010107464444204c54454c0a03010000020000228435fe79020102fe800201022a34310d0a',
    );
    broken.writeUInt16LE(0xffff, broken.indexOf(Buffer.from(',CCE,')) + 5 + 6);
    expect(() => decodeMeitrack(broken, {})).toThrow(DecodeError);
  });
});
