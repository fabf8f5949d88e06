import { decodeGt06, splitGt06Frames } from '@corridor/ingest/protocols/gt06';
import { decodeTeltonika, decodeTeltonikaUdp, splitTeltonikaFrames } from '@corridor/ingest/protocols/teltonika';

/**
 * Device decoder throughput on one core: frames/s for GT06 and Teltonika, decode alone and
 * split + decode over a stream, using real captures from Traccar's public test data
 * (Gt06ProtocolDecoderTest, TeltonikaProtocolDecoderTest).
 */
export const GT06_FRAMES = [
  '787822220F0C1D023305C9027AC8180C46586000140001CC00287D001F71000001000820860D0A', // 0x22 location
  '787821121303120b2524c70138e363085b549003d43301940057d200cd52c000006aa1ca0d0a', // 0x12 location
  '7878251613020C12141AC5027951430C2A16F60014000900000000001A00007C550300020002F1E70D0A', // 0x16 alarm
  '787808134606020002044dc5050d0a', // 0x13 status
].map((h) => Buffer.from(h, 'hex'));

export const TELTONIKA_FRAMES = [
  // codec 8, one record
  '000000000000004c08010000016818d500580009c28d9f1cb3757a00be00c60f0053000f06f0011503c80001011d00fc0007423799180053cdf80dce426f430f88190bb8560bb802f100005aa110002887e000010000ee8d',
  // codec 8 Extended, one record
  '00000000000000818e0100000166e368a510000f0d8b5b20961c35008d010308000000000014000900ef0000f00100500100150400c800004501001e00002500002900000a00b5000800b60007004230dc0018000000430fcb0044005f001103de001200e50013001200240000000000000001010000113141314a433534343452373235323336370100005e99',
  // codec 8, three records
  '00000000000000da08030000017fcedf499600280431be0eded45d0038012d100000fa100901000200b300b4004501500415034702fa00054232a1180000cd3b2fce281d43001f02c700000006f10000a029000000017fcedea99600280432070eded3dd00380046130009000f0801010200b300b400450150051502470205423276180009cd3b2fce281d43001f02c700000027f10000a0290000000179d50853180027f65d3f0ed67212001500f1110061000f0801010200b300b4004501500515034702054234f4180061cd53d1ce28c043003e02c700000147f1000000290003000052cb',
].map((h) => Buffer.from(h, 'hex'));

const UDP_DATAGRAM = Buffer.from(
  '0049cafe0122000f33353734353430373237313339373508010000015d3766f6a800003eef961ec6215e0063006d09003100070401000200f001c8000242381c18003201c7000000e10001',
  'hex',
);

const RUN_MS = 700;

/** Calls `step` in batches until RUN_MS passes; returns operations per second. */
function rate(step: () => number): number {
  for (let i = 0; i < 2000; i++) step(); // warm-up
  let ops = 0;
  const t0 = performance.now();
  let elapsed = 0;
  while (elapsed < RUN_MS) {
    for (let i = 0; i < 500; i++) ops += step();
    elapsed = performance.now() - t0;
  }
  return Math.round((ops * 1000) / elapsed);
}

function cycle<T>(items: T[]): () => T {
  let i = 0;
  return () => items[i++ % items.length] as T;
}

export default async function run(): Promise<Record<string, number | string>> {
  const session = { deviceId: '864717003283581' };
  let sink = 0;

  const nextGt06 = cycle(GT06_FRAMES);
  const gt06Decode = rate(() => {
    sink += decodeGt06(nextGt06(), session).positions.length;
    return 1;
  });

  const gt06Stream = Buffer.concat(Array.from({ length: 50 }, () => GT06_FRAMES).flat());
  const gt06SplitDecode = rate(() => {
    const { frames } = splitGt06Frames(gt06Stream, 1024);
    for (const f of frames) sink += decodeGt06(f, session).positions.length;
    return frames.length;
  });

  const nextTeltonika = cycle(TELTONIKA_FRAMES);
  let records = 0;
  const teltonikaDecode = rate(() => {
    records += decodeTeltonika(nextTeltonika(), session).positions.length;
    return 1;
  });

  const teltonikaStream = Buffer.concat(Array.from({ length: 30 }, () => TELTONIKA_FRAMES).flat());
  const teltonikaSplitDecode = rate(() => {
    const { frames } = splitTeltonikaFrames(teltonikaStream, 65_536);
    for (const f of frames) sink += decodeTeltonika(f, session).positions.length;
    return frames.length;
  });

  const teltonikaUdp = rate(() => {
    sink += decodeTeltonikaUdp(UDP_DATAGRAM).positions.length;
    return 1;
  });

  // Records per frame in the Teltonika mix: 1 + 1 + 3 over 3 frames.
  const recordsPerFrame = 5 / 3;
  if (sink < 0 || records < 0) throw new Error('unreachable');

  return {
    gt06_decode_frames_per_s: gt06Decode,
    gt06_split_decode_frames_per_s: gt06SplitDecode,
    teltonika_tcp_decode_frames_per_s: teltonikaDecode,
    teltonika_tcp_decode_records_per_s: Math.round(teltonikaDecode * recordsPerFrame),
    teltonika_tcp_split_decode_frames_per_s: teltonikaSplitDecode,
    teltonika_udp_decode_datagrams_per_s: teltonikaUdp,
    gt06_to_teltonika_frame_ratio: Math.round((gt06Decode / teltonikaDecode) * 100) / 100,
    mix: 'gt06: 0x22,0x12,0x16,0x13; teltonika: codec8 x1, codec8E x1, codec8 x3',
  };
}
