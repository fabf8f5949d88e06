import { createSocket } from 'node:dgram';
import { Topics } from '@corridor/contracts';
import { countPositions, MemoryBus } from '@corridor/platform';
import { createTestAdapters, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, type IngestService } from '../src/app';
import { POSITION_WRITER_GROUP } from '../src/positions/position-store';
import { histogramCount, metricValue } from './metrics';
import { hex } from './protocol-helpers';
import { gt06, ioTurn, registryEntry, TestDevice, waitFor } from './test-device';

/**
 * Acknowledge only what is durable, on the embedded bus whose outage a test can switch on
 * (`bus.available = false`): while the bus is down no ack is written, the frames' positions are
 * held and retried, the sockets stop reading once the in-flight bytes are full; when the bus is
 * back every held frame is published and acknowledged in order, and nothing is lost.
 */
const IMEI_A = '359710049011111';
const IMEI_B = '359710049022222';
const DEVICE_A = 4101;
const DEVICE_B = 4102;
const IMEI_C = '359710049033333';
const DEVICE_C = 4104;
/** Traccar's public TeltonikaProtocolDecoderTest UDP capture (codec 8, IMEI 357454072713975, packet id 0xcafe, AVL id 0x22). */
const UDP_IMEI = '357454072713975';
const UDP_DEVICE = 4103;
const UDP_DATAGRAM = hex(
  '0049cafe0122000f33353734353430373237313339373508010000015d3766f6a800003eef961ec6215e0063006d09003100070401000200f001c8000242381c18003201c7000000e10001',
);
const FRAME_BYTES = 36; // one 0x12 location packet
const PER_CONNECTION_BYTES = 5 * FRAME_BYTES;
const PER_SERVER_BYTES = 8 * FRAME_BYTES;

let adapters: TestAdapters;
let bus: MemoryBus;
let svc: IngestService;
let port: number;

beforeAll(async () => {
  adapters = await createTestAdapters('embedded');
  bus = adapters.bus as MemoryBus;
  svc = await build({
    ...adapters,
    identitySecret: 'bus-outage-test-secret-0123456789',
    settings: { MAX_BUFFERED_BYTES: PER_CONNECTION_BYTES, MAX_SERVER_BUFFERED_BYTES: PER_SERVER_BYTES },
    tuning: { retry: { initialMs: 20, maxMs: 80 } },
  });
  await svc.start();
  for (const [id, imei] of [
    [DEVICE_A, IMEI_A],
    [DEVICE_B, IMEI_B],
    [DEVICE_C, IMEI_C],
    [UDP_DEVICE, UDP_IMEI],
  ] as const)
    svc.registry.apply(registryEntry(id, imei));
  port = await svc.ports.tcp.gt06.listen(0, '127.0.0.1');
});

afterAll(async () => {
  bus.available = true;
  await svc?.close();
  await adapters?.close();
});

const t0 = Date.UTC(2025, 3, 7, 8, 0, 0);
const fixAt = (i: number): Date => new Date(t0 + i * 15_000);

/** Ack bytes a GT06 device expects for serials from..to (locations). */
const acksFor = (from: number, to: number): string =>
  Buffer.concat(Array.from({ length: to - from + 1 }, (_, i) => gt06.ack(0x12, from + i))).toString('hex');

describe('bus outage over TCP', () => {
  it('holds acks while the bus is down, pauses reading when the buffer is full, and loses nothing', async () => {
    const a = await TestDevice.open(port);
    const b = await TestDevice.open(port);
    await a.write(Buffer.concat([gt06.login(IMEI_A, 1), gt06.location(fixAt(0), -3.39, 38.55, 2)]));
    await b.write(Buffer.concat([gt06.login(IMEI_B, 1), gt06.location(fixAt(0), -6.17, 35.74, 2)]));
    await a.waitReceived(20);
    await b.waitReceived(20);
    const retriesBefore = await metricValue('ingest_publish_retries_total', { protocol: 'gt06' });
    const pausesBefore = await metricValue('ingest_backpressure_pauses_total', { protocol: 'gt06' });

    bus.available = false;
    // each device keeps reporting: 20 more fixes, one write each, as a tracker with a backlog does
    // (each in its own read: reading stops within one read of the limit)
    for (let i = 1; i <= 20; i++) {
      await a.write(gt06.location(fixAt(i), -3.39 + i / 1000, 38.55, 2 + i));
      await b.write(gt06.location(fixAt(i), -6.17 - i / 1000, 35.74, 2 + i), true);
    }
    const connections = svc.ports.tcp.gt06.connections;
    // a condition, not a duration: on a busy machine reading up to the limit can take longer than any fixed wait
    await waitFor(
      () => connections.length === 2 && connections.every((c) => c.isPaused),
      60_000,
      'both connections paused with their buffers full',
    );
    await waitFor(
      async () => (await metricValue('ingest_publish_retries_total', { protocol: 'gt06' })) > retriesBefore,
      60_000,
      'publishes retried',
    );
    expect(a.received.length).toBe(20); // login + first fix: nothing acknowledged during the outage
    expect(b.received.length).toBe(20);
    // bounded: a connection never holds much more than its limit, the server never much more than its own
    for (const c of connections) expect(c.backlog * FRAME_BYTES).toBeLessThanOrEqual(PER_CONNECTION_BYTES + FRAME_BYTES);
    expect(svc.ports.tcp.gt06.budget.bytes).toBeLessThanOrEqual(PER_SERVER_BYTES + 2 * FRAME_BYTES);
    const held = connections.map((c) => c.backlog);
    await ioTurn(); // what the devices wrote is in the sockets: a server that read would have read it now
    expect(connections.map((c) => c.backlog)).toEqual(held); // paused: nothing more is read
    expect(await metricValue('ingest_backpressure_pauses_total', { protocol: 'gt06' })).toBeGreaterThanOrEqual(pausesBefore + 2);
    const storedDuringOutage = bus.size(Topics.positions);

    const restoredAt = Date.now();
    bus.available = true;
    await a.waitReceived(20 + 20 * 10, 60_000);
    await b.waitReceived(20 + 20 * 10, 60_000);
    expect(Date.now()).toBeGreaterThanOrEqual(restoredAt);
    expect(a.received.subarray(20).toString('hex')).toBe(acksFor(3, 22));
    expect(b.received.subarray(20).toString('hex')).toBe(acksFor(3, 22));
    expect(bus.size(Topics.positions)).toBe(storedDuringOutage + 40);
    expect(svc.ports.tcp.gt06.connections.map((c) => c.isPaused)).toEqual([false, false]);

    await waitFor(() => bus.lag(POSITION_WRITER_GROUP, Topics.positions) === 0, 60_000, 'position store caught up');
    expect(await countPositions(adapters.analytics)([DEVICE_A])).toBe(21);
    expect(await countPositions(adapters.analytics)([DEVICE_B])).toBe(21);
    expect(await histogramCount('ingest_ack_latency_seconds', { protocol: 'gt06' })).toBeGreaterThanOrEqual(44); // 2 logins + 2 + 40 fixes
    a.close();
    b.close();
  }, 240_000);

  it('drops the held frames of a device that disconnects during the outage, unacknowledged', async () => {
    const device = await TestDevice.open(port);
    await device.write(gt06.login(IMEI_C, 1));
    await device.waitReceived(10);
    const retries = () => metricValue('ingest_publish_retries_total', { protocol: 'gt06' });
    const dropped = () => metricValue('ingest_positions_dropped_total', { protocol: 'gt06', reason: 'connection_closed' });
    const [retriesBefore, droppedBefore] = [await retries(), await dropped()];
    bus.available = false;
    await device.write(gt06.location(fixAt(100), -3.5, 38.6, 2));
    await waitFor(async () => (await retries()) > retriesBefore, 60_000, 'the fix held and retried');
    device.close();
    // the retry loop sees the connection gone and gives the fix up (counted) before the bus returns
    await waitFor(async () => (await dropped()) > droppedBefore, 60_000, 'the fix given up with its connection');
    bus.available = true;
    expect(device.received.length).toBe(10);
    // not retried for a connection that is gone: the device still has the fix and sends it again
    await waitFor(() => bus.lag(POSITION_WRITER_GROUP, Topics.positions) === 0, 60_000, 'position store caught up');
    expect(await countPositions(adapters.analytics)([DEVICE_C])).toBe(0);
  }, 120_000);
});

describe('bus outage over Teltonika UDP', () => {
  it('acknowledges a datagram only after the bus confirmed its records', async () => {
    const udpPort = await svc.ports.udp.listen(0, '127.0.0.1');
    const client = createSocket('udp4');
    const replies: Buffer[] = [];
    client.on('message', (m) => replies.push(m));
    await new Promise<void>((r) => client.bind(0, '127.0.0.1', () => r()));
    const before = bus.size(Topics.positions);

    const retriesBefore = await metricValue('ingest_publish_retries_total', { protocol: 'teltonika' });
    bus.available = false;
    client.send(UDP_DATAGRAM, udpPort, '127.0.0.1');
    await waitFor(
      async () => (await metricValue('ingest_publish_retries_total', { protocol: 'teltonika' })) > retriesBefore,
      60_000,
      'the datagram held and retried',
    );
    await ioTurn(); // a reply written meanwhile would have arrived
    expect(replies).toHaveLength(0);
    expect(bus.size(Topics.positions)).toBe(before);

    bus.available = true;
    await waitFor(() => replies.length === 1, 60_000, 'udp ack');
    // 00 05 <packet id cafe> 01 <AVL packet id 22> <1 record>
    expect(replies[0]!.toString('hex')).toBe('0005cafe012201');
    expect(bus.size(Topics.positions)).toBe(before + 1);

    client.send(Buffer.from('not teltonika'), udpPort, '127.0.0.1');
    await waitFor(
      async () => (await metricValue('ingest_decode_errors_total', { protocol: 'teltonika', reason: 'bad_frame' })) >= 1,
      60_000,
      'bad datagram counted',
    );
    expect(replies).toHaveLength(1);
    client.close();
  }, 180_000);
});
