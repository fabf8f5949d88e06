import { Topics, type CommandMessageInput, type EventMessage, type PositionMessage } from '@corridor/contracts';
import { queryEvents, type Subscription } from '@corridor/platform';
import { createTestAdapters, primaryKind, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, type IngestService } from '../src/app';
import { queryRawFrames } from '../src/archive/raw-frames-table';
import { encodeGt06Command } from '../src/protocols/gt06/index';
import { metricValue } from './metrics';
import { hex } from './protocol-helpers';
import { CommandQueue } from '../src/commands/command-queue';
import { DEFAULT_CEILING_MS, gt06, ioTurn, registryEntry, TestDevice, waitFor } from './test-device';

/**
 * The TCP device ports end to end on real sockets (ephemeral ports): splitting, ordered acks after
 * the bus confirmed, garbage, idle timeout, login rules, CRC policy and the raw-frame archive.
 */
const GT06_IMEI = '359710049095095';
const GT06_DEVICE = 3101;
/** Teltonika captures from Traccar's public TeltonikaProtocolDecoderTest (codec 8: one record, three records, one record with a negative altitude). */
const TELTONIKA_IMEI = '356307042441013';
const TELTONIKA_DEVICE = 3102;
const COMMAND_IMEI = '359710049077777';
const COMMAND_DEVICE = 3103;
const QUEUED_IMEI = '359710049088888';
const QUEUED_DEVICE = 3104;
const CODEC8_ONE = hex(
  '000000000000004c08010000016818d500580009c28d9f1cb3757a00be00c60f0053000f06f0011503c80001011d00fc0007423799180053cdf80dce426f430f88190bb8560bb802f100005aa110002887e000010000ee8d',
);
const CODEC8_THREE = hex(
  '00000000000000da08030000017fcedf499600280431be0eded45d0038012d100000fa100901000200b300b4004501500415034702fa00054232a1180000cd3b2fce281d43001f02c700000006f10000a029000000017fcedea99600280432070eded3dd00380046130009000f0801010200b300b400450150051502470205423276180009cd3b2fce281d43001f02c700000027f10000a0290000000179d50853180027f65d3f0ed67212001500f1110061000f0801010200b300b4004501500515034702054234f4180061cd53d1ce28c043003e02c700000147f1000000290003000052cb',
);
const CODEC8_NEGATIVE_ALT = hex(
  '000000000000002b080100000140d4e3ec6e000cc661d01674a5e0fffc00000900000004020100f0000242322318000000000100007a04',
);
const teltonikaImei = (imei: string): Buffer => Buffer.concat([Buffer.from([0, imei.length]), Buffer.from(imei, 'latin1')]);

let adapters: TestAdapters;
let svc: IngestService;
let gt06Port: number;
let teltonikaPort: number;
/** Every position the intake published (resolved = the bus confirmed it), in order. */
const published: PositionMessage[] = [];
/** events.v1 as a consumer sees it. */
const events: EventMessage[] = [];
let eventsSub: Subscription | undefined;

beforeAll(async () => {
  adapters = await createTestAdapters(await primaryKind());
  svc = await build({
    ...adapters,
    identitySecret: 'tcp-ports-test-secret-0123456789',
    settings: { IDLE_TIMEOUT_S: 1 },
    tuning: { archiveFlushMs: 100 },
  });
  await Promise.all([
    svc.start(),
    adapters.bus
      .subscribe({
        groupId: 'tcp-ports-test-events',
        topics: [Topics.events],
        fromBeginning: true,
        handler: async (ms) => {
          for (const m of ms) events.push(JSON.parse(m.value) as EventMessage);
        },
      })
      .then((s) => (eventsSub = s)),
  ]);
  const accept = svc.intake.accept.bind(svc.intake);
  svc.intake.accept = async (fixes, meta) => {
    const out = await accept(fixes, meta);
    published.push(...out);
    return out;
  };
  svc.registry.apply(registryEntry(GT06_DEVICE, GT06_IMEI));
  svc.registry.apply(registryEntry(TELTONIKA_DEVICE, TELTONIKA_IMEI));
  svc.registry.apply(registryEntry(COMMAND_DEVICE, COMMAND_IMEI));
  svc.registry.apply(registryEntry(QUEUED_DEVICE, QUEUED_IMEI));
  gt06Port = await svc.ports.tcp.gt06.listen(0, '127.0.0.1');
  teltonikaPort = await svc.ports.tcp.teltonika.listen(0, '127.0.0.1');
});

afterAll(async () => {
  await eventsSub?.stop();
  await svc?.close();
  await adapters?.close();
});

const t0 = new Date(Date.UTC(2025, 2, 3, 6, 0, 0));
const at = (s: number): Date => new Date(t0.getTime() + s * 1000);
const gt06Stream = Buffer.concat([
  gt06.login(GT06_IMEI, 1),
  gt06.location(at(0), -1.2921, 36.8219, 2),
  gt06.location(at(30), -1.3001, 36.83, 3),
  gt06.location(at(60), -1.31, 36.845, 4),
]);
const gt06Acks = Buffer.concat([gt06.ack(0x01, 1), gt06.ack(0x12, 2), gt06.ack(0x12, 3), gt06.ack(0x12, 4)]);
const teltonikaStream = Buffer.concat([teltonikaImei(TELTONIKA_IMEI), CODEC8_ONE, CODEC8_NEGATIVE_ALT]);
const teltonikaAcks = hex('01' + '00000001' + '00000001');

const shape = (p: PositionMessage) => ({
  uniqueId: p.uniqueId,
  fixTime: p.fixTime,
  latitude: p.latitude,
  longitude: p.longitude,
  speed: p.speed,
  course: p.course,
});

/**
 * Sends `chunks` (a login and its frames) over `device`, or a fresh connection; returns the bytes
 * the server answered to them and the positions it published for them.
 */
async function replay(
  port: number,
  chunks: Buffer[],
  expectedAckBytes: number,
  separate = true,
  device?: TestDevice,
): Promise<{ acks: string; positions: ReturnType<typeof shape>[] }> {
  const from = published.length;
  const d = device ?? (await TestDevice.open(port));
  const seen = d.received.length;
  for (const c of chunks) await d.write(c, separate);
  await d.waitReceived(seen + expectedAckBytes);
  await ioTurn(); // anything extra would show up now
  if (!device) d.close();
  return { acks: d.received.subarray(seen).toString('hex'), positions: published.slice(from).map(shape) };
}

describe('framing over TCP', () => {
  it('GT06: the stream cut at every byte boundary, byte by byte, and in one write gives the same acks and positions', async () => {
    const whole = await replay(gt06Port, [gt06Stream], gt06Acks.length);
    expect(whole.acks).toBe(gt06Acks.toString('hex'));
    expect(whole.positions).toHaveLength(3);
    expect(whole.positions[0]).toMatchObject({ uniqueId: GT06_IMEI, fixTime: at(0).toISOString() });
    expect(whole.positions[0]!.latitude).toBeCloseTo(-1.2921, 4);
    expect(whole.positions[2]!.longitude).toBeCloseTo(36.845, 4);
    const device = await TestDevice.open(gt06Port); // a device logging in again on its connection starts over
    for (let cut = 1; cut < gt06Stream.length; cut++) {
      const split = await replay(gt06Port, [gt06Stream.subarray(0, cut), gt06Stream.subarray(cut)], gt06Acks.length, true, device);
      expect(split, `cut at byte ${cut}`).toEqual(whole);
    }
    device.close();
    const bytewise = await replay(
      gt06Port,
      [...gt06Stream].map((b) => Buffer.from([b])),
      gt06Acks.length,
      false,
    );
    expect(bytewise).toEqual(whole);
  });

  it('Teltonika: the handshake and two AVL packets cut at every byte boundary and coalesced decode the same', async () => {
    const whole = await replay(teltonikaPort, [teltonikaStream], teltonikaAcks.length);
    expect(whole.acks).toBe(teltonikaAcks.toString('hex'));
    expect(whole.positions).toHaveLength(2);
    expect(whole.positions[0]).toMatchObject({
      uniqueId: TELTONIKA_IMEI,
      fixTime: '2019-01-04T12:27:19.000Z',
      latitude: 48.1523066,
      longitude: 16.3745183,
    });
    const device = await TestDevice.open(teltonikaPort);
    for (let cut = 1; cut < teltonikaStream.length; cut++) {
      const split = await replay(
        teltonikaPort,
        [teltonikaStream.subarray(0, cut), teltonikaStream.subarray(cut)],
        teltonikaAcks.length,
        true,
        device,
      );
      expect(split, `cut at byte ${cut}`).toEqual(whole);
    }
    device.close();
  });

  it('several frames in one write are acknowledged in frame order', async () => {
    const doubled = Buffer.concat([gt06Stream, gt06.location(at(90), -1.32, 36.85, 5), gt06.location(at(120), -1.33, 36.86, 6)]);
    const out = await replay(gt06Port, [doubled], gt06Acks.length + 20);
    expect(out.acks).toBe(Buffer.concat([gt06Acks, gt06.ack(0x12, 5), gt06.ack(0x12, 6)]).toString('hex'));
    expect(out.positions.map((p) => p.fixTime)).toEqual([0, 30, 60, 90, 120].map((s) => at(s).toISOString()));
    const teltonika = await replay(teltonikaPort, [Buffer.concat([teltonikaImei(TELTONIKA_IMEI), CODEC8_THREE, CODEC8_ONE])], 9);
    expect(teltonika.acks).toBe('01' + '00000003' + '00000001');
    expect(teltonika.positions).toHaveLength(4);
  });
});

describe('text protocols on their ports', () => {
  /** One real report per protocol (Traccar's public decoder tests; the Meitrack one from this repository's decoder test). */
  const reports = [
    {
      protocol: 'gps103',
      id: '359710045559474',
      bytes: '##,imei:359710045559474,A;imei:359710045559474,tracker,151030080103,,F,000101.000,A,5443.3834,N,02512.9071,E,0.00,0;',
      ack: 'LOAD',
      fixTime: '2015-10-30T00:01:01.000Z',
    },
    {
      protocol: 'h02',
      id: '4210051415',
      bytes: '*HQ,4210051415,V1,164549,A,0956.3869,N,08406.7068,W,000.00,000,221215,FFFFFBFF,712,01,0,0,6#',
      ack: '',
      fixTime: '2015-12-22T16:45:49.000Z',
    },
    {
      protocol: 'tk103',
      id: '088047365460',
      bytes: '(088047365460BR00151024A2555.3531S02855.3329E004.7055148276.1701000000L00009AA3)',
      ack: '',
      fixTime: '2015-10-24T05:51:48.000Z',
    },
    {
      protocol: 'meitrack',
      id: '867047043162018',
      bytes:
        '$$D149,867047043162018,AAA,35,-1.264865,36.800705,211001105240,A,9,20,41.0,323,1,1697,1,0,000|00||,0000,4.33|12.96|1.92|2.72|2.69,0.000000|0|0.000000,*E1\r\n',
      ack: '',
      fixTime: '2021-10-01T10:52:40.000Z',
    },
  ] as const;

  it('GPS103, H02, TK103 and Meitrack: each report published under its protocol through its own port', async () => {
    for (const [i, r] of reports.entries()) {
      svc.registry.apply(registryEntry(3200 + i, r.id));
      const port = await svc.ports.tcp[r.protocol].listen(0, '127.0.0.1');
      const from = published.length;
      const device = await TestDevice.open(port);
      await device.write(Buffer.from(r.bytes, 'latin1'));
      await waitFor(() => published.length > from, DEFAULT_CEILING_MS, `${r.protocol} position`);
      expect(published[from]).toMatchObject({ protocol: r.protocol, uniqueId: r.id, deviceId: 3200 + i, fixTime: r.fixTime });
      if (r.ack) await device.waitReceived(r.ack.length);
      expect(device.received.toString('latin1')).toBe(r.ack);
      device.close();
    }
  });
});

describe('connection rules', () => {
  it('closes and counts a connection sending garbage while another connection keeps working', async () => {
    const good = await TestDevice.open(gt06Port);
    await good.write(gt06.login(GT06_IMEI, 1));
    await good.waitReceived(10);
    const garbageBefore = await metricValue('ingest_connections_closed_total', { protocol: 'gt06', reason: 'garbage' });
    const errorsBefore = await metricValue('ingest_decode_errors_total', { protocol: 'gt06', reason: 'bad_frame' });

    const bad = await TestDevice.open(gt06Port);
    await bad.write(Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n'));
    await bad.waitClosed();
    expect(bad.received.length).toBe(0);
    await waitFor(
      async () => (await metricValue('ingest_connections_closed_total', { protocol: 'gt06', reason: 'garbage' })) === garbageBefore + 1,
    );
    expect(await metricValue('ingest_decode_errors_total', { protocol: 'gt06', reason: 'bad_frame' })).toBe(errorsBefore + 1);

    await good.write(gt06.location(at(300), -1.4, 36.9, 2));
    await good.waitReceived(20);
    expect(good.received.subarray(10).toString('hex')).toBe(gt06.ack(0x12, 2).toString('hex'));
    expect(good.closed).toBe(false);
    good.close();
  });

  it('closes a connection idle for IDLE_TIMEOUT_S and counts it', async () => {
    const before = await metricValue('ingest_connections_closed_total', { protocol: 'gt06', reason: 'idle' });
    const device = await TestDevice.open(gt06Port);
    await device.write(gt06.login(GT06_IMEI, 1));
    await device.waitReceived(10);
    const started = Date.now();
    await device.waitClosed(4000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(800);
    await waitFor(async () => (await metricValue('ingest_connections_closed_total', { protocol: 'gt06', reason: 'idle' })) === before + 1);
  });

  it('drops and counts positions sent before login, without an ack, and keeps the connection', async () => {
    const before = await metricValue('ingest_positions_dropped_total', { protocol: 'gt06', reason: 'no_login' });
    const from = published.length;
    const device = await TestDevice.open(gt06Port);
    await device.write(gt06.location(at(400), -1.5, 36.9, 7));
    await waitFor(
      async () => (await metricValue('ingest_positions_dropped_total', { protocol: 'gt06', reason: 'no_login' })) === before + 1,
    );
    await ioTurn(); // an ack written meanwhile would have arrived
    expect(device.received.length).toBe(0);
    expect(device.closed).toBe(false);
    expect(published.length).toBe(from);
    device.close();
  });

  it('refuses an unknown device at login: no GT06 ack, Teltonika answers 00, both closed and counted', async () => {
    const gt06Before = await metricValue('ingest_unknown_device_total', { protocol: 'gt06' });
    const stranger = await TestDevice.open(gt06Port);
    await stranger.write(gt06.login('359710049000000', 1));
    await stranger.waitClosed();
    expect(stranger.received.length).toBe(0);
    expect(await metricValue('ingest_unknown_device_total', { protocol: 'gt06' })).toBe(gt06Before + 1);

    const teltonika = await TestDevice.open(teltonikaPort);
    await teltonika.write(teltonikaImei('356307040000000'));
    await teltonika.waitClosed();
    expect(teltonika.received.toString('hex')).toBe('00');
  });

  it('accepts a frame with a wrong CRC under the default policy, marks it crcValid=false and counts it', async () => {
    const before = await metricValue('ingest_crc_invalid_total', { protocol: 'gt06', action: 'accept' });
    const frame = Buffer.from(gt06.location(at(500), -1.6, 36.95, 9));
    frame.writeUInt16BE(frame.readUInt16BE(frame.length - 4) ^ 0xffff, frame.length - 4);
    const from = published.length;
    const device = await TestDevice.open(gt06Port);
    await device.write(Buffer.concat([gt06.login(GT06_IMEI, 8), frame]));
    await device.waitReceived(20);
    expect(device.received.subarray(10).toString('hex')).toBe(gt06.ack(0x12, 9).toString('hex'));
    const p = published.slice(from).find((x) => x.fixTime === at(500).toISOString());
    expect(p?.crcValid).toBe(false);
    expect(await metricValue('ingest_crc_invalid_total', { protocol: 'gt06', action: 'accept' })).toBe(before + 1);
    device.close();
  });
});

describe('raw-frame archive', () => {
  it('stores every frame (hex, protocol, device, remote address, time, outcome); the position carries its id', async () => {
    const frame = gt06.location(at(600), -1.7, 37.0, 11);
    const from = published.length;
    const before = Date.now();
    const device = await TestDevice.open(gt06Port);
    await device.write(Buffer.concat([gt06.login(GT06_IMEI, 10), frame, Buffer.from('garbage!')]));
    await device.waitClosed();
    // the frames before the garbage are still handled (published, archived) after the close
    const ofFrame = () => published.slice(from).find((p) => p.fixTime === at(600).toISOString());
    await waitFor(() => ofFrame() !== undefined, DEFAULT_CEILING_MS, 'position of the frame before the garbage');
    const position = ofFrame();
    expect(position?.rawFrameId).toMatch(/^[0-9a-f-]{36}$/);
    await svc.ports.archive.flush();
    const [row] = await queryRawFrames(adapters.analytics)({ ids: [position!.rawFrameId!] });
    expect(row).toMatchObject({
      frame_hex: frame.toString('hex'),
      protocol: 'gt06',
      transport: 'tcp',
      unique_id: GT06_IMEI,
      outcome: 'position',
      positions: 1,
      error_reason: '',
    });
    expect(Number(row!.device_id)).toBe(GT06_DEVICE);
    expect(row!.remote_address).toMatch(/^(::ffff:)?127\.0\.0\.1:\d+$/);
    expect(Date.parse(row!.received_at.replace(' ', 'T') + 'Z')).toBeGreaterThanOrEqual(before - 1000);
    const rows = await queryRawFrames(adapters.analytics)({ uniqueId: GT06_IMEI, from: new Date(before - 1000) });
    const mine = rows.filter((r) => r.remote_address === row!.remote_address);
    expect(mine.map((r) => r.outcome)).toEqual(['login', 'position', 'error']);
    expect(mine[2]).toMatchObject({ error_reason: 'bad_frame', frame_hex: Buffer.from('garbage!').toString('hex') });
  });
});

describe('downlink commands (commands.v1)', () => {
  const command = (id: string, deviceId: number, uniqueId: string): CommandMessageInput => ({
    id,
    deviceId,
    uniqueId,
    type: 'engineStop',
    attributes: {},
    requestedAt: new Date().toISOString(),
  });
  const engineStop = encodeGt06Command({ type: 'engineStop' }, {});
  const sentEvent = (id: string) => events.find((e) => e.type === 'queuedCommandSent' && e.attributes.commandId === id);
  /** The stored queuedCommandSent events of a device (ClickHouse's events, where GET /api/events and the events report read). */
  const storedSent = async (deviceId: number) =>
    (
      await queryEvents(adapters.analytics)({
        deviceIds: [deviceId],
        from: new Date(Date.now() - 3_600_000),
        to: new Date(Date.now() + 60_000),
        types: ['queuedCommandSent'],
        limit: 10,
      })
    ).map((e) => e.attributes.commandId);

  it('writes the encoded command to the connected device once, and announces queuedCommandSent', async () => {
    const device = await TestDevice.open(gt06Port);
    await device.write(gt06.login(COMMAND_IMEI, 1));
    await device.waitReceived(10);
    await waitFor(() => svc.ports.connections.get(COMMAND_IMEI) !== undefined);
    await adapters.bus.publish(Topics.commands, [
      { key: String(COMMAND_DEVICE), value: command('cmd-live-1', COMMAND_DEVICE, COMMAND_IMEI) },
    ]);
    await device.waitReceived(10 + engineStop.length, 20_000);
    expect(device.received.subarray(10).toString('hex')).toBe(engineStop.toString('hex'));
    await waitFor(() => sentEvent('cmd-live-1') !== undefined, 20_000, 'queuedCommandSent event');
    expect(sentEvent('cmd-live-1')).toMatchObject({ deviceId: COMMAND_DEVICE, attributes: { type: 'engineStop' } });
    // stored before it was published: the events API lists it (a live send's event was only published before)
    expect(await storedSent(COMMAND_DEVICE)).toEqual(['cmd-live-1']);

    // the same command id delivered again (at-least-once bus) is not sent twice
    await adapters.bus.publish(Topics.commands, [
      { key: String(COMMAND_DEVICE), value: command('cmd-live-1', COMMAND_DEVICE, COMMAND_IMEI) },
    ]);
    // a marker: another command of the device, after it on the same key; once it is written, the repeat was handled
    await adapters.bus.publish(Topics.commands, [
      { key: String(COMMAND_DEVICE), value: command('cmd-live-2', COMMAND_DEVICE, COMMAND_IMEI) },
    ]);
    await device.waitReceived(10 + 2 * engineStop.length, 20_000);
    await ioTurn();
    expect(device.received.subarray(10).toString('hex')).toBe(Buffer.concat([engineStop, engineStop]).toString('hex'));
    device.close();
  });

  it('keeps a command for a device that is not connected and sends it right after its next login', async () => {
    await adapters.bus.publish(Topics.commands, [
      { key: String(QUEUED_DEVICE), value: command('cmd-queued-1', QUEUED_DEVICE, QUEUED_IMEI) },
    ]);
    await waitFor(
      async () => (await new CommandQueue(adapters.cache).pending(QUEUED_IMEI)).length === 1,
      20_000,
      'the command consumed and queued while the device is away',
    );
    expect(sentEvent('cmd-queued-1')).toBeUndefined();
    const device = await TestDevice.open(gt06Port);
    await device.write(gt06.login(QUEUED_IMEI, 1));
    await device.waitReceived(10 + engineStop.length, 20_000);
    expect(device.received.toString('hex')).toBe(Buffer.concat([gt06.ack(0x01, 1), engineStop]).toString('hex'));
    await waitFor(() => sentEvent('cmd-queued-1') !== undefined, 20_000, 'queuedCommandSent event');
    expect(await storedSent(QUEUED_DEVICE)).toEqual(['cmd-queued-1']);
    device.close();
  });
});
