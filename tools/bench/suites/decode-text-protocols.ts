import { gps103Protocol } from '@corridor/ingest/protocols/gps103';
import { h02Protocol } from '@corridor/ingest/protocols/h02';
import { meitrackProtocol } from '@corridor/ingest/protocols/meitrack';
import type { Protocol, ProtocolSession } from '@corridor/ingest/protocols/protocol';
import { tk103Protocol } from '@corridor/ingest/protocols/tk103';
import { jt808Protocol } from '@corridor/ingest/protocols/jt808';
import { ruptelaProtocol } from '@corridor/ingest/protocols/ruptela';
import { jt701Protocol } from '@corridor/ingest/protocols/jt701';
import { queclinkProtocol } from '@corridor/ingest/protocols/queclink';
import { wialonProtocol } from '@corridor/ingest/protocols/wialon';
import { itemsPerSecond } from '../rate';

/**
 * Frames per second on one core for the text-family decoders (H02, GPS103, TK103, Meitrack) and
 * the corridor hardware protocols (JT/T 808, Ruptela, the JT701 seal, Queclink @Track, Wialon IPS): `decode` alone, and a whole capture cut by
 * `splitFrames` then decoded. Frames are real device messages from Traccar's public decoder tests
 * (traccar/traccar src/test/java/org/traccar/protocol) and, for JT/T 808-2019, xtream-codec's
 * published samples (makeclan/xtream-codec).
 */
export const SAMPLES: Record<string, { protocol: Protocol; frames: Buffer[] }> = {
  h02: {
    protocol: h02Protocol,
    frames: [
      Buffer.from('*HQ,4210051415,V1,164549,A,0956.3869,N,08406.7068,W,000.00,000,221215,FFFFFBFF,712,01,0,0,6#'),
      Buffer.from('*HQ,353588020068342,V1,084436,A,3257.01525,N,00655.03865,W,57.78,40,011216,FFFBFFFF,25c,a, 154,b04c#'),
      Buffer.from('*HQ,1600068860,LINK,112137,20,8,67,0,0,081116,FFFFFBFF#'),
      Buffer.from('2441060116601245431311165035313006004318210e000000fffffbffff0024', 'hex'),
    ],
  },
  gps103: {
    protocol: gps103Protocol,
    frames: [
      'imei:359710049092324,tracker,151027025958,,F,235957.000,A,2429.5156,N,04424.5828,E,0.01,27.91,,0,0,,,;',
      'imei:865328023776874,acc off,150619152221,,F,072218.000,A,5439.8489,N,02518.5945,E,0.00,,,1,1,0.0,0.0,23.0,;',
      '359586015829802;',
      'imei:359586015829802,help me,0809231429,13554900601,F,062947.294,A,2234.4026,N,11354.3277,E,0.00,;',
    ].map((t) => Buffer.from(t)),
  },
  tk103: {
    protocol: tk103Protocol,
    frames: [
      '(088047365460BR00151024A2555.3531S02855.3329E004.7055148276.1701000000L00009AA3)',
      '(352606090042050,BP05,240414,A,4527.3513N,00909.9758E,4.80,112825,155.49)',
      '(027044702512BP00027044702512HSO01A4)',
      '(013666666666BO012110925A1234.5678N01234.5678W000.0025948118.7200000000L000024DE)',
    ].map((t) => Buffer.from(t)),
  },
  meitrack: {
    protocol: meitrackProtocol,
    frames: [
      '$$D149,867047043162018,AAA,35,-1.264865,36.800705,211001105240,A,9,20,41.0,323,1,1697,1,0,000|00||,0000,4.33|12.96|1.92|2.72|2.69,0.000000|0|0.000000,*E1\r\n',
      '$$T143,869013024733944,AAA,1,18.459575,-69.947161,170220142912,A,5,15,10,300,1.6,115,3989,187884,370|2|5337|2B2C,0100,0000|0000|0000|0964|0B04,,*C2\r\n',
      '$$m139,012896005334567,AAA,35,-33.866423,151.190060,121208020649,A,7,27,0,32,4,13,6150,49517,505|2|0B67|5A6C,0000,0000|0000|0000|0977|0000,,*F1\r\n',
    ].map((t) => Buffer.from(t)),
  },
  jt808: {
    protocol: jt808Protocol,
    frames: [
      '7e0200007c0191718447540dcd000000008000000b029eabc204ba78510004000000042111182321120104000017f6cc14383933303237323037303339333033383732373130011d800134810204718202008283010e84017b85021ae986012f870201788901038b114a4e31424a314352364b573333363533358c040008dcb68d02018c8e013da000c07e',
      '7e02004026010000000001391234432900000000006f0000001601dc9a0707456246007b004200032501292233440202006401040000000c417e',
      '7e0704403f01000000000139123443290000000200001c000000010000000101d907f2073d336c029a00210059241029213903001c000000010000000101d907f3073d336d03090043005a241029213903f87e',
      '7e0002000004304832546500b7ca7e',
    ].map((h) => Buffer.from(h, 'hex')),
  },
  ruptela: {
    protocol: ruptelaProtocol,
    frames: [
      '0050000310f5615f419c0100015613d8ed0000fff5b37a035af37801e700000900000d07071b0c020003001c01202cad000500064302a81d33e61e100116317cd3ffff174ad60241000077fa960000f232003c2e',
      '009200000c07a6bacd4701000552db5cc20000187b8b251ace478e087c044c0a000009070000000052db5cfe0000187b8ab01ace47190879044c0900000b070000000052db5d3a0000187b8b251ace474b089d044c09000009070000000052db5d760000187b8b9a1ace475c08cd044c08000009070000000052db5db20000187b8b141ace46e708b3044c08000009070000000041cb',
      '002e000315bc70d3e2ff0f4f42443130302e30312e30382e30300000c2b30ea77e430000601b000001f40000003c00144aa0',
    ].map((h) => Buffer.from(h, 'hex')),
  },
  jt701: {
    protocol: jt701Protocol,
    frames: [
      Buffer.from(
        '2480405003701911003426032115595533197294020020085d0586000010e10c0000000020e043600a526d1700020f0f0f0f0f0f0f0f0f0f0eaa028f018b',
        'hex',
      ),
      Buffer.from(
        '2478807035371711003419081920061851380856003256223b000000000000070000000020c0ff965d54de1800000f0f0f0f0f0f0f0f0f0f02d600ea0a21',
        'hex',
      ),
      Buffer.from('(7890629284,P45,260321,185342,26.181296,N,50.329788,E,V,0.00,0,5,0,0000000000,0,0,0)'),
    ],
  },
  queclink: {
    protocol: queclinkProtocol,
    frames: [
      '+RESP:GTFRI,060228,862894020178276,,15153,10,1,1,0.0,0,431.7,-63.169571,-17.776235,20160210153458,0736,0003,6AD4,80EF,00,34.9,00117:31:26,13442,15163,0,210101,,,,20160210113503,38EE$',
      '+RESP:GTIGF,270302,867162025085234,,3519,0,0.0,92,111.2,-116.867638,32.450321,20180327070835,0334,0020,2B24,52CC3DE,00,,243.1,20180327070837,2A98$',
      '+RESP:GTINF,1A0800,860599000773978,GL300,41,89701016426133851978,17,0,1,26.6,,3.90,1,1,0,0,0,20161003184043,69,1,44,,,20161004040811,022C$',
      '+ACK:GTHBD,1A0401,135790246811220,,20100214093254,11F0$',
    ].map((t) => Buffer.from(t)),
  },
  // WialonProtocolDecoderTest (Traccar)
  wialon: {
    protocol: wialonProtocol,
    frames: [
      '#SD#300924;154245;5554.350052;N;3644.670410;E;2.92;NA;NA;NA;7A01\r\n',
      '#D#220323;114150;2234.80479;N;11354.87786;E;0;NA;59;11;NA;NA;NA;;NA;d_battr:1:94,d_csq:1:21,di_light:1:1;E7C9\r\n',
      '#B#080914;073235;5027.50625;N;03026.19321;E;0.700;0.000;NA;4;NA;NA;NA;;NA;Bat:3:100 %|080914;073420;5027.50845;N;03026.18854;E;1.996;292.540;NA;4;NA;NA;NA;;NA;Bat:3:100 %\r\n',
      '#P#\r\n',
    ].map((t) => Buffer.from(t)),
  },
};

const RUN_MS = 400;
const MAX_FRAME = 4096;

/** Frames/s of `round` (which handles `perRound` frames), over RUN_MS after a warm-up. */
const measure = (perRound: number, round: () => void): number =>
  Math.round(itemsPerSecond(perRound, round, { runMs: RUN_MS, warmup: 2000, batch: 100 }));

export default async function run(): Promise<Record<string, number | string>> {
  const figures: Record<string, number | string> = {
    frames_per_sample_set:
      'h02 4, gps103 4, tk103 4, meitrack 3, jt808 4 (0x0200 2013, 0x0200 2019, 0x0704 2019 x2, 0x0002), ruptela 3 (records x1, records x5, identification), jt701 3 (0x19, 0x17, P45), queclink 4 (GTFRI, GTIGF, GTINF, +ACK:GTHBD), wialon 4 (SD, D, B of 2, P)',
  };
  let sink = 0;
  for (const [name, { protocol, frames }] of Object.entries(SAMPLES)) {
    const capture = Buffer.concat(frames);
    const decodeOnly = measure(frames.length, () => {
      const session: ProtocolSession = {};
      for (const frame of frames) sink += protocol.decode(frame, session).positions.length;
    });
    const splitAndDecode = measure(frames.length, () => {
      const session: ProtocolSession = {};
      for (const frame of protocol.splitFrames(capture, MAX_FRAME).frames) sink += protocol.decode(frame, session).positions.length;
    });
    figures[`${name}_decode_frames_per_s`] = decodeOnly;
    figures[`${name}_split_decode_frames_per_s`] = splitAndDecode;
    figures[`${name}_split_overhead_ratio`] = Number((decodeOnly / splitAndDecode).toFixed(3));
  }
  if (sink < 0) throw new Error('unreachable');
  return figures;
}
