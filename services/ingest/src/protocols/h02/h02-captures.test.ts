import { describe } from 'vitest';
import { itDecodes, type DecodeCase } from '../../../test/protocol-helpers';
import { decodeH02 } from './index';

/*
 * Real device messages from Traccar's public test data (traccar/traccar
 * src/test/java/org/traccar/protocol/H02ProtocolDecoderTest.java, 2025 version). Traccar asserts a
 * value for a few of them (named in the title); the other expected values were worked out by hand
 * from the text (ddmm.mmmm coordinates, knots, hhmmss + ddmmyy UTC, active-low status word).
 */

describe('h02 captures: every report type', () => {
  itDecodes(
    [
      [
        'V8 with a longitude of less than a degree (Traccar asserts 2025-10-22 21:39:45, 35.70340, -0.64418)',
        '*HQ,9001000002,V8,213945,A,3542.2043,N,38.6508,W,0.00,170,221025,FBFFF9FF,0,0,0,0,22,31,126,0#',
        {
          kind: 'position',
          type: 'V8',
          pos: { time: '2025-10-22T21:39:45.000Z', lat: 35.703405, lon: -0.64418, valid: true, course: 170, ign: false },
        },
      ],
      [
        'V6 with cell and ICCID extras, status bit 19 cleared: powerCut',
        '*HQ,3177718238,V6,002926,V,3514.4088,N,9733.2842,W,0.00,0.00,151222,FFF7FBFF,310,260,32936,13641,8944501311217563382F,#',
        {
          kind: 'alarm',
          type: 'V6',
          events: ['powerCut'],
          pos: {
            time: '2022-12-15T00:29:26.000Z',
            lat: 35.240147,
            lon: -97.554737,
            valid: false,
            alarm: 'powerCut',
            attrs: { io1: '310', io2: '260' },
          },
        },
      ],
      [
        'V1 with packed coordinates (ddmmmmmm)',
        '*HQ,5905101893,V1,105759,A,37573392,S,145037022,E,000.00,173,280122,FF7FFBFF,,,9059e2c,8232,4#',
        { kind: 'position', pos: { time: '2022-01-28T10:57:59.000Z', lat: -37.955653, lon: 145.061703, course: 173 } },
      ],
      [
        'V5 (Dhaka, no fix)',
        '*HQ,9180271064,V5,091233,V,2348.8912,N,09021.3302,E,000.00,000,051219,FFFFBBFF,470,01,21019,2033,2921283#',
        { kind: 'position', type: 'V5', pos: { time: '2019-12-05T09:12:33.000Z', lat: 23.814853, lon: 90.355503, valid: false } },
      ],
      [
        'V1 with a space-padded speed',
        '*HQ,865205035331981,V1,132926,A,1935.3933,N,07920.4134,E,  3.34,342,280519,FFFFFFFF#',
        {
          kind: 'position',
          pos: { time: '2019-05-28T13:29:26.000Z', lat: 19.589888, lon: 79.340223, knots: 3.34, course: 342, ign: true },
        },
      ],
      [
        'V2 with a coding-scheme number as validity',
        '*HQ,353505221264507,V2,100220,0,5238.26259,N,00507.33983,E,0.25,0,280917,FFFFFFFF,cc,28,  db,d75b#',
        { kind: 'position', type: 'V2', pos: { time: '2017-09-28T10:02:20.000Z', lat: 52.63771, lon: 5.122331, valid: true, knots: 0.25 } },
      ],
      [
        'VI1',
        '*HQ,353505221264507,VI1,075146,0,5238.25900,N,00507.33429,E,0.54,0,250917,FFFFFFFF,cc,28,  db,d75b#',
        { kind: 'position', type: 'VI1', pos: { time: '2017-09-25T07:51:46.000Z', lat: 52.63765, lon: 5.122238, knots: 0.54 } },
      ],
      [
        'V1 without a device id (the session keeps the last one)',
        '*HQ,,V1,173212,A,2225.78879,S,02829.19021,E,0.00,0,290418,FFFFFBFF#',
        { kind: 'position', pos: { time: '2018-04-29T17:32:12.000Z', lat: -22.429813, lon: 28.486504 } },
      ],
      [
        'VP1 with a fix: date only, its midnight',
        '*hq,356327080425330,VP1,A,2702.7245,S,15251.9311,E,0.48,0.0000,080917#',
        { kind: 'position', type: 'VP1', pos: { time: '2017-09-08T00:00:00.000Z', lat: -27.045408, lon: 152.865518, knots: 0.48 } },
      ],
      [
        'VP1 without a fix: cells separated by Y (state record)',
        '*hq,356327081001239,VP1,V,470,002,92,3565,0Y92,19433,30Y92,1340,29#',
        {
          kind: 'state',
          type: 'VP1',
          attrs: { mcc: 470, mnc: 2, lac: 92, cid: 3565, cells: '470/2/92/3565/0 470/2/92/19433/30 470/2/92/1340/29' },
        },
      ],
      [
        'V3 cells: mcc+mnc, lac/cid, dBm, battery word (unit not documented)',
        '*HQ,353111080001055,V3,044855,28403,01,001450,011473,158,-62,0292,0,X,030817,FFFFFBFF#',
        {
          kind: 'state',
          type: 'V3',
          dt: '2017-08-03T04:48:55.000Z',
          attrs: { mcc: 284, mnc: 3, lac: 1450, cid: 11473, batteryRaw: 658, cells: '284/3/1450/11473/-62' },
        },
      ],
      [
        'V3 with four cells',
        '*HQ,355488020882405,V3,095426,74001,04,010278,045142,128,-92,010278,026311,125,,010278,026582,125,,010278,028322,119,,02DD,0,X,090517,FFFFFBFF#',
        {
          kind: 'state',
          type: 'V3',
          dt: '2017-05-09T09:54:26.000Z',
          attrs: {
            mcc: 740,
            mnc: 1,
            lac: 10278,
            cid: 45142,
            cells: '740/1/10278/45142/-92 740/1/10278/26311/0 740/1/10278/26582/0 740/1/10278/28322/0',
          },
        },
      ],
      [
        'LINK with battery 84 %',
        '*HQ,1700086468,LINK,180902,15,0,84,0,0,240517,FFFFFBFF#',
        { kind: 'heartbeat', type: 'LINK', dt: '2017-05-24T18:09:02.000Z', attrs: { rssi: 15, sat: 0, batteryLevel: 84 } },
      ],
      [
        'NBR with six cells (MNC 310)',
        '*HQ,4109179024,NBR,103732,722,310,0,6,8106,32010,23,8101,22007,25,8106,12010,23,8106,22105,22,8101,22012,16,8106,42010,5,100217,FFFFFBFF,5#',
        { kind: 'state', type: 'NBR', dt: '2017-02-10T10:37:32.000Z', attrs: { mcc: 722, mnc: 310, lac: 8106, cid: 32010 } },
      ],
      [
        'NBR with negative signal values',
        '*HQ,7401004662,NBR,160453,234,10,0,2,21580,27766,-67,21580,27766,-67,291019,FFFFFBFF,6#',
        {
          kind: 'state',
          dt: '2019-10-29T16:04:53.000Z',
          attrs: { mcc: 234, mnc: 10, cells: '234/10/21580/27766/-67 234/10/21580/27766/-67' },
        },
      ],
      [
        'HTBT with battery level (Traccar asserts batteryLevel 100), echoed as the ack',
        '*HQ,135790246811220,HTBT,100#',
        { kind: 'heartbeat', type: 'HTBT', ack: '2a48512c3133353739303234363831313232302c4854425423', attrs: { batteryLevel: 100 } },
      ],
      [
        'HTBT without a battery level: echoed, nothing else',
        '*HQ,135790246811220,HTBT#',
        { kind: 'heartbeat', ack: '2a48512c3133353739303234363831313232302c4854425423' },
      ],
      [
        'V19 with SIM fields',
        '*HQ,4109179024,V19,181519,V,3853.2587,S,06205.9175,W,000.00,000,090217,,5492932630888,8954315265044716555?,FFFFFBFF#',
        { kind: 'position', type: 'V19', pos: { time: '2017-02-09T18:15:19.000Z', lat: -38.887645, lon: -62.098625, valid: false } },
      ],
      [
        'V4 reply to S1 (the reply and a fix; status bit 1 cleared: sos)',
        '*TH,2020916012,V4,S1,OK,pass_word,130305,050316,A,2212.8745,N,11346.6574,E,14.28,028,220902,FFFFFBFD#',
        {
          kind: 'alarm',
          type: 'V4',
          events: ['sos'],
          pos: {
            time: '2002-09-22T05:03:16.000Z',
            lat: 22.214575,
            lon: 113.777623,
            knots: 14.28,
            course: 28,
            alarm: 'sos',
            attrs: { result: 'S1,OK,pass_word' },
          },
        },
      ],
      [
        'SMS reply text (Traccar asserts the multi-line result)',
        '*HQ,5226073533,SMS,ST906(70SACD)_TQ_V_2.0 2024/06/07\nID:5226073533\nIP:1.2.3.4 5013\nUT:30,30,300\nVOLT:12.9V\nAPN:internet.example.com\nGPS:A-24-23\nGSM:26#',
        {
          kind: 'result',
          type: 'SMS',
          result:
            'ST906(70SACD)_TQ_V_2.0 2024/06/07\nID:5226073533\nIP:1.2.3.4 5013\nUT:30,30,300\nVOLT:12.9V\nAPN:internet.example.com\nGPS:A-24-23\nGSM:26',
        },
      ],
      [
        'XT: refused, layout not public (Traccar returns nothing)',
        '*HQ,356327080425330,XT,1,100#',
        { kind: 'ignored', type: 'XT', why: 'XT report' },
      ],
      [
        'BS: refused (Traccar returns nothing)',
        '*HQ,356803210091319,BS,,2d4,a,1b63,1969,26,1b63,10b2,31,0,0,25,,ffffffff,60#',
        { kind: 'ignored', type: 'BS', why: 'BS report' },
      ],
      [
        'BASE: refused (Traccar returns nothing)',
        '*HQ,8401016597,BASE,152609,0,0,0,0,211014,FFFFFFFF#',
        { kind: 'ignored', type: 'BASE', why: 'BASE report' },
      ],
      [
        'V1 without time and date: refused (Traccar would stamp the server time)',
        '*HQ,353505220873067,V1,,V,4605.75732,N,01430.73863,E,0.00,0,,FFFFFFEF,125,194,  64,d3#',
        { kind: 'ignored', why: 'without a fix or a date' },
      ],
    ] satisfies DecodeCase[],
    (frame) => decodeH02(Buffer.from(frame, 'latin1'), {}),
  );
});
