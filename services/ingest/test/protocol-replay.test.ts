import { parsePositionId, type PositionMessage } from '@corridor/contracts';
import { createTestAdapters, primaryKind, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, type IngestService } from '../src/app';
import { crc16Arc } from '../src/protocols/wialon/index';
import type { TcpProtocolName } from '../src/tcp/tcp-protocols';
import { registryEntry, TestDevice } from './test-device';

/**
 * A replay per protocol of a mixed capture stream through its TCP port: several devices (models) at
 * once, each on its own connection, their reports interleaved with heartbeats and batches, as real
 * messages (sources named per stream). Every connection gets exactly the acknowledgements its device
 * expects, in order; every fix is published once (positions.v1 ids are device + fix second: the
 * list of ids equals the expected one, without repeats); state records are kept as such. The
 * bus-confirmed publishes are recorded by wrapping the intake, and each stream ends with an
 * acknowledged frame: its ack is written only after everything before it was published.
 */
interface DeviceStream {
  uniqueId: string;
  frames: Buffer[];
  /** The bytes the device must get back, in order. */
  acks: Buffer;
  /** The fix times (ISO) that must be published, once each. */
  fixes: string[];
  /** How many state records (reports without a fix) must be published. */
  states?: number;
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
  try {
    const longest = Math.max(...streams.map((s) => s.frames.length));
    for (let i = 0; i < longest; i++) {
      await Promise.all(streams.map((s, d) => (s.frames[i] ? devices[d]!.write(s.frames[i]!) : undefined)));
    }
    await Promise.all(streams.map((s, d) => devices[d]!.waitReceived(s.acks.length)));
  } finally {
    for (const d of devices) d.close();
  }
  streams.forEach((s, d) => expect(devices[d]!.received.toString('latin1'), `acks of ${s.uniqueId}`).toBe(s.acks.toString('latin1')));
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
        frames: [text('+RESP:GTCAN,F10413,862599050467479,GV350M,0,1,C18CFDFF,3BKHHZ8X7GF723380,2,H2898058,232160.50,896,0,64,L/H1.5,P99.20,0,40532.95,,,,,,,,,,,1,0.0,234,2812.2,-78.508807,-0.218812,20240226211921,,,,,,20240226211922,DE03$')],
        acks: text(sack('DE03')),
        fixes: ['2024-02-26T21:19:21.000Z'],
      },
    ]);
  });

  it('Wialon IPS: a 2.0 tracker (checksums) and a 1.1 tracker at once; logins, data, black boxes, pings, a packet without coordinates', async () => {
    // WialonProtocolDecoderTest (Traccar); the logins and the 2.0 black box with checksums computed as the document says
    const v20 = (type: string, message: string) => `#${type}#${message}${crc16Arc(Buffer.from(message, 'utf8')).toString(16).toUpperCase()}\r\n`;
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

