import { describe, expect, it } from 'vitest';
import { describeTextCaptures, expectDecoded, expectSplitInvariant, type DecodeCase } from '../../../test/protocol-helpers';
import { DecodeError, type DecodeResult } from '../protocol';
import { decodeQueclink, encodeQueclinkCommand, modelOf, queclinkProtocol, splitQueclinkFrames } from './index';

/*
 * Real device messages from Traccar's public tests (traccar/traccar
 * src/test/java/org/traccar/protocol/Gl200TextProtocolDecoderTest.java, Gl200FrameDecoderTest.java),
 * one or more per model and report type: the GV series (GV300, GV300W, GV55, GV56, GV65, GV75W,
 * GV200, GV350M, GV310LAU, GV355CEU, GV58LAU, GV30CEU, GV500, GV500MAP, GV600M, GV600MG), CV100LG and
 * CV200, GB100, GMT100, the GL series (GL200, GL300, GL300W, GL300VC, GL320M, GL500, GL500M, GL530),
 * the GT501 and GT300, and models whose protocol version no table names (2E, 24, 38, 66, 71, 84, F5
 * here; services/ingest/test/corpus has all 189 messages): none is refused for being a model.
 * The values are read from the fields by hand (Queclink's @Track protocol documents: location
 * `<GPS accuracy>,<speed km/h>,<azimuth>,<altitude>,<longitude>,<latitude>,<UTC time>,<MCC>,<MNC>,
 * <LAC hex>,<cell hex>,<reserved | odometer km | append mask>`; GPS accuracy 0 = the last known
 * fix). Traccar asserts a few (named in the titles).
 */
const sack = (count: string): string => Buffer.from(`+SACK:${count}$`).toString('hex');

const gvSeries: DecodeCase[] = [
  [
    'GV300 GTFRI: external power, mileage, hour meter, analog inputs, battery, device status',
    '+RESP:GTFRI,060228,862894020178276,,15153,10,1,1,0.0,0,431.7,-63.169571,-17.776235,20160210153458,0736,0003,6AD4,80EF,00,34.9,00117:31:26,13442,15163,0,210101,,,,20160210113503,38EE$',
    {
      kind: 'position',
      type: 'GTFRI',
      ack: sack('38EE'),
      pos: {
        time: '2016-02-10T15:34:58.000Z',
        lat: -17.776235,
        lon: -63.169571,
        kmh: 0,
        course: 0,
        altitude: 431.7,
        hdop: 1,
        valid: true,
        power: 15.153,
        odometer: 34_900,
        ign: true,
        attrs: {
          mcc: 736,
          mnc: 3,
          lac: 0x6ad4,
          cid: 0x80ef,
          hours: (117 * 3600 + 31 * 60 + 26) * 1000,
          adc1: 13.442,
          adc2: 15.163,
          batteryLevel: 0,
          input: 1,
          output: 1,
          out1: true,
        },
      },
    },
  ],
  [
    'GV300 +BUFF GTFRI: archived, battery 94 %',
    '+BUFF:GTFRI,060402,862894021808798,,,10,1,1,0.0,349,394.3,-63.287717,-17.662410,20160116234031,0736,0003,6ABA,8305,00,3326.8,,,,94,220100,,,,20160116194035,4D83$',
    {
      kind: 'position',
      ack: sack('4D83'),
      pos: {
        time: '2016-01-16T23:40:31.000Z',
        lat: -17.66241,
        lon: -63.287717,
        course: 349,
        odometer: 3_326_800,
        ign: true,
        attrs: { archive: true, batteryLevel: 94 },
      },
    },
  ],
  [
    'GV300 GTIGN: ignition on; accuracy 0 is the last known fix',
    '+RESP:GTIGN,060228,862894020180553,,9860,0,0.2,189,420.0,-63.158195,-17.800608,20160309022951,0736,0003,6AD4,3471,00,,881.2,20160308222956,129A$',
    {
      kind: 'position',
      type: 'GTIGN',
      pos: {
        time: '2016-03-09T02:29:51.000Z',
        lat: -17.800608,
        lon: -63.158195,
        kmh: 0.2,
        course: 189,
        valid: false,
        ign: true,
        odometer: 881_200,
      },
    },
  ],
  [
    'GV300 +BUFF GTIGF: ignition off, archived',
    '+BUFF:GTIGF,060228,862894020180553,,1958,0,0.0,240,390.3,-63.089213,-17.764712,20160309122854,0736,0003,6AB8,5A23,00,,936.8,20160309082858,1368$',
    {
      kind: 'position',
      pos: { time: '2016-03-09T12:28:54.000Z', lat: -17.764712, lon: -63.089213, ign: false, odometer: 936_800, attrs: { archive: true } },
    },
  ],
  [
    'GV300 GTIDA: driver RFID',
    '+RESP:GTIDA,060228,862894020178276,,,01C68011010000C7,1,1,0,0.0,0,413.0,-63.169675,-17.776349,20160317222129,0736,0003,6AD4,32CF,00,34.9,,,,,20160317182130,1626$',
    {
      kind: 'position',
      type: 'GTIDA',
      pos: {
        time: '2016-03-17T22:21:29.000Z',
        lat: -17.776349,
        lon: -63.169675,
        valid: false,
        odometer: 34_900,
        attrs: { driverUniqueId: '01C68011010000C7' },
      },
    },
  ],
  [
    'GV300 GTSTT: motion state 21 (ignition on, at rest)',
    '+RESP:GTSTT,060228,862894020178276,,21,0,0.0,0,411.3,-63.169745,-17.776330,20160319132220,0736,0003,6AD4,5BAA,00,20160319092223,1FBD$',
    {
      kind: 'position',
      type: 'GTSTT',
      pos: { time: '2016-03-19T13:22:20.000Z', lat: -17.77633, lon: -63.169745, ign: true, attrs: { motion: false } },
    },
  ],
  [
    'GV300W GTIGF',
    '+RESP:GTIGF,270302,867162025085234,,3519,0,0.0,92,111.2,-116.867638,32.450321,20180327070835,0334,0020,2B24,52CC3DE,00,,243.1,20180327070837,2A98$',
    {
      kind: 'position',
      ack: sack('2A98'),
      pos: {
        time: '2018-03-27T07:08:35.000Z',
        lat: 32.450321,
        lon: -116.867638,
        altitude: 111.2,
        course: 92,
        ign: false,
        odometer: 243_100,
        attrs: { cid: 0x52cc3de },
      },
    },
  ],
  [
    'GV300W GTDIS: input 2 active (report type 21)',
    '+RESP:GTDIS,270302,867162025086950,,,21,1,1,0.0,81,117.8,-116.862025,32.453497,20180309084516,0334,0020,2B24,52CA916,00,1286.2,20180309084517,357E$',
    {
      kind: 'position',
      type: 'GTDIS',
      pos: { time: '2018-03-09T08:45:16.000Z', lat: 32.453497, lon: -116.862025, odometer: 1_286_200, attrs: { in2: true } },
    },
  ],
  [
    'GV300W GTIGL: ignition on (report type 01)',
    '+RESP:GTIGL,270302,867162025085234,,,01,1,1,0.0,92,111.2,-116.867638,32.450321,20180327070838,0334,0020,2B24,52CC3DE,00,243.1,20180327070839,2A9A$',
    { kind: 'position', pos: { time: '2018-03-27T07:08:38.000Z', lat: 32.450321, lon: -116.867638, ign: true, odometer: 243_100 } },
  ],
  [
    'GV300W GTDAT: the serial data (Traccar asserts data)',
    '+RESP:GTDAT,270B01,867162027893742,gv300w,1,,,>I:5014|DB|607|0|0.00|0.00|0.00|0|0|0|0|1679|4|<,0,37.6,184,1940.4,-101.041169,22.143452,20240726234344,0334,0020,2F03,BDB2E4B,00,,,,,20240726234346,4CFE$',
    {
      kind: 'position',
      type: 'GTDAT',
      pos: {
        time: '2024-07-26T23:43:44.000Z',
        lat: 22.143452,
        lon: -101.041169,
        kmh: 37.6,
        course: 184,
        valid: false,
        attrs: { data: '>I:5014|DB|607|0|0.00|0.00|0.00|0|0|0|0|1679|4|<' },
      },
    },
  ],
  [
    'GV55 GTFRI: altitude empty',
    '+RESP:GTFRI,0F0106,862193020451183,,,10,1,1,0.0,163,,-57.513617,-25.368191,20150918182145,,,,,,21235.0,,,,0,210100,,,,20150918182149,00B8$',
    {
      kind: 'position',
      pos: {
        time: '2015-09-18T18:21:45.000Z',
        lat: -25.368191,
        lon: -57.513617,
        course: 163,
        altitude: null,
        odometer: 21_235_000,
        ign: true,
        power: null,
      },
    },
  ],
  [
    'GV55 GTHBM: harsh acceleration (report type 11)',
    '+RESP:GTHBM,0F0100,135790246811220,,,11,1,1,24.3,92,70.0,121.354335,31.222073,20090214013254,0460,0000,18d8,6141,00,2000.0,20090214093254,11F0$',
    {
      kind: 'alarm',
      events: ['hardAcceleration'],
      pos: { time: '2009-02-14T01:32:54.000Z', lat: 31.222073, lon: 121.354335, kmh: 24.3, alarm: 'hardAcceleration', odometer: 2_000_000 },
    },
  ],
  [
    'GV55 GTHBM: harsh braking (report type 10)',
    '+RESP:GTHBM,0F0100,135790246811220,,,10,1,1,4.3,92,70.0,121.354335,31.222073,20090214013254,0460,0000,18d8,6141,00,2000.0,20090214093254,11F0$',
    { kind: 'alarm', events: ['hardBraking'], pos: { time: '2009-02-14T01:32:54.000Z', lat: 31.222073, lon: 121.354335 } },
  ],
  [
    'GV56 GTERI: external power, battery 100 %, status',
    '+RESP:GTERI,4F0D06,865585041396684,,00000100,12665,10,1,1,0.0,342,38.6,49.846792,40.426182,20260220064016,0400,0010,0F6E,08D7,00,0.0,,,,100,110000,,0,20260220064016,91C9$',
    {
      kind: 'position',
      type: 'GTERI',
      pos: {
        time: '2026-02-20T06:40:16.000Z',
        lat: 40.426182,
        lon: 49.846792,
        course: 342,
        altitude: 38.6,
        power: 12.665,
        odometer: 0,
        ign: false,
        attrs: { batteryLevel: 100, mcc: 400, mnc: 10 },
      },
    },
  ],
  [
    'unnamed model 38 (its owner named it gv65) GTERI: hour meter, inputs 7',
    '+RESP:GTERI,380603,869606020025833,gv65,00000002,12003,10,1,1,0.0,172,24.6,-81.931875,26.577439,20171002045352,0310,0260,72BD,8E5B,00,1052.1,01383:52:12,0,100,210700,2,1,28FF4560A3150483,1,05B0,20171002045402,9548$',
    {
      kind: 'position',
      pos: {
        time: '2017-10-02T04:53:52.000Z',
        lat: 26.577439,
        lon: -81.931875,
        power: 12.003,
        odometer: 1_052_100,
        ign: true,
        attrs: { hours: (1383 * 3600 + 52 * 60 + 12) * 1000, adc1: 0, batteryLevel: 100, input: 7 },
      },
    },
  ],
  [
    'GV75W +BUFF GTERI',
    '+BUFF:GTERI,410502,864802030794634,,00000001,,10,1,1,0.0,0,3027.8,-78.706612,-0.955699,20230418170736,0740,0002,A08C,2AB72D,00,0.0,,,,100,110000,1,0099,20230418171004,8B98$',
    {
      kind: 'position',
      pos: {
        time: '2023-04-18T17:07:36.000Z',
        lat: -0.955699,
        lon: -78.706612,
        altitude: 3027.8,
        ign: false,
        attrs: { archive: true, batteryLevel: 100 },
      },
    },
  ],
  [
    'GV200 GTERI (35 prefix)',
    '+RESP:GTERI,358803,862364030335589,gv200,00000002,,10,1,1,42.5,132,2150.4,43.516551,17.661988,20240818171932,0420,0004,F23D,31EF,00,17363.6,,,91,,00,00,2,0,20240818171940,91F1$',
    {
      kind: 'position',
      pos: { time: '2024-08-18T17:19:32.000Z', lat: 17.661988, lon: 43.516551, kmh: 42.5, course: 132, odometer: 17_363_600 },
    },
  ],
  [
    'GV200 GTFRI, two locations of which the first is read',
    '+RESP:GTFRI,04040C,359231038939904,,,10,1,2,0.0,117,346.0,8.924243,50.798077,20130618122040,0262,0002,0299,109C,00,0.0,,,,,,,,,20130618122045,00F6$',
    { kind: 'position', pos: { time: '2013-06-18T12:20:40.000Z', lat: 50.798077, lon: 8.924243, hdop: 2, odometer: 0 } },
  ],
  [
    "GV350M GTERI (Traccar's model): speed, odometer, status",
    '+RESP:GTERI,F10413,862599050544301,GV350M,00000002,14164,10,1,1,98.2,93,216.4,-117.484369,33.896640,20240919020058,0311,0480,2C01,00ADBA01,,39539.5,,,100,220100,,0,20240919020058,20A7$',
    {
      kind: 'position',
      pos: {
        time: '2024-09-19T02:00:58.000Z',
        lat: 33.89664,
        lon: -117.484369,
        kmh: 98.2,
        course: 93,
        power: 14.164,
        odometer: 39_539_500,
        ign: true,
        attrs: { batteryLevel: 100, cid: 0x00adba01 },
      },
    },
  ],
  [
    'GV350M GTCAN: VIN, CAN odometer, fuel used, rpm, fuel consumption L/h, fuel level',
    '+RESP:GTCAN,F10413,862599050467479,GV350M,0,1,C18CFDFF,3BKHHZ8X7GF723380,2,H2898058,232160.50,896,0,64,L/H1.5,P99.20,0,40532.95,,,,,,,,,,,1,0.0,234,2812.2,-78.508807,-0.218812,20240226211921,,,,,,20240226211922,DE03$',
    {
      kind: 'position',
      type: 'GTCAN',
      pos: {
        time: '2024-02-26T21:19:21.000Z',
        lat: -0.218812,
        lon: -78.508807,
        course: 234,
        altitude: 2812.2,
        ign: true,
        attrs: {
          vin: '3BKHHZ8X7GF723380',
          obdOdometer: 2_898_058,
          fuelUsed: 232_160.5,
          rpm: 896,
          obdSpeed: 0,
          coolantTemp: 64,
          fuelConsumption: 1.5,
          fuel: 99.2,
          hours: Math.round(40532.95 * 3_600_000),
        },
      },
    },
  ],
  [
    'GV350M GTBAA: Bluetooth accessory MAC and voltage',
    '+RESP:GTBAA,F1040C,862599050497393,GV350M,FF,3,0,04,000A,780541256AE9,3065,0,0.0,213,2908.3,-78.691944,-0.951426,20230511173150,,,,,,20230511175001,0159$',
    {
      kind: 'position',
      type: 'GTBAA',
      pos: {
        time: '2023-05-11T17:31:50.000Z',
        lat: -0.951426,
        lon: -78.691944,
        course: 213,
        valid: false,
        attrs: { accessoryMac: '780541256AE9', accessoryVoltage: 3.065 },
      },
    },
  ],
  [
    'GV310LAU GTERI: append mask 01, 12 satellites',
    '+RESP:GTERI,6E0A03,868589060745174,,00000100,,10,1,1,0.0,0,1509.0,-90.544928,14.584461,20250307182819,0704,0001,13A7,000B60AB,01,12,358.6,,,,,100,1A0000,0,2,00,6,5,0E7109BB,283F,SENTEMP1,7805412CF2DD,1,3466,24,36,24.91,100,01,6,2,,083F,SENTEMP2,7805412CF25C,0,,,,,20250307182820,1ABC$',
    {
      kind: 'position',
      pos: {
        time: '2025-03-07T18:28:19.000Z',
        lat: 14.584461,
        lon: -90.544928,
        altitude: 1509,
        sat: 12,
        odometer: 358_600,
        ign: false,
        attrs: { batteryLevel: 100, mcc: 704 },
      },
    },
  ],
  [
    'GV310LAU +BUFF GTIGN: append mask 01, 11 satellites',
    '+BUFF:GTIGN,6E0202,868589060169789,ra79,379,1,0.0,105,532.2,-70.616413,-33.393457,20240610201712,0730,0001,333A,00CFA301,01,11,,0.0,20240610201713,3AE2$',
    {
      kind: 'position',
      pos: {
        time: '2024-06-10T20:17:12.000Z',
        lat: -33.393457,
        lon: -70.616413,
        sat: 11,
        ign: true,
        odometer: 0,
        attrs: { archive: true },
      },
    },
  ],
  [
    'GV58LAU +BUFF GTFRI: append mask 02 (a trigger type follows)',
    '+BUFF:GTFRI,8020040200,866314060249032,,12194,10,1,3,0.0,0,20.1,-71.596533,-33.524718,20230926200338,0730,0001,772A,052B253E,02,0,0.0,,,,,0,420000,,,,20230926200340,1549$',
    {
      kind: 'position',
      pos: {
        time: '2023-09-26T20:03:38.000Z',
        lat: -33.524718,
        lon: -71.596533,
        hdop: 3,
        power: 12.194,
        odometer: 0,
        sat: null,
        attrs: { archive: true, batteryLevel: 0, input: 0 },
      },
    },
  ],
  [
    'GV58LAU GTFRI (ten-digit protocol version)',
    '+RESP:GTFRI,8020040703,866314060299813,,,10,1,1,0.0,275,937.7,-68.891157,-33.008722,20260514010456,,,,,00,,,,,,100,110000,,,,20260514010458,BBCE$',
    {
      kind: 'position',
      pos: {
        time: '2026-05-14T01:04:56.000Z',
        lat: -33.008722,
        lon: -68.891157,
        course: 275,
        altitude: 937.7,
        ign: false,
        attrs: { batteryLevel: 100 },
      },
    },
  ],
  [
    'GV355CEU GTERI: append mask 03 (7 satellites, then a trigger type)',
    '+RESP:GTERI,8020050605,867488060225819,GV355CEU,00000106,12390,10,1,1,0.0,37,253.0,10.240915,45.930262,20240226074452,0222,0010,2F31,0063952B,03,7,0,0.0,,,,,100,110000,0,0,1,FFFFF,VR3USHNSSNJ711765,0,H311796,109.40,0,,,,,,,46.54,29.91,16.63,12.88,,8080,,,00,0,20240226074453,2548$',
    {
      kind: 'position',
      pos: {
        time: '2024-02-26T07:44:52.000Z',
        lat: 45.930262,
        lon: 10.240915,
        course: 37,
        power: 12.39,
        sat: 7,
        odometer: 0,
        attrs: { batteryLevel: 100 },
      },
    },
  ],
  [
    'GV355CEU +BUFF GTCAN (Traccar asserts adBlueLevel 100)',
    '+BUFF:GTCAN,8020050402,867488060267845,,00,1,E00FFFFF,YS2K4X20001928588,1,H149381,4236.08,0,0,58,,P94.80,,0,529.00,0.03,0.33,0.77,8688,0008,0042,00,00,001FFFFF,P100.00,5571,,,0,0,,,20,7,0,0.36,0.00,0.00,0,E E05653940B000003,,C*********,,4054MTX,0000,,,1,0.0,101,698.5,-3.647673,40.481997,20241213113715,0214,0003,04D2,B801,00,20241213113715,1A47$',
    {
      kind: 'position',
      pos: {
        time: '2024-12-13T11:37:15.000Z',
        lat: 40.481997,
        lon: -3.647673,
        course: 101,
        ign: true,
        attrs: { vin: 'YS2K4X20001928588', fuel: 94.8, adBlueLevel: 100, axleWeight1: 5571, registration: '4054MTX', archive: true },
      },
    },
  ],
  [
    'GV30CEU GTERI (ten-digit protocol version)',
    '+RESP:GTERI,80201E0100,860201067144330,,00000100,,10,1,1,0.0,0,30.2,121.348427,31.163316,20251126093749,0460,0000,1807,00775892,00,0.0,,,,,99,210100,,1,00,6,4,0D1C099A,283F,WMS301_Test,7805414BA78A,1,3453,24,33,24.58,100,20251126093751,77E4$',
    {
      kind: 'position',
      pos: { time: '2025-11-26T09:37:49.000Z', lat: 31.163316, lon: 121.348427, odometer: 0, ign: true, attrs: { batteryLevel: 99 } },
    },
  ],
  [
    'GV500 GTFRI with the VIN: rpm and fuel consumption after the status',
    '+RESP:GTFRI,1F0301,862193022001432,WF0GXXGBBGBM26503,,14900,41,1,1,11.6,74,356.0,14.120023,50.167894,20181104080703,0230,0003,9B14,5891,00,74.1,,,,83,220000,799,7.3,,20181104080703,099B$',
    {
      kind: 'position',
      pos: {
        time: '2018-11-04T08:07:03.000Z',
        lat: 50.167894,
        lon: 14.120023,
        kmh: 11.6,
        power: 14.9,
        odometer: 74_100,
        ign: true,
        attrs: { vin: 'WF0GXXGBBGBM26503', batteryLevel: 83, rpm: 799, fuelConsumption: 7.3 },
      },
    },
  ],
  [
    'GV500 GTOBD: VIN, rpm, speed, coolant, throttle, engine load, codes',
    '+RESP:GTOBD,1F0109,864251020135483,4T1BE46KX7U018210,gv500,0,78FFFF,4T1BE46KX7U018210,1,13411,981B81C0,787,3,43,,921,463,1,10,0300030103030304001200310351035203530354,20,55,,1286,0,6.5,74,21.6,3.379710,6.529714,20150813074824,0621,0030,51C0,A2B3,00,0.0,20150813074828,A7E9$',
    {
      kind: 'position',
      type: 'GTOBD',
      pos: {
        time: '2015-08-13T07:48:24.000Z',
        lat: 6.529714,
        lon: 3.37971,
        kmh: 6.5,
        course: 74,
        valid: false,
        power: 13.411,
        odometer: 0,
        attrs: {
          vin: '4T1BE46KX7U018210',
          rpm: 787,
          obdSpeed: 3,
          coolantTemp: 43,
          throttle: 20,
          engineLoad: 55,
          dtcs: '0300030103030304001200310351035203530354',
        },
      },
    },
  ],
  [
    'GV500MAP GTFRI',
    '+RESP:GTFRI,5E0100,861971050039361,,,,10,1,1,10.4,140,196.9,-80.709946,35.016525,20220302220944,0310,0260,1CE9,52A1,00,0.0,,,,,420000,,,,20220302220948,1B0B$',
    { kind: 'position', pos: { time: '2022-03-02T22:09:44.000Z', lat: 35.016525, lon: -80.709946, kmh: 10.4, course: 140, odometer: 0 } },
  ],
  [
    'GV600M GTVGN: virtual ignition on',
    '+RESP:GTVGN,C2010D,869653060009939,GV600M,453966,0,0.0,0,163.9,10.239379,45.931389,20231210233723,0222,0010,2F31,006D7621,,,0.0,20240107182623,143F$',
    {
      kind: 'position',
      type: 'GTVGN',
      pos: { time: '2023-12-10T23:37:23.000Z', lat: 45.931389, lon: 10.239379, valid: false, ign: true, odometer: 0 },
    },
  ],
  [
    "CV100LG GTFRI: external power 14.051 V (Traccar's first test message)",
    '+RESP:GTFRI,DF0200,868487004353181,cv100,14051,10,1,0,0.0,0,264.1,114.015515,22.537178,20210608064328,0460,0001,25F8,061A7D02,,0.0,,,,100,21,,,,20210608144354,32DB$',
    {
      kind: 'position',
      pos: {
        time: '2021-06-08T06:43:28.000Z',
        lat: 22.537178,
        lon: 114.015515,
        valid: false,
        altitude: 264.1,
        power: 14.051,
        odometer: 0,
        attrs: { batteryLevel: 100, cid: 0x061a7d02 },
      },
    },
  ],
  [
    'CV100LG GTSOS (Traccar asserts sos)',
    '+RESP:GTSOS,DF0200,868487004358800,cv100,,00,1,1,0.0,0,138.0,114.015465,22.537372,20210714115224,0460,0001,25F8,061A7D02,,,20210714195224,20210714195224,03A6$',
    { kind: 'alarm', events: ['sos'], pos: { time: '2021-07-14T11:52:24.000Z', lat: 22.537372, lon: 114.015465, alarm: 'sos' } },
  ],
  [
    'CV200 GTIGN: a fix time before the send time',
    '+RESP:GTIGN,BD0221,861778061565387,CV200,,0,140944,0,0.0,358,17.6,-2.223488,51.882342,20251222020123,0234,0015,6093,000F830E,,,5810.9,20251222070035,20251222070035,C60E$',
    {
      kind: 'position',
      pos: { time: '2025-12-22T02:01:23.000Z', lat: 51.882342, lon: -2.223488, course: 358, ign: true, odometer: 5_810_900 },
    },
  ],
  [
    'CV200 GTHBM: cornering (report type 12; Traccar asserts it)',
    '+RESP:GTHBM,BD0214,869409069481243,cv100,,12,1,1,5.6,344,274.7,-1.601826,6.666228,20250114094616,0620,0001,3EE8,00016E04,,,20250114094616,20250114094616,2862$',
    {
      kind: 'alarm',
      events: ['hardCornering'],
      pos: { time: '2025-01-14T09:46:16.000Z', lat: 6.666228, lon: -1.601826, kmh: 5.6, course: 344, attrs: { mcc: 620 } },
    },
  ],
  [
    'GB100 GTMPN: power restored',
    '+RESP:GTMPN,450102,865084030001323,gb100,0,1.6,0,-93.1,121.393023,31.164105,20170619103113,0460,0000,1806,2142,00,20170619103143,0512$',
    {
      kind: 'alarm',
      type: 'GTMPN',
      events: ['powerRestored'],
      pos: { time: '2017-06-19T10:31:13.000Z', lat: 31.164105, lon: 121.393023, altitude: -93.1, valid: false },
    },
  ],
];

const glSeries: DecodeCase[] = [
  [
    'GL300 GTFRI with four locations: odometer in each block, battery on the last',
    '+RESP:GTFRI,1A0900,860599000306845,G3-313,0,0,4,1,2.1,0,426.7,8.611466,47.681639,20181214134603,0228,0001,077F,4812,25.2,1,5.7,34,437.3,8.611600,47.681846,20181214134619,0228,0001,077F,4812,25.2,1,4.4,62,438.2,8.611893,47.681983,20181214134633,0228,0001,077F,4812,25.2,1,4.8,78,436.6,8.612236,47.682040,20181214134648,0228,0001,077F,4812,25.2,83,20181214134702,0654$',
    {
      kind: 'position',
      ack: sack('0654'),
      positions: [
        { time: '2018-12-14T13:46:03.000Z', lat: 47.681639, lon: 8.611466, kmh: 2.1, odometer: 25_200, attrs: { batteryLevel: undefined } },
        { time: '2018-12-14T13:46:19.000Z', lat: 47.681846, lon: 8.6116, kmh: 5.7, course: 34 },
        { time: '2018-12-14T13:46:33.000Z', lat: 47.681983, lon: 8.611893, kmh: 4.4, course: 62 },
        { time: '2018-12-14T13:46:48.000Z', lat: 47.68204, lon: 8.612236, kmh: 4.8, course: 78, attrs: { batteryLevel: 83 } },
      ],
    },
  ],
  [
    'GL300 GTSTT: motion state 41 (at rest, no ignition sensed)',
    '+RESP:GTSTT,1A0401,860599000508846,,41,0,0.0,84,107.5,-76.657998,39.497203,20150623160622,0310,0260,B435,3B81,,20150623160622,0F54$',
    {
      kind: 'position',
      pos: { time: '2015-06-23T16:06:22.000Z', lat: 39.497203, lon: -76.657998, valid: false, ign: null, attrs: { motion: false } },
    },
  ],
  [
    'GL300 +BUFF GTBPL: backup battery low, 3.55 V',
    '+BUFF:GTBPL,1A0800,860599000773978,GL300,3.55,0,0.0,0,257.1,60.565437,56.818277,20161006070553,,,,,204.7,20161006071028,0C75$',
    {
      kind: 'alarm',
      events: ['lowBattery'],
      pos: { time: '2016-10-06T07:05:53.000Z', lat: 56.818277, lon: 60.565437, battery: 3.55, odometer: 204_700, attrs: { archive: true } },
    },
  ],
  [
    'GL300 GTTEM: temperature alarm',
    '+RESP:GTTEM,1A0102,860599000000448,,3,33,0,5.8,0,33.4,117.201191,31.832502,20130109061410,0460,0000,5678,2079,,20130109061517,0091$',
    { kind: 'alarm', events: ['temperature'], pos: { time: '2013-01-09T06:14:10.000Z', lat: 31.832502, lon: 117.201191, kmh: 5.8 } },
  ],
  [
    'GL300 GTLSW: light sensor switch on',
    '+RESP:GTLSW,1A0100,135790246811220,,0,1,0,4.3,92,70.0,121.354335,31.222073,20090214013254,0460,0000,18d8,6141,00,20100214093254,11F0$',
    {
      kind: 'position',
      type: 'GTLSW',
      pos: { time: '2009-02-14T01:32:54.000Z', lat: 31.222073, lon: 121.354335, valid: false, attrs: { in1: true } },
    },
  ],
  [
    'GL300W GTFRI with two locations',
    '+RESP:GTFRI,2C0204,867162020003125,GL300W,0,0,2,1,1.7,205,2867.0,-78.481127,-0.206828,20160215210433,0740,0000,7596,5891C,0.0,1,1.7,205,2867.0,-78.481127,-0.206828,20160215210503,0740,0000,7596,5891C,0.0,88,20160215210506,1E78$',
    {
      kind: 'position',
      positions: [
        { time: '2016-02-15T21:04:33.000Z', lat: -0.206828, lon: -78.481127, kmh: 1.7, course: 205, altitude: 2867, odometer: 0 },
        { time: '2016-02-15T21:05:03.000Z', lat: -0.206828, lon: -78.481127, attrs: { batteryLevel: 88 } },
      ],
    },
  ],
  [
    'GL300VC GTRTL',
    '+RESP:GTRTL,280100,A1000043D20139,,0,0,1,1,0.1,321,239.1,-76.661047,39.832501,20150615114455,0310,0484,00600019,0A52,,87,20150615074456,031E$',
    {
      kind: 'position',
      type: 'GTRTL',
      pos: {
        time: '2015-06-15T11:44:55.000Z',
        lat: 39.832501,
        lon: -76.661047,
        kmh: 0.1,
        course: 321,
        attrs: { batteryLevel: 87, lac: 0x00600019 },
      },
    },
  ],
  [
    'GL200 GTNMR: moving (report type 1), the 14-digit hex id of a CDMA model',
    '+RESP:GTNMR,210102,A10000458356CE,,0,1,1,9,0.0,8,190.7,-85.765865,42.894837,20160316123202,,,,,60,30,20160316123202,0137$',
    {
      kind: 'position',
      type: 'GTNMR',
      pos: {
        time: '2016-03-16T12:32:02.000Z',
        lat: 42.894837,
        lon: -85.765865,
        hdop: 9,
        course: 8,
        attrs: { motion: true, batteryLevel: 30 },
      },
    },
  ],
  [
    'GL200 GTSOS',
    '+RESP:GTSOS,020102,135790246811220,,0,0,1,1,4.3,92,70.0,121.354335,31.222073,20090214013254,0460,0000,18d8,6141,00,,20090214093254,11F0$',
    {
      kind: 'alarm',
      events: ['sos'],
      pos: { time: '2009-02-14T01:32:54.000Z', lat: 31.222073, lon: 121.354335, kmh: 4.3, course: 92, altitude: 70 },
    },
  ],
  [
    'GL320M GTERI: no field after the cell, battery 27 %',
    '+RESP:GTERI,C30209,860201067200000,,00000080,0,16,1,1,47.2,245,169.3,-122.234955,47.906141,20260131234254,0310,0260,2CA2,014A2E17,,27,,20260131234255,51D8$',
    {
      kind: 'position',
      pos: {
        time: '2026-01-31T23:42:54.000Z',
        lat: 47.906141,
        lon: -122.234955,
        kmh: 47.2,
        course: 245,
        attrs: { batteryLevel: 27, mnc: 260 },
      },
    },
  ],
  [
    'GL500 GTSTR: temperature and battery before the location, signal after the cell',
    '+RESP:GTSTR,400201,862365030034940,GL500,0,0,2,21.1,86,0,1.6,0,5.8,0.622831,51.582688,20170215090422,0234,0030,0870,35EF,,,,20170215220049,008C$',
    {
      kind: 'position',
      type: 'GTSTR',
      pos: {
        time: '2017-02-15T09:04:22.000Z',
        lat: 51.582688,
        lon: 0.622831,
        kmh: 1.6,
        valid: false,
        attrs: { batteryLevel: 86, cid: 0x35ef },
      },
    },
  ],
  [
    'GL500M GTFRI: signal fields after the cell, battery 93 %',
    '+RESP:GTFRI,DE0114,865284042140479,,0,0,1,1,0.0,0,28.0,-118.268093,33.975430,20200901105954,0311,0480,3500,00D07F02,18,0,,93,0,,,20200901110000,0355$',
    {
      kind: 'position',
      pos: { time: '2020-09-01T10:59:54.000Z', lat: 33.97543, lon: -118.268093, altitude: 28, attrs: { batteryLevel: 93 } },
    },
  ],
  [
    'GL530 GTSTR',
    '+RESP:GTSTR,440502,866427030112088,GL530,0,0,2,,100,3,0.6,0,127.5,2.413963,48.877096,20180704180102,0208,0001,0310,E625,,,0000,20180704180100,004C$',
    {
      kind: 'position',
      pos: { time: '2018-07-04T18:01:02.000Z', lat: 48.877096, lon: 2.413963, hdop: 3, kmh: 0.6, attrs: { batteryLevel: 100 } },
    },
  ],
  [
    'GL530 GTCTN',
    '+RESP:GTCTN,440200,866427030007379,NOKIA3,0,0,2,,9,1,0.1,174,48.7,-1.061812,51.435270,20190717080549,0234,0015,0025,145A,,,0000,20190717081008,1D3B$',
    { kind: 'position', type: 'GTCTN', pos: { time: '2019-07-17T08:05:49.000Z', lat: 51.43527, lon: -1.061812, course: 174 } },
  ],
];

const otherModels: DecodeCase[] = [
  [
    'GT501 GTFRI with six Wi-Fi access points in the location',
    '+RESP:GTFRI,423037,866884047716519,GT501,0,1,1,5,12,0.1,0,46.8,-95.559173,30.109955,20231110185836,6,0e36c9916485,-50,,,,e831cd5eb79d,-73,,,,ccf4110c4bd5,-79,,,,acdb48973168,-79,,,,80ab4dc323c4,-82,,,,ec8eb5cfa1c6,-89,,,,310,10,711D,81ECF0F,00,,93,20231110185839,0005$',
    {
      kind: 'position',
      pos: {
        time: '2023-11-10T18:58:36.000Z',
        lat: 30.109955,
        lon: -95.559173,
        hdop: 12,
        altitude: 46.8,
        attrs: {
          mcc: 310,
          mnc: 10,
          cid: 0x81ecf0f,
          batteryLevel: 93,
          wifi: '0e:36:c9:91:64:85/-50 e8:31:cd:5e:b7:9d/-73 cc:f4:11:0c:4b:d5/-79 ac:db:48:97:31:68/-79 80:ab:4d:c3:23:c4/-82 ec:8e:b5:cf:a1:c6/-89',
        },
      },
    },
  ],
  [
    'GT501 GTNMR: signal then battery after the location',
    '+RESP:GTNMR,423033,355197370058831,,0,0,0,1,0,0.0,298,182.7,-79.257983,43.875152,20220627132020,,,,,15,0,74,20220627144928,03CF$',
    {
      kind: 'position',
      pos: {
        time: '2022-06-27T13:20:20.000Z',
        lat: 43.875152,
        lon: -79.257983,
        valid: false,
        sat: null,
        attrs: { motion: false, batteryLevel: 74 },
      },
    },
  ],
  [
    'GT300 GTTRI: no protocol version after the header',
    '+RESP:GTTRI,862370030005908,1,0,99,1,0.0,354,18.5,18.821100,-34.084002,20170607152024,0655,0001,00DD,1CAE,00,0103010100,20170607172115,3E7D$',
    {
      kind: 'position',
      type: 'GTTRI',
      ack: sack('3E7D'),
      pos: { time: '2017-06-07T15:20:24.000Z', lat: -34.084002, lon: 18.8211, course: 354, attrs: { mcc: 655 } },
    },
  ],
  [
    'GV600MG GTINF: state record with two power supplies',
    '+RESP:GTINF,DC0103,865284049247079,gv600mg,21,89883070000007211665,22,0,11,12913,12917,4.26,0,1,,,20210216154607,1,79,,01,00,,,20210216104606,1EBE$',
    {
      kind: 'state',
      type: 'GTINF',
      dt: '2021-02-16T10:46:06.000Z',
      attrs: {
        ignition: true,
        motion: false,
        iccid: '89883070000007211665',
        rssi: 22,
        power: 12.913,
        power2: 12.917,
        battery: 4.26,
        charge: false,
      },
    },
  ],
  [
    'GMT100 GTINF',
    '+RESP:GTINF,080100,135790246811220,,16,898600810906F8048812,16,0,1,11870,,4.1,0,0,0,,20090214013254,,12340,,00,00,+0800,0,20090214093254,11F0$',
    { kind: 'state', attrs: { ignition: false, motion: true, rssi: 16, power: 11.87, battery: 4.1 } },
  ],
  [
    'GL300 GTINF: odometer in the power field, charging',
    '+RESP:GTINF,1A0800,860599000773978,GL300,41,89701016426133851978,17,0,1,26.6,,3.90,1,1,0,0,0,20161003184043,69,1,44,,,20161004040811,022C$',
    { kind: 'state', dt: '2016-10-04T04:08:11.000Z', attrs: { motion: false, odometer: 26_600, battery: 3.9, charge: true } },
  ],
  [
    'GV600M GTINF (Traccar asserts power2 13.985)',
    '+RESP:GTINF,C20113,869653060997976,,1A,89464278206103756482,19,0,11,12295,13985,4.25,0,0,,,20241104220934,0,0,,00,00,,,20241104162009,06D6$',
    { kind: 'state', attrs: { ignition: false, motion: true, power: 12.295, power2: 13.985, battery: 4.25 } },
  ],
  [
    'GT300 GTINF without a protocol version: ICCID and signal',
    '+RESP:GTINF,359464030073766,8938003990320469804f,18,99,100,1,0,+2.00,0,20131018084015,00EE,0103090402$',
    { kind: 'state', ack: sack('00EE'), attrs: { iccid: '8938003990320469804f', rssi: 18 } },
  ],
  [
    'GL300 GTVER: device type and versions',
    '+RESP:GTVER,1A0800,860599000773978,GL300,GL300,0A03,0103,20161007041531,10F8$',
    { kind: 'state', type: 'GTVER', attrs: { deviceType: 'GL300', versionFw: '0A03', versionHw: '0103' } },
  ],
  [
    'GL500 GTGSM: seven cells',
    '+RESP:GTGSM,400201,862365030034940,STR,0234,0030,0870,2469,19,,0234,0030,0870,35ee,18,,0234,0030,0870,16ac,12,,0234,0030,0870,16b2,11,,0234,0030,0870,360f,6,,0234,0030,0870,165d,6,,0234,0030,0870,35ef,17,,20170215220049,008D$',
    {
      kind: 'state',
      type: 'GTGSM',
      attrs: {
        mcc: 234,
        mnc: 30,
        lac: 0x870,
        cid: 0x2469,
        cells:
          '234/30/2160/9321/19 234/30/2160/13806/18 234/30/2160/5804/12 234/30/2160/5810/11 234/30/2160/13839/6 234/30/2160/5725/6 234/30/2160/13807/17',
      },
    },
  ],
  [
    'GL200 GTWIF: access points and battery',
    '+RESP:GTWIF,210102,354524044484948,,1,08626693fb98,-36,,,,,,,,97,20170119071300,05E3$',
    { kind: 'state', type: 'GTWIF', attrs: { wifi: '08:62:66:93:fb:98/-36', batteryLevel: 97 } },
  ],
  [
    'unnamed model 66 (a GL50B LITE by its name) GTLBS: cells and battery',
    '+RESP:GTLBS,660400,863574046265138,GL50BLITE,0,0,92,,2,,,0000,0204,0008,0cee,b951,18,,0204,0008,0cee,cd83,15,,0204,0008,0cee,3994,13,,,,,,,,,,,,,,,,,,,,0204,0008,0cee,d071,11,,20240826085102,00C6$',
    { kind: 'state', type: 'GTLBS', attrs: { batteryLevel: 92, mcc: 204, mnc: 8, lac: 0xcee, cid: 0xb951 } },
  ],
  [
    'GV75W GTDTT: serial data of a fuel sensor (Traccar reads COMB as fuel)',
    '+RESP:GTDTT,410502,864802030541621,,,,1,35,45637561747261636b0d0a434f4d422c302c39342e302c2d312e302c2c2c4844430d0a,20230421034626,EA2E$',
    { kind: 'state', type: 'GTDTT', attrs: { fuel: 94, data: 'Ecuatrack\r\nCOMB,0,94.0,-1.0,,,HDC\r\n' } },
  ],
  [
    'unnamed model 71 GTPNA: power on',
    '+RESP:GTPNA,710402,867292060140006,,2,20250516120427,0121$',
    { kind: 'alarm', events: ['powerOn'], dt: '2025-05-16T12:04:27.000Z', attrs: { alarm: 'powerOn' } },
  ],
  [
    'GL300M GTPFA (F5) power off',
    '+RESP:GTPFA,F50201,866425030235982,GL300M,20190208124849,0BD4$',
    { kind: 'alarm', events: ['powerOff'], ack: sack('0BD4') },
  ],
  [
    'unnamed model 84 +BUFF GTIGF without a fix: state record with the cell',
    '+BUFF:GTIGF,840502,867963063190000,,0,0,,,,,,,0268,0006,22C4,13E5,00,,,20250116170541,22D0$',
    {
      kind: 'state',
      dt: '2025-01-16T17:05:41.000Z',
      attrs: { ignition: false, mcc: 268, mnc: 6, lac: 0x22c4, cid: 0x13e5, archive: true },
    },
  ],
  [
    'GV65 GTCAN without a location: state record of CAN values',
    '+RESP:GTCAN,310701,863286023712855,,10,0,003FFFFF,,2,H46358,12305.50,601,0,83,,P53.00,,0,2749.15,0.19,2.80,,,,40,,0,,,20181110103016,2945$',
    {
      kind: 'state',
      type: 'GTCAN',
      attrs: {
        ignition: true,
        obdOdometer: 46_358,
        fuelUsed: 12_305.5,
        rpm: 601,
        coolantTemp: 83,
        fuel: 53,
        hours: Math.round(2749.15 * 3_600_000),
        indicators: 0x40,
        doors: 0,
      },
    },
  ],
  [
    'unnamed model 2E +BUFF GTFRI whose location is empty: state record',
    '+BUFF:GTFRI,2E0503,861106050005423,,,0,1,,,,,,,,,,,,0,0,,98,1,0,,,20200101000001,0083$',
    { kind: 'state', attrs: { archive: true } },
  ],
  [
    'unnamed model 24 GTFRI',
    '+RESP:GTFRI,240100,135790246811220,,,10,1,1,4.3,92,70.0,121.354335,31.222073,20090214013254,0460,0000,18d8,6141,00,2000.0,12345:12:34,,80,,,,,,20090214093254,11F0$',
    {
      kind: 'position',
      pos: {
        time: '2009-02-14T01:32:54.000Z',
        lat: 31.222073,
        lon: 121.354335,
        odometer: 2_000_000,
        attrs: { hours: (12345 * 3600 + 12 * 60 + 34) * 1000, batteryLevel: 80 },
      },
    },
  ],
];

const acks: DecodeCase[] = [
  [
    '+ACK:GTHBD heartbeat: answered +SACK:GTHBD,<version>,<count>$',
    '+ACK:GTHBD,1A0401,135790246811220,,20100214093254,11F0$',
    { kind: 'heartbeat', ack: Buffer.from('+SACK:GTHBD,1A0401,11F0$').toString('hex') },
  ],
  [
    '+ACK:GTRTO: a command result, not acknowledged',
    '+ACK:GTRTO,1A0800,860599000773978,GL300,VER,FFFF,20161006053520,0C19$',
    { kind: 'result', ack: null, result: '+ACK:GTRTO,1A0800,860599000773978,GL300,VER,FFFF,20161006053520,0C19' },
  ],
  [
    '+ACK:GTGEO: a command result',
    '+ACK:GTGEO,1A0102,135790246811220,,0,0008,20100310172830,11F0$',
    { kind: 'result', result: '+ACK:GTGEO,1A0102,135790246811220,,0,0008,20100310172830,11F0' },
  ],
];

describeTextCaptures(
  queclinkProtocol,
  {
    'GV, CV, GB series': gvSeries,
    'GL series': glSeries,
    'GT series, status reports and unnamed models': otherModels,
    'acknowledgements and command results': acks,
  },
  ',.0123456789ABF+-:$',
);

function decode(text: string): DecodeResult {
  return decodeQueclink(Buffer.from(text, 'latin1'), {});
}

describe('queclink framing', () => {
  it('splits messages at every byte offset, twice over, skipping CR LF between them', () => {
    const frames = [gvSeries[0]![1], acks[0]![1], glSeries[0]![1], otherModels[2]![1]];
    const split = splitQueclinkFrames(Buffer.from(frames.join('\r\n') + '\r\n', 'latin1'), 2048);
    expect(split.frames.map((f) => f.toString('latin1'))).toEqual(frames);
    expectSplitInvariant(
      splitQueclinkFrames,
      Buffer.from(frames.join(''), 'latin1'),
      frames.map((f) => Buffer.from(f, 'latin1').toString('hex')),
      2048,
    );
  });

  it('keeps a partial message; refuses what is not @Track text, naming the binary format', () => {
    expect(splitQueclinkFrames(Buffer.from('+RESP:GTFRI,0602'), 2048)).toMatchObject({ frames: [] });
    expect(splitQueclinkFrames(Buffer.from('+RES'), 2048)).toMatchObject({ frames: [] });
    expect(() => splitQueclinkFrames(Buffer.from('GET / HTTP/1.1'), 2048)).toThrow(expect.objectContaining({ reason: 'bad_frame' }));
    // Gl200BinaryProtocolDecoderTest's +EVT (binary @Track)
    expect(() =>
      splitQueclinkFrames(
        Buffer.from(
          '2b4556540c00fc1fbf005c4501010108563254030003430564312a41090100000000003f007dff75a11a025c6a7807e1070a14041202680003189c1ac500000000000000000000000000000000000007e1070b041134054e5c6e0d0a',
          'hex',
        ),
        2048,
      ),
    ).toThrow(/binary @Track message \(\+EVT\)/);
    expect(() => splitQueclinkFrames(Buffer.from(`+RESP:${'x'.repeat(100)}`), 64)).toThrow(
      expect.objectContaining({ reason: 'frame_too_large' }),
    );
  });
});

describe('queclink models', () => {
  it('names models by the protocol version (two or six digits) and reads unknown ones by shape instead of refusing them', () => {
    expect([modelOf('060228'), modelOf('F10413'), modelOf('8020040703'), modelOf('DE0114'), modelOf('2E0503')].map((m) => m.name)).toEqual([
      'GV300',
      'GV350M',
      'GV58LAU',
      'GL500M',
      'model 2E',
    ]);
    const unknown = decode(
      '+RESP:GTFRI,990100,135790246811220,,,10,1,1,4.3,92,70.0,121.354335,31.222073,20090214013254,0460,0000,18d8,6141,00,2000.0,,,,80,210100,,,,20090214093254,11F0$',
    );
    expectDecoded(unknown, {
      kind: 'position',
      pos: {
        time: '2009-02-14T01:32:54.000Z',
        lat: 31.222073,
        lon: 121.354335,
        odometer: 2_000_000,
        ign: true,
        attrs: { batteryLevel: 80 },
      },
    });
  });

  it('a report type no table names still gives its position (read like a fixed report)', () => {
    expectDecoded(
      decode(
        '+RESP:GTXYZ,270302,867162025086950,,,21,1,1,0.0,81,117.8,-116.862025,32.453497,20180309084516,0334,0020,2B24,52CA916,00,1286.2,20180309084517,357E$',
      ),
      {
        kind: 'position',
        type: 'GTXYZ',
        ack: sack('357E'),
        pos: { time: '2018-03-09T08:45:16.000Z', lat: 32.453497, lon: -116.862025, odometer: 1_286_200 },
      },
    );
  });

  it('a negative accuracy (HDOP) is no HDOP, and its fix is not valid', () => {
    // the capture of GV350M GTBAA above with its accuracy field made "-065": the text fuzz found it
    // (seed -1309042566) decoding to hdop -65, which the positions contract (hdop >= 0) refuses
    const text =
      '+RESP:GTBAA,F1040C,862599050497393,GV350M,FF,3,0,04,000A,780541256AE9,3065,-065,0.0,213,2908.3,-78.691944,-0.951426,20230511173150,,,,,,20230511175001,0159$';
    const { positions } = decode(text);
    expect(positions).toHaveLength(1);
    expect(positions[0]!.hdop ?? null).toBeNull();
    expect(positions[0]!.attributes).not.toHaveProperty('hdop');
    expect(positions[0]!.valid).toBe(false);
  });

  it('refuses what is not a message of a device with an IMEI', () => {
    expect(() => decode('+RESP:GTFRI,060228,not-an-imei,,1,10,1$')).toThrow(DecodeError);
    expect(() => decode('+RESP,GTFRI$')).toThrow(expect.objectContaining({ reason: 'malformed' }));
  });
});

describe('queclink commands', () => {
  it('engine stop/resume (GTOUT), position, reboot, identification (GTRTO) with the device password; custom as given', () => {
    expect(queclinkProtocol.encodeCommand?.({ type: 'engineStop', attributes: { devicePassword: 'gv300' } }, {}).toString()).toBe(
      'AT+GTOUT=gv300,1,,,0,0,0,0,0,0,0,,,,,,,FFFF$',
    );
    expect(encodeQueclinkCommand({ type: 'engineResume' }).toString()).toBe('AT+GTOUT=,0,,,0,0,0,0,0,0,0,,,,,,,FFFF$');
    expect(encodeQueclinkCommand({ type: 'rebootDevice', attributes: { devicePassword: 'gl300' } }).toString()).toBe(
      'AT+GTRTO=gl300,3,,,,,,FFFF$',
    );
    expect(encodeQueclinkCommand({ type: 'positionSingle' }).toString()).toBe('AT+GTRTO=,1,,,,,,FFFF$');
    expect(encodeQueclinkCommand({ type: 'custom', attributes: { data: 'AT+GTRTO=gv300,8,,,,,,FFFF$' } }).toString()).toBe(
      'AT+GTRTO=gv300,8,,,,,,FFFF$',
    );
    expect(() => encodeQueclinkCommand({ type: 'custom', attributes: { data: 'reboot' } })).toThrow(
      expect.objectContaining({ reason: 'bad_command' }),
    );
    expect(() => encodeQueclinkCommand({ type: 'alarmArm' })).toThrow(expect.objectContaining({ reason: 'unsupported_command' }));
  });
});
