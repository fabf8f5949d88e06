import { describeTextCaptures, type DecodeCase } from '../../../test/protocol-helpers';
import { tk103Protocol } from './index';

/*
 * Real device messages from Traccar's public test data (traccar/traccar
 * src/test/java/org/traccar/protocol/Tk103ProtocolDecoderTest.java, 2024 version). Traccar asserts
 * a value for a few of them (named in the title); the other expected values were worked out by
 * hand from the text: classic layout yymmdd, comma layout ddmmyy, ddmm.mmmm coordinates, km/h,
 * hex fuel and odometer (m), ZC20 battery steps, BS50 little-endian and BS51 big-endian hex.
 */

const ascii = (text: string): string => Buffer.from(text, 'latin1').toString('hex');

const positions: DecodeCase[] = [
  [
    'BR00 (Traccar asserts 2015-10-24 05:51:48, -25.92255, 28.92222)',
    '(088047365460BR00151024A2555.3531S02855.3329E004.7055148276.1701000000L00009AA3)',
    {
      kind: 'position',
      type: 'BR00',
      ack: null,
      pos: {
        time: '2015-10-24T05:51:48.000Z',
        lat: -25.922552,
        lon: 28.922215,
        kmh: 4.7,
        course: 276.17,
        valid: true,
        ign: true,
        odometer: 0x9aa3,
        attrs: { charge: true, in2: false, panic: false, out2: false, fuel: 0 },
      },
    },
  ],
  [
    'BR00 with spaces padding longitude, speed and course',
    '(027023361470BR00200617A4000.5775N 8415.4076W 46.0173725 87.3101000000L00000000)',
    {
      kind: 'position',
      pos: { time: '2020-06-17T17:37:25.000Z', lat: 40.009625, lon: -84.256793, kmh: 46, course: 87.31, ign: true, odometer: 0 },
    },
  ],
  [
    'BR00 with a letter id',
    '(BALLESTEROS3BR00190408A4113.5700N00140.3100E000.0162431000.0001000000L00000000)',
    { kind: 'position', pos: { time: '2019-04-08T16:24:31.000Z', lat: 41.226167, lon: 1.671833, kmh: 0, course: 0 } },
  ],
  [
    'BR00 with a text tail after the odometer',
    '(094625928000BR00190213A1156.0431S07705.6145W000.000023521.40000000007L00000314T113)',
    {
      kind: 'position',
      pos: {
        time: '2019-02-13T00:02:35.000Z',
        lat: -11.934052,
        lon: -77.093575,
        course: 21.4,
        ign: false,
        odometer: 0x314,
        attrs: { fuel: 7 },
      },
    },
  ],
  [
    'BR00 moving, input 2 on, fuel 0x166',
    '(019358704260BR00180725A2300.0957N07235.2748E032.412092187.58001100166L000D9779)',
    {
      kind: 'position',
      pos: {
        time: '2018-07-25T12:09:21.000Z',
        lat: 23.001595,
        lon: 72.587913,
        kmh: 32.4,
        course: 87.58,
        ign: true,
        odometer: 0xd9779,
        attrs: { in2: true, fuel: 0x166 },
      },
    },
  ],
  [
    'BR00 with 5-digit speed and a P..BS.. tail',
    '(086375304593BR00210119A2220.0160N11335.4073E0000014000309.84001000293L0000015FP23BS27F)',
    {
      kind: 'position',
      pos: {
        time: '2021-01-19T14:00:03.000Z',
        lat: 22.3336,
        lon: 113.590122,
        kmh: 0,
        course: 9.84,
        ign: true,
        odometer: 0x15f,
        attrs: { fuel: 0x293 },
      },
    },
  ],
  [
    'BR00 with a hex fuel value',
    '(007611121184BR00170816A2401.5217N07447.0788E000.0221352232.340000004FL0030F14F)',
    {
      kind: 'position',
      pos: { time: '2017-08-16T22:13:52.000Z', lat: 24.025362, lon: 74.784647, course: 232.34, odometer: 0x30f14f, attrs: { fuel: 0x4f } },
    },
  ],
  [
    'BR00 with date and time appended',
    '(325031693849BR00170228A5750.8012N02700.7476E000.2154529000.0000000200L00000000,170228,194530)',
    {
      kind: 'position',
      pos: { time: '2017-02-28T15:45:29.000Z', lat: 57.846687, lon: 27.01246, kmh: 0.2, course: 0, attrs: { fuel: 0x200 } },
    },
  ],
  [
    'BR00 with a comma before the io (Traccar asserts fuel 0)',
    '(087073803649BR00170221A6142.0334N02712.2197E000.3203149000.00,00000000L00000000)',
    {
      kind: 'position',
      pos: { time: '2017-02-21T20:31:49.000Z', lat: 61.700557, lon: 27.203662, kmh: 0.3, course: 0, attrs: { fuel: 0 } },
    },
  ],
  [
    'BR00 invalid fix, 11-character id',
    '(01602009983BR00160830V1855.7022S4817.8731W000.0002729000.0010000000L00000000)',
    {
      kind: 'position',
      pos: { time: '2016-08-30T00:27:29.000Z', lat: -18.92837, lon: -48.297885, valid: false, attrs: { charge: false } },
    },
  ],
  [
    'BR00 with a temperature',
    '(088046338039BR00160727A3354.7768N03540.7258E000.0140832068.4700000000L00BEB0D4+017.7)',
    {
      kind: 'position',
      pos: { time: '2016-07-27T14:08:32.000Z', lat: 33.912947, lon: 35.678763, course: 68.47, odometer: 0xbeb0d4, attrs: { temp1: 17.7 } },
    },
  ],
  [
    'BR00 with a large odometer',
    '(01029131573BR00150428A3801.6382N02351.0159E000.0080729278.7800000000LEF9ECB9C)',
    { kind: 'position', pos: { time: '2015-04-28T08:07:29.000Z', lat: 38.027303, lon: 23.850265, odometer: 0xef9ecb9c } },
  ],
  [
    'BR00 with a course without decimals',
    '(013012345678BR00130515A4843.9703N01907.6211E000.019232800000000000000L00009239)',
    { kind: 'position', pos: { time: '2013-05-15T19:23:28.000Z', lat: 48.732838, lon: 19.127018, course: 0, odometer: 0x9239 } },
  ],
  [
    'BP05 login with the IMEI: answered AP05, a position',
    '(088046338039BP05000088046338039160727A3354.7768N03540.7258E000.0140309065.1000000000L00BEB0D4+017.3)',
    {
      kind: 'login',
      type: 'BP05',
      ack: ascii('(088046338039AP05)'),
      pos: { time: '2016-07-27T14:03:09.000Z', lat: 33.912947, lon: 35.678763, course: 65.1, odometer: 0xbeb0d4, attrs: { temp1: 17.3 } },
    },
  ],
  [
    'BP05 login, hs3 flag set',
    '(088048003342BP05354188048003342150917A1352.9801N10030.9050E000.0103115265.5600010000L000003F9)',
    {
      kind: 'login',
      ack: ascii('(088048003342AP05)'),
      pos: { time: '2015-09-17T10:31:15.000Z', lat: 13.883002, lon: 100.515083, course: 265.56, odometer: 0x3f9, attrs: { hs3: true } },
    },
  ],
  [
    'BP05 login with a fuel value',
    '(008600410203BP05000008600410203130721A4152.5790N01239.2770E000.0145238173.870100000AL0000000)',
    {
      kind: 'login',
      pos: {
        time: '2013-07-21T14:52:38.000Z',
        lat: 41.876317,
        lon: 12.654617,
        course: 173.87,
        ign: true,
        odometer: 0,
        attrs: { fuel: 10 },
      },
    },
  ],
  [
    'BP05 login with a T000 tail',
    '(094050000111BP05000094050000111150808A3804.2418N04616.7468E000.0201447133.3501000011L0028019DT000)',
    {
      kind: 'login',
      pos: {
        time: '2015-08-08T20:14:47.000Z',
        lat: 38.070697,
        lon: 46.279113,
        course: 133.35,
        ign: true,
        odometer: 0x28019d,
        attrs: { fuel: 0x11 },
      },
    },
  ],
  [
    'BP05 login with 0/0 coordinates: a state record with the device time',
    '(013632782450BP05000013632782450120803V0000.0000N00000.0000E000.0174654000.0000000000L00000000)',
    {
      kind: 'login',
      ack: ascii('(013632782450AP05)'),
      dt: '2012-08-03T17:46:54.000Z',
      attrs: { ignition: false, charge: true, odometer: 0 },
    },
  ],
  [
    'comma BP05 login (Traccar asserts 2014-04-24 11:28:25, 45.45586, 9.16626)',
    '(352606090042050,BP05,240414,A,4527.3513N,00909.9758E,4.80,112825,155.49)',
    {
      kind: 'login',
      type: 'BP05',
      ack: ascii('(352606090042050AP05)'),
      pos: { time: '2014-04-24T11:28:25.000Z', lat: 45.455855, lon: 9.166263, kmh: 4.8, course: 155.49 },
    },
  ],
  [
    'comma BP05 with io and odometer',
    '(013632782450,BP05,101201,A,2234.0297N,11405.9101E,000.0,040137,178.48,00000000,L00000000)',
    {
      kind: 'login',
      pos: {
        time: '2001-12-10T04:01:37.000Z',
        lat: 22.567162,
        lon: 114.098502,
        course: 178.48,
        ign: false,
        odometer: 0,
        attrs: { charge: true, fuel: 0 },
      },
    },
  ],
  [
    'comma BP05 invalid fix with 5-decimal minutes',
    '(864768010009188,BP05,271114,V,4012.19376N,00824.05638E,000.0,154436,000.0)',
    { kind: 'login', pos: { time: '2014-11-27T15:44:36.000Z', lat: 40.203229, lon: 8.40094, valid: false } },
  ],
  [
    'BP02 with a 15-digit id',
    '(357593060760397BP02,G,2,170304A6015.7466N01101.8460E001.609445591.048,7)',
    { kind: 'position', type: 'BP02', pos: { time: '2017-03-04T09:44:55.000Z', lat: 60.262443, lon: 11.030767, kmh: 1.6, course: 91.048 } },
  ],
  [
    'BO01 alarm digit 2 (sos), answered AS01',
    '(013666666666BO012110925A1234.5678N01234.5678W000.0025948118.7200000000L000024DE)',
    {
      kind: 'alarm',
      type: 'BO01',
      ack: ascii('(013666666666AS012)'),
      events: ['sos'],
      pos: { time: '2011-09-25T02:59:48.000Z', lat: 12.57613, lon: -12.57613, course: 118.72, odometer: 0x24de, alarm: 'sos' },
    },
  ],
  [
    'BO01 with an impossible date: the sos alarm as a state record, answered',
    '(013612345678BO012061830A2934.0133N10627.2544E040.0080331309.6200000000L000770AD)',
    { kind: 'alarm', ack: ascii('(013612345678AS012)'), events: ['sos'], attrs: { alarm: 'sos', odometer: 0x770ad } },
  ],
  [
    'BQ81 ,ALARM,1 (Traccar asserts overspeed)',
    '(044027395704BQ81,ALARM,1,164,151101A2238.5237N11349.4571E0.7031241010.0000,00000000)',
    {
      kind: 'alarm',
      type: 'BQ81',
      events: ['overspeed'],
      pos: { time: '2015-11-01T12:41:01.000Z', lat: 22.642062, lon: 113.824285, kmh: 0.703, course: 0, alarm: 'overspeed' },
    },
  ],
  [
    'BR00 with date 000007: no fix, nothing else (a heartbeat)',
    '(087072009461BR00000007V0000.0000N00000.0000E000.00014039900000000L00000000)',
    { kind: 'heartbeat', type: 'BR00' },
  ],
  [
    'DW3B with altitude, satellites (a longitude under one degree)',
    '(868822040452227,DW3B,150421,A,4154.51607N,45.78950E,0.050,103142,0.000,595.200,7,0)',
    {
      kind: 'position',
      type: 'DW3B',
      pos: { time: '2021-04-15T10:31:42.000Z', lat: 41.908601, lon: 0.763158, kmh: 0.05, course: 0, altitude: 595.2, sat: 7 },
    },
  ],
  [
    'DW3B with a negative altitude',
    '(864555555555555,DW3B,131117,A,5544.02870N,01315.08194E,1.597,223707,291.65,-0.10,4)',
    {
      kind: 'position',
      pos: { time: '2017-11-13T22:37:07.000Z', lat: 55.733812, lon: 13.251366, kmh: 1.597, course: 291.65, altitude: -0.1, sat: 4 },
    },
  ],
  [
    'DW30',
    '(864768010869060,DW30,050117,A,5135.82713N,00001.17918E,0.089,154745,000.0,43.40,12)',
    { kind: 'position', pos: { time: '2017-01-05T15:47:45.000Z', lat: 51.597119, lon: 0.019653, altitude: 43.4, sat: 12 } },
  ],
  [
    'ZC17 removing',
    '(864768011069660,ZC17,250517,A,3211.7118N,03452.8086E,0.68,115525,208.19,64.50,9)',
    {
      kind: 'alarm',
      type: 'ZC17',
      events: ['removing'],
      pos: {
        time: '2017-05-25T11:55:25.000Z',
        lat: 32.195197,
        lon: 34.880143,
        kmh: 0.68,
        course: 208.19,
        altitude: 64.5,
        sat: 9,
        alarm: 'removing',
      },
    },
  ],
  [
    'ZC11 movement without a fix: a state record with the alarm',
    '(864768011069660,ZC11,250517,V,0000.0000N,00000.0000E,000.0,114725,000.0,0.00,11)',
    { kind: 'alarm', type: 'ZC11', events: ['movement'], dt: '2017-05-25T11:47:25.000Z', attrs: { sat: 11, alarm: 'movement' } },
  ],
  [
    'ZC07',
    '(013632651491,ZC07,040613,A,2234.0297N,11405.9101E,000.0,040137,178.48)',
    { kind: 'position', type: 'ZC07', pos: { time: '2013-06-04T04:01:37.000Z', lat: 22.567162, lon: 114.098502, course: 178.48 } },
  ],
  [
    'ZC13 power cut',
    '(013632651491,ZC13,040613,A,2234.0297N,11405.9101E,000.0,040137,178.48)',
    { kind: 'alarm', events: ['powerCut'], pos: { time: '2013-06-04T04:01:37.000Z', lat: 22.567162, lon: 114.098502, alarm: 'powerCut' } },
  ],
];

const states: DecodeCase[] = [
  [
    'ZC20 battery: level step 6 = 100 %, 3.92 V, no external power',
    '(013632651491,ZC20,180716,144222,6,392,65535,255)',
    { kind: 'state', type: 'ZC20', dt: '2016-07-18T14:42:22.000Z', attrs: { batteryLevel: 100, battery: 3.92 } },
  ],
  [
    'ZC20 battery with external power 11.2 V',
    '(013632651491,ZC20,040613,040137,6,421,112,0)',
    { kind: 'state', dt: '2013-06-04T04:01:37.000Z', attrs: { batteryLevel: 100, battery: 4.21, power: 11.2 } },
  ],
  [
    'ZC20 battery level step 3 = 20 %',
    '(864768010159785,ZC20,291015,030413,3,362,65535,255)',
    { kind: 'state', dt: '2015-10-29T03:04:13.000Z', attrs: { batteryLevel: 20, battery: 3.62 } },
  ],
  [
    'BZ00 serving cell (hex lac/cid)',
    '(087073104337BZ00,740,000,3bf7,0425,3bf7,0bf5,3bf7,09e7,3bf7,cbad,3bf7,0dcf,3bf7,c7b2,01000000)',
    { kind: 'state', type: 'BZ00', attrs: { mcc: 740, mnc: 0, lac: 0x3bf7, cid: 0x425 } },
  ],
  [
    'BZ00 with signal values',
    '(088047194605BZ00,510,010,36e6,932c,43,36e6,766b,36,36e6,7668,32)',
    { kind: 'state', attrs: { mcc: 510, mnc: 10, lac: 0x36e6, cid: 0x932c } },
  ],
  [
    'BZ00 with {mcc,mnc,lac,cid} lines',
    '(027046434858BZ00,{460,0,20949,58711}\n{460,0,20494,54003}\n{460,0,20951,19569}\n,01000000)',
    {
      kind: 'state',
      type: 'BZ00',
      attrs: {
        mcc: 460,
        mnc: 0,
        lac: 20949,
        cid: 58711,
        cells: '460/0/20949/58711/0 460/0/20494/54003/0 460/0/20951/19569/0',
        status: '01000000',
      },
    },
  ],
  [
    'BP05 login with cell lines: answered AP05, a state record',
    '(027045009305BP05355227045009305,{413,2,30073,16724}\n{413,2,30073,16730}\n{413,2,30073,49860}\n,01000000)',
    { kind: 'login', type: 'BP05', ack: ascii('(027045009305AP05)'), attrs: { mcc: 413, mnc: 2, lac: 30073, cid: 16724 } },
  ],
  [
    'DW5B cell without Wi-Fi',
    '(358511020000026,DW5B,310,6,29876,30393,0,041217,102211)',
    { kind: 'state', type: 'DW5B', dt: '2017-12-04T10:22:11.000Z', attrs: { mcc: 310, mnc: 6, lac: 29876, cid: 30393 } },
  ],
  [
    'DW51 movement with two access points',
    '(864555555555555,DW51,200,1,3215,43370,2,58:F3:BB:3B:AA:82*-65*1,1C:6A:BB:AA:81:95*-78*1,151117,154419)',
    {
      kind: 'alarm',
      type: 'DW51',
      events: ['movement'],
      dt: '2017-11-15T15:44:19.000Z',
      attrs: { mcc: 200, mnc: 1, lac: 3215, cid: 43370, wifi: '58:f3:bb:3b:aa:82/-65 1c:6a:bb:aa:81:95/-78' },
    },
  ],
  [
    'DW5B with five access points',
    '(864555555555555,DW5B,210,6,5995,47701,5,30:EE:CC:E7:86:DD*-59*11,4C:60:CC:EA:BB:EE*-68*1,42:AA:DE:EA:BB:00*-69*1,32:CD:BB:C3:4F:CC*-86*3,10:00:43:BA:22:15*-88*1,151117,163722)',
    {
      kind: 'state',
      dt: '2017-11-15T16:37:22.000Z',
      attrs: {
        mcc: 210,
        mnc: 6,
        wifi: '30:ee:cc:e7:86:dd/-59 4c:60:cc:ea:bb:ee/-68 42:aa:de:ea:bb:00/-69 32:cd:bb:c3:4f:cc/-86 10:00:43:ba:22:15/-88',
      },
    },
  ],
  [
    'DW50 with two access points',
    '(013632651491,DW50,460,0,0,6,2,aa:bb:cc:dd:ee:ff*-8*0,aa:bb:cc:dd:ee:ff*-8*0,040613,040137)',
    {
      kind: 'state',
      type: 'DW50',
      dt: '2013-06-04T04:01:37.000Z',
      attrs: { mcc: 460, mnc: 0, lac: 0, cid: 6, wifi: 'aa:bb:cc:dd:ee:ff/-8 aa:bb:cc:dd:ee:ff/-8' },
    },
  ],
  [
    'BV00 VIN (Traccar asserts the VIN)',
    '(027023361470BV005J6RW2H53HL066029)',
    { kind: 'state', type: 'BV00', attrs: { vin: '5J6RW2H53HL066029' } },
  ],
  [
    'BS50 battery management (Traccar asserts batteryTemp2 26)',
    '(352602014867BS500064FF0EF10FF10FF00FF20FF30FF20FF20FF40FF20FF40FF40FF20FF30FF20F0000000000000000000000000000000000000000000000001663000000010004000000000000000002444444420000000000A00FA000000000000000200000000315E2000000)',
    {
      kind: 'state',
      type: 'BS50',
      attrs: {
        battery1: 4.081,
        battery14: 4.082,
        charge: true,
        current: 0,
        battery: 56.32,
        batteryLevel: 99,
        cycles: 4,
        powerTemp: 28,
        batteryTemp1: 28,
        batteryTemp2: 26,
        calibrationCapacity: 40,
        dischargeCapacity: 160,
      },
    },
  ],
  [
    'BS51 battery management groups',
    '(007030201454BS5190:02150000753001DC,91:0EE8060EDC0A01DC,92:42014201DC0A01DC,93:00010127000037C8,94:0E01000002000000,95:020EE10EE20EE800030EE40EE00EE700040EDD0EE40EE400050EDC0EDF0EE400,96:0142000000000000,97:0000000000000000,98:0000000000000000)',
    {
      kind: 'state',
      type: 'BS51',
      attrs: {
        cumulativeVoltage: 53.3,
        current: 0,
        soc: 47.6,
        maxCellVoltage: 3.816,
        maxCellVoltageCount: 6,
        minCellVoltage: 3.804,
        minCellVoltageCount: 10,
        maxTemp: 26,
        minTemp: 26,
        cellTemp1: 26,
      },
    },
  ],
];

const others: DecodeCase[] = [
  [
    'BP00 handshake: answered AP01HSO, nothing stored',
    '(027044702512BP00027044702512HSO01A4)',
    { kind: 'heartbeat', type: 'BP00', ack: ascii('(027044702512AP01HSO)') },
  ],
  ['BP00 short form', '(087073005534BP00HSO)', { kind: 'heartbeat', ack: ascii('(087073005534AP01HSO)') }],
  [
    'ZC03 command reply with its device time',
    '(864555555555555,ZC03,191117,234207,$Notice: Device version: 1.0$)',
    { kind: 'result', type: 'ZC03', dt: '2017-11-19T23:42:07.000Z', result: 'Notice: Device version: 1.0' },
  ],
  [
    'ZC03 multi-line reply holding parentheses',
    '(864555555555555,ZC03,191117,234207,$1 .Sensor sensitivity: 1\r\n2 .Alert status: Off\r\n3 .Check interval is set to 240 minute(s).\r\n4 .Checkgsm interval is set to 60 minute(s).\r\n5 .SOS SMS Alert: On\r\n6 .SOS Call Alert: On\r\n7 . Power: 95%$)',
    {
      kind: 'result',
      result:
        '1 .Sensor sensitivity: 1\r\n2 .Alert status: Off\r\n3 .Check interval is set to 240 minute(s).\r\n4 .Checkgsm interval is set to 60 minute(s).\r\n5 .SOS SMS Alert: On\r\n6 .SOS Call Alert: On\r\n7 . Power: 95%',
    },
  ],
  [
    'BQ86: refused, layout not public (Traccar returns nothing)',
    '(027028258309BQ86,0,05550c21b10d1d0f431008bd114c0ea5078400010007a100423932,161117005322,01000001)',
    { kind: 'ignored', type: 'BQ86', why: 'not public' },
  ],
];

describeTextCaptures(
  tk103Protocol,
  { 'position reports': positions, 'state records': states, 'handshakes, replies, refusals': others },
  '0123456789ABCDEF.,:*${}AVNSEWLBRPOZCDW +-\n',
);
