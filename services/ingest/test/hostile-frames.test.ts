import { createSocket } from 'node:dgram';
import { registry as metrics } from '@corridor/platform';
import { createTestAdapters, primaryKind, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import { eventually } from '@corridor/platform/testing/eventually';
import { recordingLogger } from '@corridor/platform/testing/log-lines';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, type IngestService } from '../src/app';
import { tcpProtocols, type TcpProtocolName } from '../src/tcp/tcp-protocols';
import { gt06, registryEntry, TestDevice } from './test-device';
import { metricValue } from './metrics';

/**
 * The hostile-input sweep of issue 23 on every device port, as a test: each TCP protocol's port gets
 * garbage, an oversized frame, a truncated frame and a frame trickled byte by byte; Teltonika's UDP
 * port garbage, truncated and oversized datagrams; the OsmAnd HTTP port garbage requests. Each
 * connection must be closed (or the datagram or request refused) within bounded time, counted
 * (ingest_connections_closed_total by reason, ingest_decode_errors_total) and logged, and a good
 * tracker still gets its acknowledgement afterwards. The frames are small (MAX_FRAME_BYTES 4096,
 * IDLE_TIMEOUT_S 1) and every protocol is swept at once, so the whole file stays within seconds.
 */
const MAX_FRAME = 4096;
const GOOD_IMEI = '359710049095095';
const PROTOCOLS = tcpProtocols.map((e) => e.protocol.name as TcpProtocolName);

/** The first bytes of a frame of each protocol (a start marker and the beginning of a header): the splitter waits for more. */
const FRAME_START: Record<TcpProtocolName, Buffer> = {
  gt06: gt06.login(GOOD_IMEI, 1).subarray(0, 6),
  teltonika: Buffer.from('000f3335', 'hex'),
  h02: Buffer.from('*HQ,3597100490', 'latin1'),
  gps103: Buffer.from('imei:3597100490', 'latin1'),
  tk103: Buffer.from('(0270282583', 'latin1'),
  meitrack: Buffer.from('$$A42,3597100490', 'latin1'),
  jt808: Buffer.from('7e0200', 'hex'),
  ruptela: Buffer.from('003a0003', 'hex'),
  jt701: Buffer.from('(3597100490', 'latin1'),
  queclink: Buffer.from('+RESP:GTFRI,', 'latin1'),
  wialon: Buffer.from('#L#3597100490', 'latin1'),
};

/** Deterministic noise (a linear congruential generator): the same garbage every run. */
function noise(length: number, seed: number): Buffer {
  const out = Buffer.alloc(length);
  let x = seed >>> 0;
  for (let i = 0; i < length; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

const { logger, lines: logLines } = recordingLogger();
let adapters: TestAdapters;
let svc: IngestService;
const ports = {} as Record<TcpProtocolName, number>;
let udpPort: number;

beforeAll(async () => {
  adapters = await createTestAdapters(await primaryKind());
  svc = await build({
    ...adapters,
    logger,
    identitySecret: 'hostile-frames-test-secret-0123456789',
    settings: { IDLE_TIMEOUT_S: 1, MAX_FRAME_BYTES: MAX_FRAME },
  });
  await svc.start();
  svc.registry.apply(registryEntry(3901, GOOD_IMEI));
  for (const p of PROTOCOLS) ports[p] = await svc.ports.tcp[p].listen(0, '127.0.0.1');
  udpPort = await svc.ports.udp.listen(0, '127.0.0.1');
}, 120_000);

afterAll(async () => {
  await svc?.close();
  await adapters?.close();
});

const closedCount = async (protocol: string, reason: string) => metricValue('ingest_connections_closed_total', { protocol, reason });

/** Opens a connection per protocol, lets `send` feed it, and expects each closed for `reason`, counted and logged. */
async function sweep(
  kind: string,
  reason: (p: TcpProtocolName) => string,
  send: (d: TestDevice, p: TcpProtocolName) => Promise<void>,
): Promise<void> {
  const before = Object.fromEntries(await Promise.all(PROTOCOLS.map(async (p) => [p, await closedCount(p, reason(p))] as const)));
  const logsBefore = logLines.length;
  await Promise.all(
    PROTOCOLS.map(async (p) => {
      const d = await TestDevice.open(ports[p]);
      await send(d, p).catch(() => undefined); // a write into a connection the server closed fails: that is the point
      await d.waitClosed();
    }),
  );
  for (const p of PROTOCOLS) {
    await eventually(`${kind} on ${p}: closed as ${reason(p)}`, async () => (await closedCount(p, reason(p))) === before[p]! + 1);
    const logged = logLines.slice(logsBefore).filter((l) => l.protocol === p && l.level >= 30 && /clos/i.test(l.msg));
    expect(logged.length, `${kind} on ${p}: a log line`).toBeGreaterThan(0);
  }
}

describe('hostile frames on every TCP device port', () => {
  it('closes a connection sending garbage, as garbage', async () => {
    await sweep(
      'garbage',
      () => 'garbage',
      (d, p) => d.write(Buffer.concat([Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n'), noise(3000, p.length)])),
    );
  });

  it('closes a connection whose frame outgrows MAX_FRAME_BYTES, as garbage, without buffering it', async () => {
    // a frame's start, then twice the largest frame without anything that ends it
    await sweep(
      'oversized',
      () => 'garbage',
      (d, p) => d.write(Buffer.concat([FRAME_START[p], Buffer.alloc(MAX_FRAME * 2, 0x41)])),
    );
  });

  it('closes a connection that leaves a frame unfinished, after IDLE_TIMEOUT_S', async () => {
    await sweep(
      'truncated',
      () => 'truncated',
      (d, p) => d.write(FRAME_START[p]),
    );
  });

  it('closes a connection that trickles a frame slower than IDLE_TIMEOUT_S allows a whole frame', async () => {
    // one byte per 100 ms keeps the idle timer from firing: the frame's own deadline must end it
    await sweep(
      'slow',
      () => 'slow_frame',
      async (d, p) => {
        const bytes = Buffer.concat([FRAME_START[p], Buffer.alloc(200, 0x30)]);
        for (let i = 0; i < bytes.length && !d.closed; i++) {
          await d.write(bytes.subarray(i, i + 1));
          await new Promise((r) => setTimeout(r, 100)); // the trickle's pace is the scenario itself
        }
      },
    );
  });
});

describe('hostile datagrams on the Teltonika UDP port', () => {
  it('counts garbage, truncated and oversized datagrams as decode errors and answers none of them', async () => {
    const before = await metricValue('ingest_frames_total', { protocol: 'teltonika' });
    const errorsBefore = await Promise.all(
      ['malformed', 'frame_too_large', 'bad_frame', 'truncated'].map((r) =>
        metricValue('ingest_decode_errors_total', { protocol: 'teltonika', reason: r }),
      ),
    );
    const udp = createSocket('udp4');
    const answers: Buffer[] = [];
    udp.on('message', (m) => answers.push(m));
    const send = (b: Buffer) =>
      new Promise<void>((resolve, reject) => udp.send(b, udpPort, '127.0.0.1', (err) => (err ? reject(err) : resolve())));
    try {
      await send(noise(512, 7));
      await send(Buffer.from('0011cafe', 'hex')); // a header promising more than it carries
      await send(Buffer.alloc(60_000, 0x41));
      await eventually(
        'three datagrams read',
        async () => (await metricValue('ingest_frames_total', { protocol: 'teltonika' })) >= before + 3,
      );
      const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
      await eventually('three decode errors counted', async () => {
        const errors = await Promise.all(
          ['malformed', 'frame_too_large', 'bad_frame', 'truncated'].map((r) =>
            metricValue('ingest_decode_errors_total', { protocol: 'teltonika', reason: r }),
          ),
        );
        return sum(errors) - sum(errorsBefore) === 3;
      });
      expect(answers).toEqual([]);
    } finally {
      udp.close();
    }
  });
});

describe('hostile requests on the OsmAnd HTTP port', () => {
  it('answers 400 to garbage queries and bodies, 414 or 431 to a huge URL, and keeps serving', async () => {
    const osmand = svc.osmand;
    expect((await osmand.inject({ method: 'GET', url: '/?id=&lat=north&lon=%ff%fe' })).statusCode).toBe(400);
    expect(
      (await osmand.inject({ method: 'POST', url: '/', headers: { 'content-type': 'application/json' }, payload: '{"location": [' }))
        .statusCode,
    ).toBe(400);
    expect(
      (await osmand.inject({ method: 'POST', url: '/', headers: { 'content-type': 'application/json' }, payload: noise(2048, 3) }))
        .statusCode,
    ).toBe(400);
    const huge = await osmand.inject({ method: 'GET', url: `/?id=${'9'.repeat(200_000)}&lat=1&lon=1` });
    expect([400, 414, 431]).toContain(huge.statusCode);
  });
});

describe('after the sweep', () => {
  it('a good tracker still logs in and is acknowledged, and the service reports healthy', async () => {
    const d = await TestDevice.open(ports.gt06);
    await d.write(gt06.login(GOOD_IMEI, 1));
    await d.waitReceived(10);
    d.close();
    expect((await svc.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect(metrics.getSingleMetric('ingest_connections_closed_total')).toBeDefined();
  });
});
