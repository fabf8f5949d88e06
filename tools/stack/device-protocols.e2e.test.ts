import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Topics, type Device, type EventMessage, type PositionMessage } from '@corridor/contracts';
import type { Subscription } from '@corridor/platform';
import { build as buildIngest, type IngestService } from '@corridor/ingest';
import { build as buildOpsApi, type OpsApiService } from '@corridor/ops-api';
import { createTestAdapters, primaryKind, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import { asUser, TEST_IDENTITY_SECRET, testUsers } from '@corridor/platform/testing/identity';
import { TestDevice } from '../../services/ingest/test/test-device';

/**
 * The device protocols added for the corridors' hardware, end to end on real sockets: a TCP client
 * sends real device messages (from the public sources named in each protocol's decoder test) to
 * ingest's port and gets the protocol's acknowledgements; the positions come back from the API
 * (GET /api/positions) after the bus (Kafka when the environment has it) and the store, and the
 * alarms are read from events.v1 as its consumers see them. Runs on the real parts when the
 * environment has them, else on the embedded ones.
 */
const kind = await primaryKind();

async function eventually<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 45000): Promise<T> {
  const end = Date.now() + ms;
  let last = await fn();
  while (!ok(last)) {
    if (Date.now() > end) throw new Error(`timed out; last value ${JSON.stringify(last).slice(0, 400)}`);
    await new Promise((r) => setTimeout(r, 200));
    last = await fn();
  }
  return last;
}

const hex = (text: string): Buffer => Buffer.from(text.replace(/\s+/g, ''), 'hex');

describe(`device protocols from TCP to the API (${kind} adapters)`, () => {
  let adapters: TestAdapters;
  let ops: OpsApiService;
  let ingest: IngestService;
  let admin: Record<string, string>;
  let eventsSub: Subscription | undefined;
  /** events.v1 as a consumer sees it. */
  const events: EventMessage[] = [];

  beforeAll(async () => {
    adapters = await createTestAdapters(kind);
    const common = { ...adapters, logger: adapters.logger, identitySecret: TEST_IDENTITY_SECRET };
    ops = await buildOpsApi(common);
    ingest = await buildIngest(common);
    await Promise.all([ops.start(), ingest.start()]);
    admin = await asUser(testUsers.admin);
    eventsSub = await adapters.bus.subscribe({
      groupId: 'device-protocols-e2e-events',
      topics: [Topics.events],
      fromBeginning: true,
      handler: async (ms) => {
        for (const m of ms) events.push(JSON.parse(m.value) as EventMessage);
      },
    });
  }, 120000);

  afterAll(async () => {
    await eventsSub?.stop();
    await ingest?.close();
    await ops?.close();
    await adapters?.close();
  });

  async function register(uniqueId: string): Promise<Device> {
    const res = await ops.app.inject({ method: 'POST', url: '/api/devices', headers: admin, payload: { name: `e2e ${uniqueId}`, uniqueId, companyId: 101 } });
    expect(res.statusCode, res.body).toBe(200);
    const device = res.json<Device>();
    await eventually(async () => ingest.registry.lookup(uniqueId), (d) => d !== undefined);
    return device;
  }

  /** Writes `frames` one by one on a fresh connection and returns the bytes answered once `ackBytes` arrived. */
  async function exchange(port: number, frames: Buffer[], ackBytes: number): Promise<string> {
    const device = await TestDevice.open(port);
    try {
      for (const f of frames) await device.write(f, 2);
      await device.waitReceived(ackBytes, 30_000);
      return device.received.toString('hex');
    } finally {
      device.close();
    }
  }

  const positionsOf = async (d: Device, from: string, to: string): Promise<PositionMessage[]> => {
    const res = await ops.app.inject({ method: 'GET', url: `/api/positions?deviceId=${d.id}&from=${from}&to=${to}`, headers: admin });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<PositionMessage[]>();
  };
  /** The alarm events of a device on events.v1, once `ok` holds for them. */
  const alarmsOf = (d: Device, ok: (es: EventMessage[]) => boolean): Promise<EventMessage[]> =>
    eventually(async () => events.filter((e) => e.deviceId === d.id && e.type === 'alarm'), ok);

  it('JT/T 808: 2013 registration, authentication and location; 2019 location and batch; acks, positions and alarms', async () => {
    const port = await ingest.ports.tcp.jt808.listen(0, '127.0.0.1');
    const d2013 = await register('013511221122');
    const d2019 = await register('013912344329');
    // HuabaoProtocolDecoderTest (Traccar): registration, authentication, a location cut short (wrong check code, kept)
    const acks2013 = await exchange(
      port,
      [
        hex('7E0100002D013511221122000500000000373031303748422D52303347424400000000000000000000003233363631303402CBD5424136383630387E'),
        hex('7E0102000E013511221122000661757468656E7469636174696F6E3F7E'),
        hex('7E02000032013511221122000700000000000C000301578CC006CA3A5C00470000000014072317201501040000000030011631010BD07E'),
      ],
      30 + 20 + 20,
    );
    expect(acks2013).toBe(
      '7e8100000f0135112211220000000500303133353131323231313232b87e' + '7e8001000501351122112200010006010200b47e' + '7e8001000501351122112200020007020000b77e',
    );
    // xtream-codec's JT/T 808-2019 samples: a location with alarms, then a batch of two
    const acks2019 = await exchange(
      port,
      [
        hex('7e02004026010000000001391234432900000000006f0000001601dc9a0707456246007b004200032501292233440202006401040000000c417e'),
        hex('7e0704403f01000000000139123443290000000200001c000000010000000101d907f2073d336c029a00210059241029213903001c000000010000000101d907f3073d336d03090043005a241029213903f87e'),
      ],
      25 * 2,
    );
    expect(acks2019).toBe('7e80014005010000000001391234432900000000020000b37e' + '7e80014005010000000001391234432900010000070400b37e');

    const stored2013 = await eventually(() => positionsOf(d2013, '2014-07-23T00:00:00Z', '2014-07-24T00:00:00Z'), (ps) => ps.length === 1);
    expect(stored2013[0]).toMatchObject({ protocol: 'jt808', fixTime: '2014-07-23T09:20:15.000Z', latitude: 22.51488, longitude: 113.916508, satellites: 11, crcValid: false });
    // the batch's two fixes share a time: one stored position (ids are device + fix time)
    const stored2019 = await eventually(() => positionsOf(d2019, '2024-01-01T00:00:00Z', '2026-01-01T00:00:00Z'), (ps) => ps.length === 2);
    expect(stored2019.map((p) => [p.fixTime, p.latitude, p.alarm])).toEqual([
      ['2024-10-29T13:39:03.000Z', expect.closeTo(31.00056, 4), 'sos'],
      ['2025-01-29T14:33:44.000Z', -31.234567, 'sos,overspeed,gpsAntennaCut,fatigueDriving'],
    ]);
    const alarms = await alarmsOf(d2019, (es) => es.some((e) => e.eventTime === '2025-01-29T14:33:44.000Z'));
    expect(alarms.find((e) => e.eventTime === '2025-01-29T14:33:44.000Z')).toMatchObject({ latitude: -31.234567, longitude: 121.987654, attributes: { alarm: expect.stringContaining('sos') } });
  }, 120000);

  it('Ruptela: records and a five-record packet, each acknowledged; positions with their IO values', async () => {
    const port = await ingest.ports.tcp.ruptela.listen(0, '127.0.0.1');
    const ghana = await register('863071016796572');
    const five = await register('013227001564487');
    // RuptelaProtocolDecoderTest (Traccar)
    const acks = await exchange(
      port,
      [
        hex('0050000310f5615f419c0100015613d8ed0000fff5b37a035af37801e700000900000d07071b0c020003001c01202cad000500064302a81d33e61e100116317cd3ffff174ad60241000077fa960000f232003c2e'),
        hex('009200000c07a6bacd4701000552db5cc20000187b8b251ace478e087c044c0a000009070000000052db5cfe0000187b8ab01ace47190879044c0900000b070000000052db5d3a0000187b8b251ace474b089d044c09000009070000000052db5d760000187b8b9a1ace475c08cd044c08000009070000000052db5db20000187b8b141ace46e708b3044c08000009070000000041cb'),
      ],
      12,
    );
    expect(acks).toBe('0002640113bc'.repeat(2));
    const [p] = await eventually(() => positionsOf(ghana, '2015-10-06T00:00:00Z', '2015-10-07T00:00:00Z'), (ps) => ps.length === 1);
    expect(p).toMatchObject({ protocol: 'ruptela', latitude: 5.6292216, longitude: -0.067495, power: 13.286, battery: 4.097, odometer: 30714, attributes: { operator: 62002 } });
    const fiveStored = await eventually(() => positionsOf(five, '2014-01-19T00:00:00Z', '2014-01-20T00:00:00Z'), (ps) => ps.length === 5);
    expect(fiveStored.map((x) => x.fixTime.slice(11, 19))).toEqual(['05:04:02', '05:05:02', '05:06:02', '05:07:02', '05:08:02']);
  }, 120000);
});
