import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Topics, type Device, type EventMessage, type Position } from '@corridor/contracts';
import type { Subscription } from '@corridor/platform';
import { build as buildIngest, type IngestService } from '@corridor/ingest';
import { build as buildOpsApi, type OpsApiService } from '@corridor/ops-api';
import { createTestAdapters, primaryKind, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import { asUser, TEST_IDENTITY_SECRET, testUsers } from '@corridor/platform/testing/identity';
import { encodeJt808, parseJt808, splitJt808Frames, type Jt808Address } from '@corridor/ingest/protocols/jt808';
import { crc16Arc } from '@corridor/ingest/protocols/wialon';
import { TestDevice } from '../../services/ingest/test/test-device';
import { metricValue } from '../../services/ingest/test/metrics';
import { eventually } from './test-stack';

/**
 * The device protocols added for the corridors' hardware, end to end on real sockets: a TCP client
 * sends real device messages (from the public sources named in each protocol's decoder test) to
 * ingest's port and gets the protocol's acknowledgements; the positions come back from the API
 * (GET /api/positions) after the bus (Kafka when the environment has it) and the store, and the
 * alarms are read from events.v1 as its consumers see them. Runs on the real parts when the
 * environment has them, else on the embedded ones.
 */
const kind = await primaryKind();

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

  const listening = new Map<string, Promise<number>>();
  /** The ephemeral port of a protocol's server, opened once for the file. */
  const portOf = (name: 'jt808' | 'ruptela' | 'jt701' | 'queclink' | 'wialon'): Promise<number> => {
    if (!listening.has(name)) listening.set(name, ingest.ports.tcp[name].listen(0, '127.0.0.1'));
    return listening.get(name)!;
  };

  async function register(uniqueId: string): Promise<Device> {
    const res = await ops.app.inject({
      method: 'POST',
      url: '/api/devices',
      headers: admin,
      payload: { name: `e2e ${uniqueId}`, uniqueId, companyId: 101 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const device = res.json<Device>();
    await eventually(`${uniqueId} in the ingest registry`, async () => ingest.registry.lookup(uniqueId));
    return device;
  }

  /** Writes `frames` one by one on a fresh connection and returns the bytes answered once `ackBytes` arrived. */
  async function exchange(port: number, frames: Buffer[], ackBytes: number): Promise<string> {
    const device = await TestDevice.open(port);
    try {
      for (const f of frames) await device.write(f, true);
      await device.waitReceived(ackBytes, 30_000);
      return device.received.toString('hex');
    } finally {
      device.close();
    }
  }

  const positionsOf = async (d: Device, from: string, to: string): Promise<Position[]> => {
    const res = await ops.app.inject({ method: 'GET', url: `/api/positions?deviceId=${d.id}&from=${from}&to=${to}`, headers: admin });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Position[]>();
  };
  /** The alarm events of a device on events.v1, once `ok` holds for them. */
  const alarmsOf = (d: Device, ok: (es: EventMessage[]) => boolean): Promise<EventMessage[]> =>
    eventually(`the alarms of ${d.uniqueId} on events.v1`, () => {
      const alarms = events.filter((e) => e.deviceId === d.id && e.type === 'alarm');
      return ok(alarms) && alarms;
    });

  /** The first `n` JT/T 808 frames a terminal received, as sent (escaping makes their lengths vary), once they all arrived. */
  const jt808Frames = (device: TestDevice, n: number): Promise<Buffer[]> =>
    eventually(`${n} JT/T 808 replies`, () => {
      const { frames } = splitJt808Frames(device.received, 4096);
      return frames.length >= n && frames.slice(0, n);
    });
  const jt808Replies = async (device: TestDevice, n: number) => (await jt808Frames(device, n)).map((f) => parseJt808(f));
  /** The codes ingest issued to JT/T 808 terminals at registration, by terminal id. */
  const jt808Codes = new Map<string, string>();
  /** 0x0102 of a terminal presenting its issued code (2013: the whole body; 2019: length-prefixed, then IMEI and version). */
  const jt808Auth = (to: Jt808Address, serial: number, code: string): Buffer =>
    encodeJt808(
      0x0102,
      to,
      serial,
      to.v2019 ? Buffer.concat([Buffer.from([code.length]), Buffer.from(code, 'latin1'), Buffer.alloc(35)]) : Buffer.from(code, 'latin1'),
    );

  it('JT/T 808: 2013 registration, authentication and location; 2019 location and batch; acks, positions and alarms', async () => {
    const port = await portOf('jt808');
    const d2013 = await register('013511221122');
    const d2019 = await register('013912344329');
    // HuabaoProtocolDecoderTest (Traccar): registration, then authentication with the code issued, then a location cut short (wrong check code, kept)
    const registration = hex(
      '7E0100002D013511221122000500000000373031303748422D52303347424400000000000000000000003233363631303402CBD5424136383630387E',
    );
    const t2013 = await TestDevice.open(port);
    try {
      await t2013.write(registration, true);
      const [reply] = await jt808Replies(t2013, 1);
      // 0x8100 to serial 5, result 0, a code of 12 characters (frames/identity.ts issues it)
      expect(reply!.header.msgId).toBe(0x8100);
      expect(reply!.body.subarray(0, 3).toString('hex')).toBe('000500');
      const code = reply!.body.subarray(3).toString('latin1');
      expect(code).toMatch(/^[A-Z2-7]{12}$/);
      jt808Codes.set('013511221122', code);
      await t2013.write(jt808Auth(reply!.header, 6, code), true);
      await t2013.write(
        hex('7E02000032013511221122000700000000000C000301578CC006CA3A5C00470000000014072317201501040000000030011631010BD07E'),
        true,
      );
      const [, auth, location] = await jt808Frames(t2013, 3);
      expect(Buffer.concat([auth!, location!]).toString('hex')).toBe(
        '7e8001000501351122112200010006010200b47e' + '7e8001000501351122112200020007020000b77e',
      );
    } finally {
      t2013.close();
    }
    // xtream-codec's JT/T 808-2019 samples: a location with alarms, then a batch of two; the terminal registers and authenticates first
    const t2019 = await TestDevice.open(port);
    const to2019: Jt808Address = { v2019: true, protocolVersion: 1, phone: hex('00000000013912344329') };
    try {
      await t2019.write(encodeJt808(0x0100, to2019, 0, Buffer.alloc(76)), true);
      const [registered] = await jt808Replies(t2019, 1);
      await t2019.write(jt808Auth(to2019, 1, registered!.body.subarray(3).toString('latin1')), true);
      await t2019.write(
        hex('7e02004026010000000001391234432900000000006f0000001601dc9a0707456246007b004200032501292233440202006401040000000c417e'),
        true,
      );
      await t2019.write(
        hex(
          '7e0704403f01000000000139123443290000000200001c000000010000000101d907f2073d336c029a00210059241029213903001c000000010000000101d907f3073d336d03090043005a241029213903f87e',
        ),
        true,
      );
      const replies = await jt808Replies(t2019, 4);
      // 0x8001 to the authentication (serial 1), the location and the batch (serial 0), result 0
      expect(replies.slice(1).map((r) => [r.header.msgId, r.body.toString('hex')])).toEqual([
        [0x8001, '0001010200'],
        [0x8001, '0000020000'],
        [0x8001, '0000070400'],
      ]);
    } finally {
      t2019.close();
    }

    const stored2013 = await eventually(`1 stored position(s) of ${d2013.uniqueId}`, async () => {
      const ps = await positionsOf(d2013, '2014-07-23T00:00:00Z', '2014-07-24T00:00:00Z');
      return ps.length === 1 && ps;
    });
    expect(stored2013[0]).toMatchObject({
      protocol: 'jt808',
      fixTime: '2014-07-23T09:20:15.000Z',
      latitude: 22.51488,
      longitude: 113.916508,
      attributes: { sat: 11, crcValid: false },
    });
    // the batch's two fixes share a time: one stored position (ids are device + fix time)
    const stored2019 = await eventually(`2 stored position(s) of ${d2019.uniqueId}`, async () => {
      const ps = await positionsOf(d2019, '2024-01-01T00:00:00Z', '2026-01-01T00:00:00Z');
      return ps.length === 2 && ps;
    });
    expect(stored2019.map((p) => [p.fixTime, p.latitude, p.attributes.alarm])).toEqual([
      ['2024-10-29T13:39:03.000Z', expect.closeTo(31.00056, 4), 'sos'],
      ['2025-01-29T14:33:44.000Z', -31.234567, 'sos,overspeed,gpsAntennaCut,fatigueDriving'],
    ]);
    const alarms = await alarmsOf(d2019, (es) => es.some((e) => e.eventTime === '2025-01-29T14:33:44.000Z'));
    expect(alarms.find((e) => e.eventTime === '2025-01-29T14:33:44.000Z')).toMatchObject({
      latitude: -31.234567,
      longitude: 121.987654,
      attributes: { alarm: expect.stringContaining('sos') },
    });
  }, 120000);

  it('JT/T 808 downlink: a command on commands.v1 reaches the connected terminal as 0x8105', async () => {
    const port = await portOf('jt808');
    const device = await TestDevice.open(port);
    try {
      // terminal 013511221122 (registered by the test above) authenticates with its code
      await device.write(jt808Auth({ v2019: false, protocolVersion: 0, phone: hex('013511221122') }, 6, jt808Codes.get('013511221122')!));
      await jt808Replies(device, 1);
      const terminal = (await ingest.registry.lookup('013511221122'))!;
      await eventually('the connection of 013511221122', () => ingest.ports.connections.get('013511221122'));
      await adapters.bus.publish(Topics.commands, [
        {
          key: String(terminal.id),
          value: {
            id: 'e2e-jt808-stop',
            deviceId: terminal.id,
            uniqueId: '013511221122',
            type: 'engineStop',
            attributes: {},
            requestedAt: new Date().toISOString(),
          },
        },
      ]);
      const [, command] = await jt808Replies(device, 2);
      expect(command).toMatchObject({ crcValid: true, header: { msgId: 0x8105, terminalId: '013511221122' } });
      expect(command!.body.toString('hex')).toBe('f0');
    } finally {
      device.close();
    }
  }, 120000);

  it('Ruptela: records and a five-record packet, each acknowledged; positions with their IO values', async () => {
    const port = await portOf('ruptela');
    const ghana = await register('863071016796572');
    const five = await register('013227001564487');
    // RuptelaProtocolDecoderTest (Traccar)
    const acks = await exchange(
      port,
      [
        hex(
          '0050000310f5615f419c0100015613d8ed0000fff5b37a035af37801e700000900000d07071b0c020003001c01202cad000500064302a81d33e61e100116317cd3ffff174ad60241000077fa960000f232003c2e',
        ),
        hex(
          '009200000c07a6bacd4701000552db5cc20000187b8b251ace478e087c044c0a000009070000000052db5cfe0000187b8ab01ace47190879044c0900000b070000000052db5d3a0000187b8b251ace474b089d044c09000009070000000052db5d760000187b8b9a1ace475c08cd044c08000009070000000052db5db20000187b8b141ace46e708b3044c08000009070000000041cb',
        ),
      ],
      12,
    );
    expect(acks).toBe('0002640113bc'.repeat(2));
    const [p] = await eventually(`1 stored position(s) of ${ghana.uniqueId}`, async () => {
      const ps = await positionsOf(ghana, '2015-10-06T00:00:00Z', '2015-10-07T00:00:00Z');
      return ps.length === 1 && ps;
    });
    expect(p).toMatchObject({
      protocol: 'ruptela',
      latitude: 5.6292216,
      longitude: -0.067495,
      attributes: { power: 13.286, battery: 4.097, odometer: 30714, operator: 62002 },
    });
    const fiveStored = await eventually(`5 stored position(s) of ${five.uniqueId}`, async () => {
      const ps = await positionsOf(five, '2014-01-19T00:00:00Z', '2014-01-20T00:00:00Z');
      return ps.length === 5 && ps;
    });
    expect(fiveStored.map((x) => x.fixTime.slice(11, 19))).toEqual(['05:04:02', '05:05:02', '05:06:02', '05:07:02', '05:08:02']);
  }, 120000);

  it('JT701 seal: a locked report, an unlocking alarm and a P45 lock event; acks, positions with the lock state, the unlock alarm', async () => {
    const port = await portOf('jt701');
    const seal = await register('8040500370');
    const other = await register('7890629284');
    // Jointech's published 0x19 report (locked), then the same report a second later with the
    // unlocking alarm in its status word (bits 5, 6, 8, 13), then Jointech's P45 sample
    const locked = hex(
      '2480405003701911003426032115595533197294020020085d0586000010e10c0000000020e043600a526d1700020f0f0f0f0f0f0f0f0f0f0eaa028f018b',
    );
    const unlocking = Buffer.from(locked);
    unlocking[15] = 0x56;
    unlocking.writeUInt16BE(0x2160, 36);
    const acks = await exchange(port, [locked, unlocking], 22);
    expect(Buffer.from(acks, 'hex').toString()).toBe('(P69,0,139)(P69,0,139)');
    const p45 = await exchange(
      port,
      [Buffer.from('(7890629284,P45,260321,185342,26.181296,N,50.329788,E,V,0.00,0,5,0,0000000000,0,0,0)')],
      9,
    );
    expect(Buffer.from(p45, 'hex').toString()).toBe('(P69,0,0)');

    const stored = await eventually(`2 stored position(s) of ${seal.uniqueId}`, async () => {
      const ps = await positionsOf(seal, '2021-03-26T15:00:00Z', '2021-03-26T17:00:00Z');
      return ps.length === 2 && ps;
    });
    expect(stored.map((p) => [p.fixTime, p.attributes.lock, p.attributes.alarm])).toEqual([
      ['2021-03-26T15:59:55.000Z', true, undefined],
      ['2021-03-26T15:59:56.000Z', false, 'unlock'],
    ]);
    expect(stored[1]!.attributes).toMatchObject({ sealEvent: 'unlocked', ropeInserted: true, mcc: 655 });
    const alarms = await alarmsOf(seal, (es) => es.length > 0);
    expect(alarms[0]).toMatchObject({ eventTime: '2021-03-26T15:59:56.000Z', attributes: { alarm: 'unlock' } });
    const [lockEvent] = await eventually(`1 stored position(s) of ${other.uniqueId}`, async () => {
      const ps = await positionsOf(other, '2021-03-26T18:00:00Z', '2021-03-26T19:00:00Z');
      return ps.length === 1 && ps;
    });
    expect(lockEvent).toMatchObject({ protocol: 'jt701', valid: false, latitude: 26.181296, attributes: { event: 5 } });
  }, 120000);

  it('Queclink @Track: GV300 fixed report, GL300 four-position report and a heartbeat; +SACK acks, positions', async () => {
    const port = await portOf('queclink');
    const gv300 = await register('862894020178276');
    const gl300 = await register('860599000306845');
    // Gl200TextProtocolDecoderTest (Traccar)
    const fri =
      '+RESP:GTFRI,060228,862894020178276,,15153,10,1,1,0.0,0,431.7,-63.169571,-17.776235,20160210153458,0736,0003,6AD4,80EF,00,34.9,00117:31:26,13442,15163,0,210101,,,,20160210113503,38EE$';
    const four =
      '+RESP:GTFRI,1A0900,860599000306845,G3-313,0,0,4,1,2.1,0,426.7,8.611466,47.681639,20181214134603,0228,0001,077F,4812,25.2,1,5.7,34,437.3,8.611600,47.681846,20181214134619,0228,0001,077F,4812,25.2,1,4.4,62,438.2,8.611893,47.681983,20181214134633,0228,0001,077F,4812,25.2,1,4.8,78,436.6,8.612236,47.682040,20181214134648,0228,0001,077F,4812,25.2,83,20181214134702,0654$';
    const heartbeat = '+ACK:GTHBD,1A0900,860599000306845,G3-313,20181214134702,0655$';
    const expected = '+SACK:38EE$+SACK:0654$+SACK:GTHBD,1A0900,0655$';
    const acks = await exchange(
      port,
      [fri, four, heartbeat].map((t) => Buffer.from(t)),
      expected.length,
    );
    expect(Buffer.from(acks, 'hex').toString()).toBe(expected);
    const [p] = await eventually(`1 stored position(s) of ${gv300.uniqueId}`, async () => {
      const ps = await positionsOf(gv300, '2016-02-10T15:00:00Z', '2016-02-10T16:00:00Z');
      return ps.length === 1 && ps;
    });
    expect(p).toMatchObject({
      protocol: 'queclink',
      latitude: -17.776235,
      longitude: -63.169571,
      attributes: { power: 15.153, odometer: 34900, ignition: true },
    });
    const track = await eventually(`4 stored position(s) of ${gl300.uniqueId}`, async () => {
      const ps = await positionsOf(gl300, '2018-12-14T13:00:00Z', '2018-12-14T14:00:00Z');
      return ps.length === 4 && ps;
    });
    expect(track.map((x) => x.fixTime.slice(11, 19))).toEqual(['13:46:03', '13:46:19', '13:46:33', '13:46:48']);
    expect(track[3]!.attributes.batteryLevel).toBe(83);
  }, 120000);

  it("Wialon IPS 2.0: login, short and extended data, a black box and a ping; the answers, positions and the driver's message", async () => {
    const port = await portOf('wialon');
    const tracker = await register('864350000001234');
    // WialonProtocolDecoderTest (Traccar): an SD and a D packet with their 2.0 checksums, a black box of two (1.1 layout)
    const crc = (message: string) => crc16Arc(Buffer.from(message, 'utf8')).toString(16).toUpperCase();
    const lines = [
      `#L#2.0;864350000001234;NA;${crc('2.0;864350000001234;NA;')}`,
      '#SD#300924;154245;5554.350052;N;3644.670410;E;2.92;NA;NA;NA;7A01',
      '#P#',
      '#D#220323;114150;2234.80479;N;11354.87786;E;0;NA;59;11;NA;NA;NA;;NA;d_battr:1:94,d_csq:1:21,di_light:1:1;E7C9',
      '#B#080914;073235;5027.50625;N;03026.19321;E;0.700;0.000;NA;4;NA;NA;NA;;NA;Батарея:3:100 %|080914;073420;5027.50845;N;03026.18854;E;1.996;292.540;NA;4;NA;NA;NA;;NA;Батарея:3:100 %',
      `#M#Arrived at Malaba;${crc('Arrived at Malaba;')}`,
    ];
    const expected = '#AL#1\r\n#ASD#1\r\n#AP#\r\n#AD#1\r\n#AB#2\r\n#AM#1\r\n';
    const acks = await exchange(
      port,
      lines.map((l) => Buffer.from(`${l}\r\n`, 'utf8')),
      expected.length,
    );
    expect(Buffer.from(acks, 'hex').toString()).toBe(expected);
    const stored = await eventually(`4 stored position(s) of ${tracker.uniqueId}`, async () => {
      const ps = await positionsOf(tracker, '2014-01-01T00:00:00Z', '2025-01-01T00:00:00Z');
      return ps.length === 4 && ps;
    });
    expect(stored.map((p) => [p.protocol, p.fixTime, p.attributes.archive ?? false])).toEqual([
      ['wialon', '2014-09-08T07:32:35.000Z', true],
      ['wialon', '2014-09-08T07:34:20.000Z', true],
      ['wialon', '2023-03-22T11:41:50.000Z', false],
      ['wialon', '2024-09-30T15:42:45.000Z', false],
    ]);
    expect(stored[2]).toMatchObject({ latitude: expect.closeTo(22.58008, 5), altitude: 59, attributes: { sat: 11, d_battr: 94 } });
    const message = await eventually("the driver's message on events.v1", () =>
      events.find((e) => e.deviceId === tracker.id && e.type === 'commandResult'),
    );
    expect(message.attributes).toMatchObject({ result: 'Arrived at Malaba' });
    // an unknown tracker is refused at login with the document's answer, and the connection closed
    expect(Buffer.from(await exchange(port, [Buffer.from('#L#2.0;864350009999999;NA;0\r\n')], 7), 'hex').toString()).toBe('#AL#0\r\n');
  }, 120000);

  it('refused message types: not acknowledged, counted per protocol and type (ingest_frames_ignored_total)', async () => {
    const ignored = (protocol: string, type: string) => metricValue('ingest_frames_ignored_total', { protocol, type });
    const [photoBefore, textBefore] = [await ignored('wialon', 'I'), await ignored('jt701', 'text')];
    // a Wialon IPS photo (refused: photo transfer is not supported) from the tracker registered by the Wialon test, after its
    // login, then a ping: only the login and the ping are answered, and #AP#, written after the photo was handled, proves
    // the refusal was counted.
    const wialon = await portOf('wialon');
    const photo = Buffer.concat([Buffer.from('#I#4;1;1;270413;205601;a.jpg;\r\n'), Buffer.from([0xff, 0xd8, 0x0d, 0x0a])]);
    const answers = await exchange(
      wialon,
      [Buffer.from('#L#864350000001234;NA\r\n'), photo, Buffer.from('#P#\r\n')],
      '#AL#1\r\n#AP#\r\n'.length,
    );
    expect(Buffer.from(answers, 'hex').toString()).toBe('#AL#1\r\n#AP#\r\n');
    expect(await ignored('wialon', 'I')).toBe(photoBefore + 1);
    // a Jointech text message of no known type from the seal registered above, then its P45 (answered)
    const jt701 = await portOf('jt701');
    const seal = [
      Buffer.from('(7890629284,2,U09,129,2,A)'),
      Buffer.from('(7890629284,P45,260321,185343,26.181296,N,50.329788,E,V,0.00,0,5,0,0000000000,0,0,1)'),
    ];
    expect(Buffer.from(await exchange(jt701, seal, '(P69,0,1)'.length), 'hex').toString()).toBe('(P69,0,1)');
    expect(await ignored('jt701', 'text')).toBe(textBefore + 1);
  }, 120000);
});
