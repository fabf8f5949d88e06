import { parsePositionId, type PositionMessage } from '@corridor/contracts';
import { createTestAdapters, primaryKind, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, type IngestService } from '../src/app';
import { crc16Arc } from '../src/protocols/wialon/index';
import type { TcpProtocolName } from '../src/tcp/tcp-protocols';
import { eventually } from '@corridor/platform/testing/eventually';
import { registryEntry, TestDevice } from './test-device';

/**
 * A replay per protocol of a mixed capture stream through its TCP port: several devices (models) at
 * once, each on its own connection, their reports interleaved with heartbeats and batches, as real
 * messages (sources named per stream). Every connection gets exactly the acknowledgements its device
 * expects, in order; every fix is published once (positions.v1 ids are device + fix second: the
 * list of ids equals the expected one, without repeats); state records are kept as such. The
 * bus-confirmed publishes are recorded by wrapping the intake. A stream with acks ends with an
 * acknowledged frame, written only after everything before it was published; a stream of a tracker
 * that expects no answer is complete once its fixes were published (its connection stays open
 * until then: frames of a closed connection are dropped unacknowledged).
 */
interface DeviceStream {
  uniqueId: string;
  frames: Buffer[];
  /** The bytes the device must get back, in order (the last frame of a stream with acks is acknowledged). */
  acks: Buffer;
  /** The fix times (ISO) that must be published, once each. */
  fixes: string[];
  /** How many state records (reports without a fix) must be published. */
  states?: number;
  /** An exchange before the frames (JT/T 808: registration and authentication); returns the bytes it received, which `acks` leaves out. */
  handshake?: (device: TestDevice) => Promise<number>;
}

let adapters: TestAdapters;
let svc: IngestService;
const published: PositionMessage[] = [];
let nextDeviceId = 4100;

beforeAll(async () => {
  adapters = await createTestAdapters(await primaryKind());
  svc = await build({ ...adapters, identitySecret: 'protocol-replay-test-secret-0123456789' });
  await svc.start();
  const accept = svc.intake.accept.bind(svc.intake);
  svc.intake.accept = async (fixes, meta) => {
    const out = await accept(fixes, meta);
    published.push(...out);
    return out;
  };
});

afterAll(async () => {
  await svc?.close();
  await adapters?.close();
});

const text = (t: string): Buffer => Buffer.from(t, 'utf8');
const hex = (h: string): Buffer => Buffer.from(h.replace(/\s+/g, ''), 'hex');

/** A JT/T 808 frame built here from the standard (header, XOR check, 7D escaping), apart from ingest's encoder. */
function jt808(msgId: number, idHex: string, serial: number, body = '', opts: { v2019?: boolean; shortSerial?: boolean } = {}): Buffer {
  const b = hex(body);
  const head = Buffer.alloc(4);
  head.writeUInt16BE(msgId, 0);
  head.writeUInt16BE(b.length | (opts.v2019 ? 0x4000 : 0), 2);
  const serialBytes = Buffer.alloc(opts.shortSerial ? 1 : 2);
  if (opts.shortSerial) serialBytes.writeUInt8(serial, 0);
  else serialBytes.writeUInt16BE(serial, 0);
  const content = Buffer.concat([head, opts.v2019 ? hex('01') : Buffer.alloc(0), hex(idHex), serialBytes, b]);
  const whole = Buffer.concat([content, Buffer.from([content.reduce((x, y) => x ^ y, 0)])]);
  const escaped = whole
    .toString('hex')
    .match(/../g)!
    .map((x) => (x === '7e' ? '7d02' : x === '7d' ? '7d01' : x))
    .join('');
  return hex(`7e${escaped}7e`);
}

/** The JT/T 808 frames received so far, unescaped, without their flags. */
function jt808Received(device: TestDevice): Buffer[] {
  const frames: Buffer[] = [];
  for (const m of device.received.toString('hex').matchAll(/7e((?:(?!7e)[0-9a-f]{2})+)7e/g))
    frames.push(hex(m[1]!.replace(/7d02/g, '7e').replace(/7d01/g, '7d')));
  return frames;
}

/**
 * Registration and authentication as the identity layer (frames/identity.ts) requires before data:
 * 0x0100, the code in the 0x8100 answer, 0x0102 presenting it (2019: length-prefixed, then IMEI and
 * version). The two answers take the platform serials 0 and 1: data answers start at 2.
 */
function jt808Handshake(idHex: string, v2019 = false): (device: TestDevice) => Promise<number> {
  return async (device) => {
    await device.write(jt808(0x0100, idHex, 0x7001, '00'.repeat(v2019 ? 76 : 37), { v2019 }));
    const [registered] = await eventually('the 0x8100 answer', () => jt808Received(device).length >= 1 && jt808Received(device));
    // header (12 bytes, 2019: 17), reply serial WORD, result BYTE, the code, check BYTE
    const code = registered!.subarray((v2019 ? 17 : 12) + 3, registered!.length - 1).toString('latin1');
    const body = v2019
      ? Buffer.concat([Buffer.from([code.length]), Buffer.from(code, 'latin1'), Buffer.alloc(35)])
      : Buffer.from(code, 'latin1');
    await device.write(jt808(0x0102, idHex, 0x7002, body.toString('hex'), { v2019 }));
    await eventually('the 0x8001 answer to the authentication', () => jt808Received(device).length >= 2);
    return device.received.length;
  };
}

/** The platform's general response 0x8001 (its own serial `n`) to message `msgId` serial `serial`. */
function general(idHex: string, n: number, msgId: number, serial: number, v2019 = false): Buffer {
  const body = Buffer.alloc(5);
  body.writeUInt16BE(serial, 0);
  body.writeUInt16BE(msgId, 2);
  return jt808(0x8001, idHex, n, body.toString('hex'), { v2019 });
}

/** CRC-16/KERMIT (reflected 0x1021, init 0), written here apart from ingest's table-driven one. */
function kermit(data: Buffer): number {
  let crc = 0;
  for (const byte of data) {
    crc ^= byte;
    for (let i = 0; i < 8; i++) crc = crc & 1 ? (crc >>> 1) ^ 0x8408 : crc >>> 1;
  }
  return crc;
}

/** A Ruptela device packet built after Ruptela's protocol document: length, IMEI, command, data, CRC. */
function ruptela(imeiHex: string, command: number, data = ''): Buffer {
  const payload = Buffer.concat([hex(imeiHex), Buffer.from([command]), hex(data)]);
  const out = Buffer.alloc(payload.length + 4);
  out.writeUInt16BE(payload.length, 0);
  payload.copy(out, 2);
  out.writeUInt16BE(kermit(payload), payload.length + 2);
  return out;
}

/** Replays every stream at once (frames interleaved across connections) and checks acks and publishes. */
async function replay(protocol: TcpProtocolName, streams: DeviceStream[]): Promise<void> {
  const port = await svc.ports.tcp[protocol].listen(0, '127.0.0.1');
  const ids = new Map<string, number>();
  for (const s of streams) {
    const id = nextDeviceId++;
    ids.set(s.uniqueId, id);
    svc.registry.apply(registryEntry(id, s.uniqueId));
  }
  const from = published.length;
  const devices = await Promise.all(streams.map(() => TestDevice.open(port)));
  const skip: number[] = [];
  try {
    await Promise.all(streams.map(async (s, d) => (skip[d] = s.handshake ? await s.handshake(devices[d]!) : 0)));
    const longest = Math.max(...streams.map((s) => s.frames.length));
    for (let i = 0; i < longest; i++) {
      await Promise.all(streams.map((s, d) => (s.frames[i] ? devices[d]!.write(s.frames[i]!) : undefined)));
    }
    await Promise.all(streams.map((s, d) => devices[d]!.waitReceived(skip[d]! + s.acks.length)));
    // a stream without acks (trackers that expect none) is complete once its fixes were published
    await Promise.all(
      streams
        .filter((s) => s.acks.length === 0)
        .map((s) =>
          eventually(
            `the fixes of ${s.uniqueId}`,
            () =>
              published.slice(from).filter((p) => p.deviceId === ids.get(s.uniqueId) && parsePositionId(p.id)?.kind === 'fix').length >=
              s.fixes.length,
          ),
        ),
    );
  } finally {
    for (const d of devices) d.close();
  }
  streams.forEach((s, d) =>
    expect(devices[d]!.received.subarray(skip[d]).toString('latin1'), `acks of ${s.uniqueId}`).toBe(s.acks.toString('latin1')),
  );
  const mine = published.slice(from);
  for (const s of streams) {
    const deviceId = ids.get(s.uniqueId)!;
    const of = mine.filter((p) => p.deviceId === deviceId);
    const fixes = of.filter((p) => parsePositionId(p.id)?.kind === 'fix');
    expect(fixes.map((p) => p.fixTime).sort(), `fixes of ${s.uniqueId}`).toEqual([...s.fixes].sort());
    expect(new Set(fixes.map((p) => p.id)).size, `each fix of ${s.uniqueId} once`).toBe(fixes.length);
    expect(of.length - fixes.length, `state records of ${s.uniqueId}`).toBe(s.states ?? 0);
    for (const p of of) expect(p.protocol).toBe(protocol);
  }
}

describe('replay of mixed capture streams through the TCP ports', () => {
  it('Queclink @Track: GV300, GL300, GV300W, GV310LAU and GV350M at once; reports, +BUFF, a four-fix report, CAN, heartbeats', async () => {
    // Gl200TextProtocolDecoderTest (Traccar); the heartbeats in the @Track documents' +ACK:GTHBD format
    const sack = (count: string) => `+SACK:${count}$`;
    await replay('queclink', [
      {
        uniqueId: '862894020180553',
        frames: [
          '+RESP:GTIGN,060228,862894020180553,,9860,0,0.2,189,420.0,-63.158195,-17.800608,20160309022951,0736,0003,6AD4,3471,00,,881.2,20160308222956,129A$',
          '+ACK:GTHBD,060228,862894020180553,,20160309030000,129B$',
          '+RESP:GTFRI,060228,862894020180553,,,10,1,1,20.0,147,329.7,-62.899703,-17.720434,20160309113548,0736,0003,6AAE,3381,00,913.3,,,,0,220101,,,,20160309073554,132B$',
          '+BUFF:GTIGF,060228,862894020180553,,1958,0,0.0,240,390.3,-63.089213,-17.764712,20160309122854,0736,0003,6AB8,5A23,00,,936.8,20160309082858,1368$',
        ].map(text),
        acks: text(sack('129A') + '+SACK:GTHBD,060228,129B$' + sack('132B') + sack('1368')),
        fixes: ['2016-03-09T02:29:51.000Z', '2016-03-09T11:35:48.000Z', '2016-03-09T12:28:54.000Z'],
      },
      {
        uniqueId: '860599000306845',
        frames: [
          '+ACK:GTHBD,1A0900,860599000306845,G3-313,20181214134600,0653$',
          '+RESP:GTFRI,1A0900,860599000306845,G3-313,0,0,4,1,2.1,0,426.7,8.611466,47.681639,20181214134603,0228,0001,077F,4812,25.2,1,5.7,34,437.3,8.611600,47.681846,20181214134619,0228,0001,077F,4812,25.2,1,4.4,62,438.2,8.611893,47.681983,20181214134633,0228,0001,077F,4812,25.2,1,4.8,78,436.6,8.612236,47.682040,20181214134648,0228,0001,077F,4812,25.2,83,20181214134702,0654$',
          '+ACK:GTHBD,1A0900,860599000306845,G3-313,20181214134702,0655$',
        ].map(text),
        acks: text('+SACK:GTHBD,1A0900,0653$' + sack('0654') + '+SACK:GTHBD,1A0900,0655$'),
        fixes: ['2018-12-14T13:46:03.000Z', '2018-12-14T13:46:19.000Z', '2018-12-14T13:46:33.000Z', '2018-12-14T13:46:48.000Z'],
      },
      {
        uniqueId: '867162025085234',
        frames: [
          '+RESP:GTIGF,270302,867162025085234,,3519,0,0.0,92,111.2,-116.867638,32.450321,20180327070835,0334,0020,2B24,52CC3DE,00,,243.1,20180327070837,2A98$',
          '+RESP:GTIGL,270302,867162025085234,,,01,1,1,0.0,92,111.2,-116.867638,32.450321,20180327070838,0334,0020,2B24,52CC3DE,00,243.1,20180327070839,2A9A$',
        ].map(text),
        acks: text(sack('2A98') + sack('2A9A')),
        fixes: ['2018-03-27T07:08:35.000Z', '2018-03-27T07:08:38.000Z'],
      },
      {
        uniqueId: '868589060169789',
        frames: [
          '+BUFF:GTIGN,6E0202,868589060169789,ra79,379,1,0.0,105,532.2,-70.616413,-33.393457,20240610201712,0730,0001,333A,00CFA301,01,11,,0.0,20240610201713,3AE2$',
          '+RESP:GTIGF,6E0202,868589060169789,ra79,145,1,0.0,83,532.2,-70.616413,-33.393457,20240610201937,0730,0001,333A,00CFA301,01,12,,0.0,20240610201938,3AE9$',
        ].map(text),
        acks: text(sack('3AE2') + sack('3AE9')),
        fixes: ['2024-06-10T20:17:12.000Z', '2024-06-10T20:19:37.000Z'],
      },
      {
        uniqueId: '862599050467479',
        frames: [
          text(
            '+RESP:GTCAN,F10413,862599050467479,GV350M,0,1,C18CFDFF,3BKHHZ8X7GF723380,2,H2898058,232160.50,896,0,64,L/H1.5,P99.20,0,40532.95,,,,,,,,,,,1,0.0,234,2812.2,-78.508807,-0.218812,20240226211921,,,,,,20240226211922,DE03$',
          ),
        ],
        acks: text(sack('DE03')),
        fixes: ['2024-02-26T21:19:21.000Z'],
      },
    ]);
  });

  it('JT/T 808: 2013, 2019 and hex-IMEI terminals at once; a blind-area batch, vendor 0x5501 and 0x0900, heartbeats between', async () => {
    // every terminal registers and authenticates first (the identity layer refuses data before); then
    // Jt808ProtocolDecoderTest and HuabaoProtocolDecoderTest (Traccar), xtream-codec's 2019 location; the heartbeats built after the standard
    const batch2013 =
      '7E0704014301356777777707F5000801002600000000000000030159741206CBFD5001720000000116052709062401040000001D03020000002600000000000000030159746606CBFD50016B0000000116052709065301040000001D0302000000260000000000000003015975E406CBFE58013F0000000116052709072701040000001D0302000000260000000000000003015976DE06CBFF10012E0000000116052709075601040000001D0302000000260000000000000003015976BC06CBFED0012D0000000116052709083001040000001D0302000000260000000000000003015976FE06CBFEC001080000000116052709090001040000001D0302000000260000000000000003015976FE06CBFE7800FC0000000116052709093301040000001D0302000000260000000000000003015977A606CBFF3001080000000116052709100201040000001D030200001F7E';
    const location2013 =
      '7e0200007c0191718447540dcd000000008000000b029eabc204ba78510004000000042111182321120104000017f6cc14383933303237323037303339333033383732373130011d800134810204718202008283010e84017b85021ae986012f870201788901038b114a4e31424a314352364b573333363533358c040008dcb68d02018c8e013da000c07e';
    const location2019 =
      '7e02004026010000000001391234432900000000006f0000001601dc9a0707456246007b004200032501292233440202006401040000000c417e';
    const day = (t: string) => `2016-05-27T01:${t}.000Z`;
    await replay('jt808', [
      {
        uniqueId: '013567777777',
        handshake: jt808Handshake('013567777777'),
        frames: [jt808(0x0002, '013567777777', 1), hex(batch2013), jt808(0x0002, '013567777777', 2)],
        acks: Buffer.concat([
          general('013567777777', 2, 0x0002, 1),
          general('013567777777', 3, 0x0704, 0x07f5),
          general('013567777777', 4, 0x0002, 2),
        ]),
        fixes: ['06:24', '06:53', '07:27', '07:56', '08:30', '09:00', '09:33', '10:02'].map(day),
      },
      {
        uniqueId: '019171844754',
        handshake: jt808Handshake('019171844754'),
        frames: [hex(location2013), jt808(0x0002, '019171844754', 0x0dce)],
        acks: Buffer.concat([general('019171844754', 2, 0x0200, 0x0dcd), general('019171844754', 3, 0x0002, 0x0dce)]),
        fixes: ['2021-11-18T15:21:12.000Z'],
      },
      {
        uniqueId: '013912344329',
        handshake: jt808Handshake('00000000013912344329', true),
        frames: [jt808(0x0002, '00000000013912344329', 7, '', { v2019: true }), hex(location2019)],
        acks: Buffer.concat([general('00000000013912344329', 2, 0x0002, 7, true), general('00000000013912344329', 3, 0x0200, 0, true)]),
        fixes: ['2025-01-29T14:33:44.000Z'],
      },
      {
        uniqueId: '865478070102068',
        handshake: jt808Handshake('4eb6fb4afd9e'),
        frames: [
          hex(
            '7e070401654eb6fb4afd9e485b000601003900000000000c000301f5a58700ca24c5000d0000004925111215454501040000000025040000000030011731010aeb095554432b30383a3030003900000000000c000301f5a58e00ca24cd000d0000002825111215454701040000000025040000000030011731010aeb095554432b30383a3030003900000000000c000301f5a5ad00ca24de000e0000011025111215455901040000000025040000000030011931010aeb095554432b30383a3030003900000000000c000301f5a5b100ca24ed000e0000004625111215461401040000000025040000000030011931010aeb095554432b30383a3030003900000000000c000301f5a5a900ca24f5000e000000a125111215461701040000000025040000000030011931010aeb095554432b30383a3030003900000000000c000301f5a5af00ca24fb000e000000dd25111215463201040000000025040000000030011731010beb095554432b30383a3030537e',
          ),
          jt808(0x0002, '4eb6fb4afd9e', 0x485c),
        ],
        acks: Buffer.concat([general('4eb6fb4afd9e', 2, 0x0704, 0x485b), general('4eb6fb4afd9e', 3, 0x0002, 0x485c)]),
        fixes: ['07:45:45', '07:45:47', '07:45:59', '07:46:14', '07:46:17', '07:46:32'].map((t) => `2025-11-12T${t}.000Z`),
      },
      {
        uniqueId: '856009001017',
        handshake: jt808Handshake('856009001017'),
        frames: [
          hex(
            '7e55018c418560090010174701022106242122348476113550490700001c06000000074e0000000000000308100000100102020200000a030000000b0803363839363037650c0600000001000afa7e',
          ),
          jt808(0x0002, '856009001017', 0x0101),
        ],
        acks: Buffer.concat([
          jt808(0x4401, '856009001017', 2, '550100', { shortSerial: true }),
          general('856009001017', 3, 0x0002, 0x0101),
        ]),
        fixes: ['2021-02-01T06:24:21.000Z'],
      },
      {
        uniqueId: '861652050068820',
        handshake: jt808Handshake('4e5de66fba22'),
        frames: [
          jt808(0x0002, '4e5de66fba22', 0x00c3),
          hex(
            '7e0900005a4e5de66fba2200c4f02204280610090002010d052b0150052c0400129009052d016b052e014f05300231ba053502000005360203b8053802000005390200ad053d0201ea05440150054604009899d90545040000001e000c00030160a85c06d1c1389c7e',
          ),
          jt808(0x0002, '4e5de66fba22', 0x00c5),
        ],
        acks: Buffer.concat([
          general('4e5de66fba22', 2, 0x0002, 0x00c3),
          general('4e5de66fba22', 3, 0x0900, 0x00c4),
          general('4e5de66fba22', 4, 0x0002, 0x00c5),
        ]),
        fixes: ['2022-04-27T22:10:09.000Z'],
      },
    ]);
  });

  it('Jointech: two seals (0x19, P45), a JT600 text tracker, two JT600 binary trackers with several records a frame, a WLNET sensor frame', async () => {
    // Jt600ProtocolDecoderTest (Traccar), Jointech's published P45 sample; the seals' and U reports' answers, none for the others
    await replay('jt701', [
      {
        uniqueId: '8041300978',
        frames: [
          hex(
            '2480413009781914003406102107544354193631006213423b00000000006c070000000020e064f91ea0671d00020f0f0f0f0f0f0f0f0f0f07f100ea0f6e',
          ),
        ],
        acks: text('(P69,0,110)'),
        fixes: ['2021-10-06T07:54:43.000Z'],
      },
      {
        uniqueId: '7890629284',
        frames: [text('(7890629284,@JT)'), text('(7890629284,P45,260321,185342,26.181296,N,50.329788,E,V,0.00,0,5,0,0000000000,0,0,0)')],
        acks: text('(P69,0,0)'),
        fixes: ['2021-03-26T18:53:42.000Z'],
      },
      {
        uniqueId: '3301210003',
        frames: [
          text('(3301210003,U01,040812,185302,T,22.564025,N,113.242329,E,5.21,152,9,32%,00000000000011,10133,5173,22,100,1)'),
          text('(3301210003,U06,4,250916,133207,T,7.011013,N,25.060708,W,27.61,102,10,0%,00101011000000,0,1,0,448,0,126,1,30)'),
        ],
        acks: text('(S39)(S20)'),
        fixes: ['2012-08-04T18:53:02.000Z', '2016-09-25T13:32:07.000Z'],
      },
      {
        uniqueId: '4081118888',
        frames: [
          hex(
            '2440811188882400a209060908045322564025113242329f0598000001003f0000002d0009060908050322564025113242329f0598000001003f0000002d0009060908051322564025113242329f0598000001003f0000002d0009060908052322564025113242329f0598000001003f0000002d0009060908053322564025113242329f0598000001003f0000002d0009060908054322564025113242329f0598000001003f0000002d001f',
          ),
        ],
        acks: Buffer.alloc(0),
        fixes: ['04:53', '05:03', '05:13', '05:23', '05:33', '05:43'].map((t) => `2009-06-09T08:${t}.000Z`),
      },
      {
        uniqueId: '6240901961',
        frames: [
          hex(
            '24624090196123019519071703412131285623074214252f10560000130801000076850819071703420631282832074215165f172c0000030801000076850919071703422131282792074216635f222e0000130801000076850919071703423631282808074218261f212a0000130801000076860819071703435131283678074222928f08350000930801000076860919071703440631283003074223174f19500000930801000076870819071703445131279872074224584f07380000930801000076870819071703453631280643074227091f1b220000530801000076880919071703455131281043074228216f0a260000530801000076880819071703460631281229074228988f0c260000530801000076880819071703462131281551074229954f1f220000530801000076880919071703463631281289074230503f114e0000530801000076880819071703465131281186074230884f094f0000530801000076880819071703470631280308074231240f17500000530801000076880619071703472131280358074231636f0b1d0000530801000076890821',
          ),
          hex('24624090196121001b19071703493631277203074235752f295800005308010000768b0822'),
        ],
        acks: Buffer.alloc(0),
        fixes: ['41:21', '42:06', '42:21', '42:36', '43:51', '44:06', '44:51', '46:36', '46:51', '47:06', '49:36'].map(
          (t) => `2017-07-19T03:${t}.000Z`,
        ),
      },
      {
        uniqueId: '8054201973',
        frames: [
          hex(
            '28383035343230313937332c312c3136382c574c4e45542c352c322c3d15022508595325169288057327940900003d1502250859551021220618730140644701011d4300000029',
          ),
        ],
        acks: Buffer.alloc(0),
        fixes: ['2025-02-28T08:59:53.000Z'],
      },
    ]);
  });

  it('Ruptela: six FM devices at once; identification, heartbeats, records, extended merged records, a record without a fix', async () => {
    // RuptelaProtocolDecoderTest (Traccar); identifications and heartbeats built after Ruptela's protocol document
    const records = hex('0002640113bc');
    const identified = hex('00027301cb25');
    const heartbeat = hex('00027401862d');
    await replay('ruptela', [
      {
        uniqueId: '868324021101311',
        frames: [
          hex('002e000315bc70d3e2ff0f4f42443130302e30312e30382e30300000c2b30ea77e430000601b000001f40000003c00144aa0'),
          ruptela('000315bc70d3e2ff', 16),
        ],
        acks: Buffer.concat([identified, heartbeat]),
        fixes: [],
      },
      {
        uniqueId: '868324023580306',
        frames: [
          ruptela('000315bc70f9b692', 15, '0f4f42443130302e30312e30382e3030'),
          hex(
            '01a4000315bc70f9b69244000458068f4a0030000d11398a1c0c19fd056524040b000c0a00090c0005010031f40032fd0033f200ce47002400002500001c010199000195010196010086000900aa0000001e0ff000d3ffff0043ffff01930000019200000194000002220000022300000200300000000200af000e872401008e000000000000000058068f4a0031000d11398a1c0c19fd056524040b000c0a00090400870000880000a90000820010008b0002021e0000021f0000021d0000021c0000022400000225000000890000008505f00220000002210000008300000084000002260000022700000228000003008a00000000008d00000000008c000000000058068f4a0032000d11398a1c0c19fd056524040b000c0a000905019f01005800001b1f00ad0000cfb10b02290000022a0000022b0000022c0000022d00000012000000130000001d367400c52f8000740055023e0502060097000000000096000058520041007746cb00d0000003f1005c0007c21b0072001864880058068f4a0033000d11398a1c0c19fd056524040b000c0a000900000001008e0000000000000000e815',
          ),
          ruptela('000315bc70f9b692', 16),
        ],
        acks: Buffer.concat([identified, records, heartbeat]),
        fixes: ['2016-10-18T21:08:26.000Z'],
      },
      {
        uniqueId: '863071016796572',
        frames: [
          hex(
            '0050000310f5615f419c0100015613d8ed0000fff5b37a035af37801e700000900000d07071b0c020003001c01202cad000500064302a81d33e61e100116317cd3ffff174ad60241000077fa960000f232003c2e',
          ),
        ],
        acks: records,
        fixes: ['2015-10-06T14:21:33.000Z'],
      },
      {
        uniqueId: '013227001564487',
        frames: [
          ruptela('00000c07a6bacd47', 16),
          hex(
            '009200000c07a6bacd4701000552db5cc20000187b8b251ace478e087c044c0a000009070000000052db5cfe0000187b8ab01ace47190879044c0900000b070000000052db5d3a0000187b8b251ace474b089d044c09000009070000000052db5d760000187b8b9a1ace475c08cd044c08000009070000000052db5db20000187b8b141ace46e708b3044c08000009070000000041cb',
          ),
        ],
        acks: Buffer.concat([heartbeat, records]),
        fixes: ['04:02', '05:02', '06:02', '07:02', '08:02'].map((t) => `2014-01-19T05:${t}.000Z`),
      },
      {
        uniqueId: '863591024076709',
        frames: [
          hex(
            '00560003116e7438a7a50100015565cbb9000020fd21300f113f4600005f000600090d090805011b13cf00020003001c012029ad00041d31dd1e0ebd160000c50000047200000000d0000000004100016a2a960000a5a300c9ee',
          ),
          hex(
            '00a10003116e7438a7a5010002553dddbe000020fddaff0f12289b007200000600000c070805011b18cf00020003001c01201dad01041d32d81e0d7d160000c50000047200000000d000000000410000b1ae960000a5a300553dddd4000020fdd96f0f122bfe005c16f80700050b090805011b18cf00020003001c01201ead01041d338a1e0d8d160000c50000047200000000d000000000410000b1bd960000a5a3001681',
          ),
        ],
        acks: Buffer.concat([records, records]),
        fixes: ['2015-05-27T13:50:49.000Z', '2015-04-27T06:57:02.000Z', '2015-04-27T06:57:24.000Z'],
      },
      {
        uniqueId: '865851039253869',
        frames: [
          hex(
            '03fb0003137ca79f856d01011d386d438b000080000000800000008000ffffffffffff070220211bff011d30c50000386d438b000080000000800000008000ffffffffffff0702201f1bff011d30c30000386d43a9000180000000800000008000ffffffffffffad0320211b16ad01011d30950000386d43c7000080000000800000008000ffffffffffff070220211b00011d30a60000386d4403000080000000800000008000ffffffffffff070220221b00011d30ae0000386d443f000080000000800000008000ffffffffffff070220231b00011d30ae000064c692cb000080000000800000008000ffffffffffff070220231b18011d3091000064c69306000080000000800000008000ffffffffffff070220231b14011d30a7000064c69322000180000000800000008000ffffffffffffad0320241b14ad00011d30a3000064c69342000080000000800000008000ffffffffffff070220241b13011d30ad000064c6934a000180000000800000008000ffffffffffffad0320241b10ad01011d30c3000064c6937e000080000000800000008000ffffffffffff070220241b12011d3092000064c6938b000180000000800000008000ffffffffffffad0320241b12ad00011d30bd000064c69395000180000000800000008000ffffffffffffad0320241b10ad01011d30a6000064c693ba000080000000800000008000ffffffffffff070220251b17011d30a2000064c693d4000180000000800000008000ffffffffffffad0320251b17ad00011d30cc000064c693f6000080000000800000008000ffffffffffff070220251b15011d3090000064c69404000180000000800000008000ffffffffffffad0320251b16ad01011d30a9000064c69432000080000000800000008000ffffffffffff070220261b14011d30be000064c6946d000180000000800000008000ffffffffffffad0320261b15ad00011d30b1000064c6946e000080000000800000008000ffffffffffff070220261b15011d3096000064c694aa000080000000800000008000ffffffffffff070220261b15011d30a8000064c694b2000180000000800000008000ffffffffffffad0320261b15ad01011d30a5000064c694e6000080000000800000008000ffffffffffff070220261b17011d309a000064c694f5000180000000800000008000ffffffffffffad0320261b17ad00011d309c000064c694f6000180000000800000008000ffffffffffffad0320261b17ad01011d3099000064c69522000080000000800000008000ffffffffffff070220261b14011d3094000064c6955e000080000000800000008000ffffffffffff070220261b15011d30b2000064c6959a000080000000800000008000ffffffffffff070220261b14011d30970000ad9e',
          ),
        ],
        acks: records,
        fixes: [],
        states: 1,
      },
    ]);
  });

  it('Wialon IPS: a 2.0 tracker (checksums) and a 1.1 tracker at once; logins, data, black boxes, pings, a packet without coordinates', async () => {
    // WialonProtocolDecoderTest (Traccar); the logins and the 2.0 black box with checksums computed as the document says
    const v20 = (type: string, message: string) =>
      `#${type}#${message}${crc16Arc(Buffer.from(message, 'utf8')).toString(16).toUpperCase()}\r\n`;
    await replay('wialon', [
      {
        uniqueId: '864350000005678',
        frames: [
          v20('L', '2.0;864350000005678;NA;'),
          '#SD#300924;154245;5554.350052;N;3644.670410;E;2.92;NA;NA;NA;7A01\r\n',
          '#P#\r\n',
          '#D#220323;114150;2234.80479;N;11354.87786;E;0;NA;59;11;NA;NA;NA;;NA;d_battr:1:94,d_csq:1:21,di_light:1:1;E7C9\r\n',
          v20('B', '110315;045857;5364.0167;N;06127.8262;E;0;155;965;7|110315;045858;5364.0167;N;06127.8262;E;0;155;965;7|'),
          '#D#120319;112003;NA;NA;NA;NA;0.000;NA;NA;0;NA;NA;NA;NA;NA;101_521347:1:521246,101_158:1:510,101_521055:1:510,101_521055_2.9:1:509,101_521056:1:3;626B\r\n',
          '#P#\r\n',
        ].map(text),
        acks: text('#AL#1\r\n#ASD#1\r\n#AP#\r\n#AD#1\r\n#AB#2\r\n#AD#1\r\n#AP#\r\n'),
        fixes: ['2024-09-30T15:42:45.000Z', '2023-03-22T11:41:50.000Z', '2015-03-11T04:58:57.000Z', '2015-03-11T04:58:58.000Z'],
        states: 1,
      },
      {
        uniqueId: '864350000009012',
        frames: [
          '#L#864350000009012;NA\r\n',
          '#SD#270413;205601;5544.6025;N;03739.6834;E;1;2;3;4\r\n',
          '#B#080914;073235;5027.50625;N;03026.19321;E;0.700;0.000;NA;4;NA;NA;NA;;NA;Батарея:3:100 %|080914;073420;5027.50845;N;03026.18854;E;1.996;292.540;NA;4;NA;NA;NA;;NA;Батарея:3:100 %\r\n',
          '#P#\r\n',
          '#D#151216;135910;5321.1466;N;04441.7929;E;87;156;265.000000;12;1.000000;241;NA;NA;NA;odo:2:0.000000,total_fuel:1:430087,can_fls:1:201,can_taho:1:11623,can_mileage:1:140367515\r\n',
        ].map(text),
        acks: text('#AL#1\r\n#ASD#1\r\n#AB#2\r\n#AP#\r\n#AD#1\r\n'),
        fixes: ['2013-04-27T20:56:01.000Z', '2014-09-08T07:32:35.000Z', '2014-09-08T07:34:20.000Z', '2016-12-15T13:59:10.000Z'],
      },
    ]);
  });
});
