import { describeTextCaptures, type DecodeCase } from '../../../test/protocol-helpers';
import { gps103Protocol } from './index';

/*
 * Real device messages from Traccar's public test data (traccar/traccar
 * src/test/java/org/traccar/protocol/Gps103ProtocolDecoderTest.java). Traccar asserts a value for
 * a few of them (named in the title); the other expected values were worked out by hand from the
 * text: the local date shifted by the local-vs-UTC hh:mm difference, ddmm.mmmm → degrees, speed in
 * knots (km/h in the `*` format), OBD hours → ms.
 */

const ascii = (text: string): string => Buffer.from(text, 'latin1').toString('hex');

const reports: DecodeCase[] = [
  [
    'tracker (Traccar asserts 2015-10-30 00:01:01, 54.72306, 25.21512)',
    'imei:359710045559474,tracker,151030080103,,F,000101.000,A,5443.3834,N,02512.9071,E,0.00,0;',
    {
      kind: 'position',
      type: 'F',
      ack: null,
      pos: { time: '2015-10-30T00:01:01.000Z', lat: 54.723057, lon: 25.215118, knots: 0, course: 0, valid: true },
    },
  ],
  [
    'tracker, local date a day ahead of UTC (Traccar asserts 2015-10-26 23:59:57)',
    'imei:359710049092324,tracker,151027025958,,F,235957.000,A,2429.5156,N,04424.5828,E,0.01,27.91,,0,0,,,;',
    {
      kind: 'position',
      pos: {
        time: '2015-10-26T23:59:57.000Z',
        lat: 24.49193,
        lon: 44.409713,
        knots: 0.01,
        course: 27.91,
        ign: false,
        attrs: { door: false },
      },
    },
  ],
  [
    'tracker with a fuel percentage (Traccar asserts 2015-10-27 01:15:31)',
    'imei:865328021058861,tracker,151027041419,,F,011531.000,A,6020.2979,N,02506.1940,E,0.49,113.30,,0,0,0.0%,,;',
    {
      kind: 'position',
      pos: { time: '2015-10-27T01:15:31.000Z', lat: 60.338298, lon: 25.103233, knots: 0.49, course: 113.3, attrs: { fuel1: 0 } },
    },
  ],
  [
    'tracker with a UTC time without decimals',
    'imei:864035050002451,tracker,201223064947,,F,064947,A,1935.70640,N,09859.94436,W,0.025,;',
    { kind: 'position', pos: { time: '2020-12-23T06:49:47.000Z', lat: 19.595107, lon: -98.999073, knots: 0.025 } },
  ],
  [
    'numbered event 001 with altitude, acc and temperature',
    'imei:760112011448012,001,2001151918,,F,191833.000,A,6136.6174,N,2126.9901,E,0.00,202.6,-0.1,1,,,,20;',
    {
      kind: 'position',
      pos: {
        time: '2020-01-15T19:18:33.000Z',
        lat: 61.61029,
        lon: 21.449835,
        course: 202.6,
        altitude: -0.1,
        ign: true,
        attrs: { event: '001', temp1: 20 },
      },
    },
  ],
  [
    'tracker course 83.95 (Traccar asserts the course)',
    'imei:868683023212255,tracker,190205084503,,F,064459.000,A,4915.1221,N,01634.5655,E,3.91,83.95;',
    { kind: 'position', pos: { time: '2019-02-05T06:44:59.000Z', lat: 49.252035, lon: 16.576092, knots: 3.91, course: 83.95 } },
  ],
  [
    'vt14 photo announcement with a fix: the position (no event)',
    'imei:864180034124375,vt14,190116192753,,F,172750.000,A,3649.2186,N,00235.8411,W,0.00,0,,0,0,51.93%,,+22;',
    {
      kind: 'position',
      pos: { time: '2019-01-16T17:27:50.000Z', lat: 36.82031, lon: -2.597352, ign: false, attrs: { fuel1: 51.93, temp1: 22, door: false } },
    },
  ],
  [
    'T:+11 temperature alarm',
    'imei:868683026321020,T:+11,181217080050,,F,080047.000,A,3227.3057,N,11649.4754,W,0.00,0,,0,0,0.00%,,+11;',
    {
      kind: 'alarm',
      events: ['temperature'],
      pos: { time: '2018-12-17T08:00:47.000Z', lat: 32.455095, lon: -116.82459, alarm: 'temperature', attrs: { temp1: 11 } },
    },
  ],
  [
    'tracker with temperature +11 (Traccar asserts temp1 11); an integer in fuel 2 is skipped',
    'imei:868683026321020,tracker,181217080106,,F,080102.000,A,3227.3057,N,11649.4754,W,0.00,0,,0,0,0.00%,0,+11;',
    {
      kind: 'position',
      pos: { time: '2018-12-17T08:01:02.000Z', lat: 32.455095, lon: -116.82459, attrs: { temp1: 11, fuel1: 0, fuel2: undefined } },
    },
  ],
  [
    'fuel 10.5 % (Traccar asserts fuel1)',
    'imei:353451044508750,001,0809231929,13554900601,F,055403.000,A,2233.1870,N,11354.3067,E,0.00,30.1,65.43,1,0,10.5%,0.0%,28;',
    {
      kind: 'position',
      pos: {
        time: '2008-09-24T05:54:03.000Z',
        lat: 22.553117,
        lon: 113.905112,
        course: 30.1,
        altitude: 65.43,
        ign: true,
        attrs: { fuel1: 10.5, fuel2: 0, temp1: 28, door: false, event: '001' },
      },
    },
  ],
  [
    'acc on',
    'imei:864180036029895,acc on,180508145653,,F,065645.000,A,4729.1497,N,01904.2342,E,0.00,0,,1,,0.00%,,;',
    { kind: 'position', pos: { time: '2018-05-08T06:56:45.000Z', lat: 47.485828, lon: 19.07057, ign: true } },
  ],
  [
    'acc off wins over the acc field',
    'imei:865328023776874,acc off,150619152221,,F,072218.000,A,5439.8489,N,02518.5945,E,0.00,,,1,1,0.0,0.0,23.0,;',
    {
      kind: 'position',
      pos: {
        time: '2015-06-19T07:22:18.000Z',
        lat: 54.664148,
        lon: 25.309908,
        ign: false,
        attrs: { door: true, fuel1: 0, fuel2: 0, temp1: 23 },
      },
    },
  ],
  [
    'acc alarm: an event',
    'imei:359710041641581,acc alarm,1402231159,,F,065907.000,A,2456.2591,N,06708.8335,E,7.53,76.10,,1,0,0.03%,,',
    {
      kind: 'position',
      pos: {
        time: '2014-02-23T06:59:07.000Z',
        lat: 24.937652,
        lon: 67.147225,
        knots: 7.53,
        course: 76.1,
        ign: true,
        attrs: { event: 'acc alarm', fuel1: 0.03 },
      },
    },
  ],
  [
    'DTC: fault alarm with the trouble code',
    'imei:353451044508750,DTC,0809231929,,F,055403.000,A,2233.1870,N,11354.3067,E,0.00,30.1,,1,0,10.5%,P0021,;',
    {
      kind: 'alarm',
      events: ['fault'],
      pos: { time: '2008-09-24T05:54:03.000Z', lat: 22.553117, lon: 113.905112, alarm: 'fault', attrs: { dtcs: 'P0021' } },
    },
  ],
  [
    'oil1: fuel leak alarm',
    'imei:353451044508750,oil1,0809231929,,F,055403.000,A,2233.1870,N,11354.3067,E,0.00,,,,51.6,41.7,;',
    { kind: 'alarm', events: ['fuelLeak'], pos: { time: '2008-09-24T05:54:03.000Z', lat: 22.553117, lon: 113.905112, alarm: 'fuelLeak' } },
  ],
  [
    'oil 51.67: fuel level and fuel leak alarm',
    'imei:353451044508750,oil 51.67,0809231929,,F,055403.000,A,2233.1870,N,11354.3067,E,0.00,,;',
    {
      kind: 'alarm',
      events: ['fuelLeak'],
      pos: { time: '2008-09-24T05:54:03.000Z', lat: 22.553117, lon: 113.905112, attrs: { fuel: 51.67 } },
    },
  ],
  [
    'T:+28.0',
    'imei:353451044508750,T:+28.0,0809231929,,F,055403.000,A,2233.1870,N,11354.3067,E,0.00,,;',
    {
      kind: 'alarm',
      events: ['temperature'],
      pos: { time: '2008-09-24T05:54:03.000Z', lat: 22.553117, lon: 113.905112, attrs: { temp1: 28 } },
    },
  ],
  [
    'bonnet alarm',
    'imei:353451044508750,bonnet alarm,0809231929,,F,055403.000,A,2233.1870,N,11354.3067,E,0.00,,;',
    { kind: 'alarm', events: ['bonnet'], pos: { time: '2008-09-24T05:54:03.000Z', lat: 22.553117, lon: 113.905112, alarm: 'bonnet' } },
  ],
  [
    'footbrake alarm',
    'imei:353451044508750,footbrake alarm,0809231929,,F,055403.000,A,2233.1870,N,11354.3067,E,0.00,,;',
    { kind: 'alarm', events: ['footBrake'], pos: { time: '2008-09-24T05:54:03.000Z', lat: 22.553117, lon: 113.905112 } },
  ],
  [
    'ac alarm: power cut',
    'imei:862106021237716,ac alarm,1611291645,,F,204457.000,A,1010.2783,N,06441.0274,W,0.00,,;',
    { kind: 'alarm', events: ['powerCut'], pos: { time: '2016-11-29T20:44:57.000Z', lat: 10.171305, lon: -64.68379 } },
  ],
  [
    'help me: sos, answered so the tracker stops repeating it',
    'imei:359586015829802,help me,0809231429,13554900601,F,062947.294,A,2234.4026,N,11354.3277,E,0.00,',
    {
      kind: 'alarm',
      events: ['sos'],
      ack: ascii('**,imei:359586015829802,E;'),
      pos: { time: '2008-09-23T06:29:47.000Z', lat: 22.573377, lon: 113.905462, alarm: 'sos' },
    },
  ],
  [
    'low battery',
    'imei:359586015829802,low battery,0809231429,13554900601,F,062947.294,A,2234.4026,N,11354.3277,E,0.00,',
    { kind: 'alarm', events: ['lowBattery'], ack: null, pos: { time: '2008-09-23T06:29:47.000Z', lat: 22.573377, lon: 113.905462 } },
  ],
  [
    'stockade: geofence',
    'imei:359586015829802,stockade,0809231429,13554900601,F,062947.294,A,2234.4026,N,11354.3277,E,0.00,',
    { kind: 'alarm', events: ['geofence'], pos: { time: '2008-09-23T06:29:47.000Z', lat: 22.573377, lon: 113.905462 } },
  ],
  [
    'move: movement',
    'imei:359586015829802,move,0809231429,13554900601,F,062947.294,A,2234.4026,N,11354.3277,E,0.00,',
    { kind: 'alarm', events: ['movement'], pos: { time: '2008-09-23T06:29:47.000Z', lat: 22.573377, lon: 113.905462 } },
  ],
  [
    'speed: overspeed',
    'imei:359586015829802,speed,0809231429,13554900601,F,062947.294,A,2234.4026,N,11354.3277,E,0.00,',
    { kind: 'alarm', events: ['overspeed'], pos: { time: '2008-09-23T06:29:47.000Z', lat: 22.573377, lon: 113.905462 } },
  ],
  [
    'rfid: the driver id',
    'imei:868683020235846,rfid,160202091347,49121185,F,011344.000,A,0447.7273,N,07538.9934,W,0.00,0,,0,0,0.00%,,',
    {
      kind: 'position',
      pos: { time: '2016-02-02T01:13:44.000Z', lat: 4.795455, lon: -75.64989, attrs: { driverUniqueId: '49121185', event: 'rfid' } },
    },
  ],
  [
    'heartbeat glued to a report: answered ON, the report decoded',
    '359769031878322imei:359769031878322,tracker,1602160718,2,F,221811.000,A,1655.2193,S,14546.6722,E,0.00,,',
    { kind: 'position', ack: ascii('ON'), pos: { time: '2016-02-15T22:18:11.000Z', lat: -16.920322, lon: 145.77787 } },
  ],
  [
    'longitude with 3-digit degrees and altitude',
    'imei:869039001186913,tracker,1308282156,0,F,215630.000,A,5602.11015,N,9246.30767,E,1.4,,175.9,',
    { kind: 'position', pos: { time: '2013-08-28T21:56:30.000Z', lat: 56.035169, lon: 92.771794, knots: 1.4, altitude: 175.9 } },
  ],
  [
    'date with slashes and a +10:41 zone',
    'imei:359710040656622,tracker,13/02/27 23:40,,F,125952.000,A,3450.9430,S,13828.6753,E,0.00,0',
    { kind: 'position', pos: { time: '2013-02-27T12:59:52.000Z', lat: -34.84905, lon: 138.477922 } },
  ],
  [
    'longitude without a hemisphere',
    'imei:012497000208821,tracker,1301072224,,F,142411.077,A,2227.0739,S,06855.2912,,0,0,',
    { kind: 'position', pos: { time: '2013-01-07T14:24:11.000Z', lat: -22.451232, lon: 68.92152 } },
  ],
  [
    'no UTC time (31.0): local time, seconds 0',
    'imei:353552045375005,tracker,150401165832,61.0,F,31.0,A,1050.73696,N,10636.49489,E,8.0,,22.0,',
    { kind: 'position', pos: { time: '2015-04-01T16:58:00.000Z', lat: 10.845616, lon: 106.608248, knots: 8, altitude: 22 } },
  ],
  [
    'hemispheres before the coordinates',
    'imei:353552045403597,tracker,150420050648,53.0,F,0.0,A,N,5306.64155,E,00700.77848,0.0,,1.0,;',
    { kind: 'position', pos: { time: '2015-04-20T05:06:00.000Z', lat: 53.110692, lon: 7.012975, altitude: 1 } },
  ],
  [
    'alternative format ending in * (km/h, hdop, satellites, rssi, charge)',
    'imei:861359038609986,Equipo 1,---,------,----,214734,241018,26,1,-33.42317,-70.61930,067,229,0674,1.00,08,0,1,---,*',
    {
      kind: 'position',
      type: 'alt',
      pos: {
        time: '2018-10-24T21:47:34.000Z',
        lat: -33.42317,
        lon: -70.6193,
        kmh: 67,
        course: 229,
        altitude: 674,
        hdop: 1,
        sat: 8,
        ign: false,
        valid: true,
        attrs: { rssi: 26, charge: true },
      },
    },
  ],
  [
    'alternative format without a fix',
    'imei:861359038609986,Equipo 1,---,------,----,214812,241018,14,0,-33.42317,-70.61930,000,000,0000,99.9,00,0,1,---,*',
    {
      kind: 'position',
      type: 'alt',
      pos: { time: '2018-10-24T21:48:12.000Z', lat: -33.42317, lon: -70.6193, valid: false, hdop: 99.9, sat: 0 },
    },
  ],
];

const states: DecodeCase[] = [
  [
    'OBD with trouble codes',
    'imei:868683027758113,OBD,180905200218,,,,0,0,0.39%,70,9.41%,494,0.00,P0137,P0430,,;',
    {
      kind: 'state',
      type: 'OBD',
      dt: '2018-09-05T20:02:18.000Z',
      attrs: { hours: 0, obdSpeed: 0, engineLoad: 0.39, coolantTemp: 70, throttle: 9.41, rpm: 494, battery: 0, dtcs: 'P0137 P0430' },
    },
  ],
  [
    'OBD with odometer, consumption and hours',
    'imei:359710048977327,OBD,180301094003,5000000,0.00,0.00,98,18,68.63%,55,25.10%,1368,14.24,,,,;',
    {
      kind: 'state',
      dt: '2018-03-01T09:40:03.000Z',
      attrs: {
        odometer: 5000000,
        fuelConsumption: 0,
        hours: 98 * 3_600_000,
        obdSpeed: 18,
        engineLoad: 68.63,
        coolantTemp: 55,
        throttle: 25.1,
        rpm: 1368,
        battery: 14.24,
      },
    },
  ],
  [
    'OBD with a signed coolant temperature',
    'imei:862106025092216,OBD,170605095949,195874,,370.8,808,066,30.0%,+87,13.0%,02444,14.3,,,,;',
    {
      kind: 'state',
      dt: '2017-06-05T09:59:49.000Z',
      attrs: { odometer: 195874, fuelConsumption: 370.8, hours: 808 * 3_600_000, obdSpeed: 66, coolantTemp: 87, rpm: 2444, battery: 14.3 },
    },
  ],
  [
    'OBD with a bare + for the coolant',
    'imei:862106025092216,OBD,170612165656,196043,,145803.9,,000,0.0%,+,0.0%,00000,12.6,,,,;',
    { kind: 'state', dt: '2017-06-12T16:56:56.000Z', attrs: { odometer: 196043, battery: 12.6, coolantTemp: undefined } },
  ],
  [
    'OBD without a battery value (Traccar returns nothing; the rest is kept)',
    'imei:865328021049167,OBD,141118115036,,,0.0,,000,0.0%,+,0.0%,00000,,,,,',
    { kind: 'state', dt: '2014-11-18T11:50:36.000Z', attrs: { fuelConsumption: 0, rpm: 0, battery: undefined } },
  ],
  [
    'L (no GPS) sos: the cell and the alarm, answered',
    'imei:359710049075097,help me,,,L,,,113b,,558f,,,,,0,0,,,',
    {
      kind: 'alarm',
      type: 'L',
      events: ['sos'],
      ack: ascii('**,imei:359710049075097,E;'),
      attrs: { lac: 0x113b, cid: 0x558f, alarm: 'sos' },
    },
  ],
  [
    'L ac alarm: power cut with the cell',
    'imei:864895030279986,ac alarm,180404174252,,L,,,296a,,51f7,,,',
    { kind: 'alarm', events: ['powerCut'], attrs: { lac: 0x296a, cid: 0x51f7 } },
  ],
  [
    'L tracker: the cell',
    'imei:863070016871385,tracker,0000000119,,L,,,0FB6,,CB5D,,,',
    { kind: 'state', type: 'L', attrs: { lac: 0xfb6, cid: 0xcb5d } },
  ],
];

const others: DecodeCase[] = [
  ['login: answered LOAD', '##,imei:359586015829802,A;', { kind: 'login', type: 'login', ack: ascii('LOAD') }],
  ['heartbeat (the IMEI alone): answered ON', '359586015829802;', { kind: 'heartbeat', type: 'heartbeat', ack: ascii('ON') }],
  ['short imei frame: taken as a login, as Traccar', 'imei:123451234512345,L,*', { kind: 'login', ack: ascii('LOAD') }],
  [
    'L tracker without a cell: nothing but a heartbeat',
    'imei:359586015829802,tracker,000000000,13554900601,L,;',
    { kind: 'heartbeat', type: 'L' },
  ],
  [
    'vr photo data: refused',
    'imei:864180034124375,vr,0c00fa011ea05a03d726977103ad0034c98ef49e6d303fffd1c8361303f2dbb0fa530d8ca3930be3e94f4110145c7029a507a0a00028f4a70514c05c500503170334b4;',
    { kind: 'ignored', type: 'vr', why: 'photo transfer not supported' },
  ],
];

describeTextCaptures(
  gps103Protocol,
  { 'position reports': reports, 'state records': states, 'login, heartbeat, refusals': others },
  '0123456789.,;*-ANSEWFLV:%+/ ',
);
