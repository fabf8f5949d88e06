import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { decodeGt06, splitGt06Frames } from '@corridor/ingest/protocols/gt06';
import { afterEach, describe, expect, it } from 'vitest';
import type { Fix } from '../truck';
import { gt06Codec } from './device-codecs';
import { TcpDeviceSender } from './tcp-device-sender';

/** A GT06 server stand-in: decodes what it gets and decides per frame whether to answer. */
function gt06Server(
  answer: (kind: string, connection: number) => boolean,
): Promise<{ server: Server; port: number; kinds: string[][]; sockets: Socket[] }> {
  const kinds: string[][] = [];
  const sockets: Socket[] = [];
  const server = createServer((socket: Socket) => {
    sockets.push(socket);
    const index = kinds.push([]) - 1;
    const session = {};
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      const { frames, rest } = splitGt06Frames(Buffer.concat([pending, chunk]), 1024);
      pending = Buffer.from(rest);
      for (const f of frames) {
        const r = decodeGt06(f, session);
        kinds[index]!.push(r.kind);
        if (answer(r.kind, index)) socket.write(r.ack!);
        else socket.destroy();
      }
    });
    socket.on('error', () => undefined);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as AddressInfo).port, kinds, sockets })),
  );
}

const fix: Fix = {
  deviceId: '356000000000007',
  time: new Date(Date.UTC(2026, 0, 5)),
  lat: -1.2,
  lon: 36.8,
  speedKph: 50,
  courseDeg: 10,
  altitudeM: 0,
  accuracyM: 5,
  batteryPct: 80,
};
let server: Server | undefined;
afterEach(() => {
  server?.close();
  server = undefined;
});

describe('TcpDeviceSender', () => {
  it('logs in once, then sends each fix and resolves when it is acknowledged', async () => {
    const s = await gt06Server(() => true);
    server = s.server;
    const sender = new TcpDeviceSender({ host: '127.0.0.1', port: s.port, codec: gt06Codec(fix.deviceId) });
    expect(await sender.send(fix)).toBe(true);
    expect(await sender.send({ ...fix, time: new Date(fix.time.getTime() + 5000) })).toBe(true);
    expect(s.kinds).toEqual([['login', 'position', 'position']]);
    expect(sender.stats).toMatchObject({ sent: 2, failed: 0, reconnects: 1 });
    sender.close();
  });

  it('reconnects, logs in again and resends a fix whose ack never came, as a tracker does', async () => {
    const s = await gt06Server((kind, connection) => kind === 'login' || connection > 0);
    server = s.server;
    const sender = new TcpDeviceSender({ host: '127.0.0.1', port: s.port, codec: gt06Codec(fix.deviceId), initialBackoffMs: 10 });
    expect(await sender.send(fix)).toBe(true);
    expect(s.kinds).toEqual([
      ['login', 'position'],
      ['login', 'position'],
    ]);
    expect(sender.stats).toMatchObject({ sent: 1, retries: 1, reconnects: 2 });
    sender.close();
  });

  it('moves to its failover address when its server is gone, as a load balancer would send it to another pod', async () => {
    const first = await gt06Server(() => true);
    const second = await gt06Server(() => true);
    server = second.server;
    const sender = new TcpDeviceSender({
      host: '127.0.0.1',
      port: first.port,
      failover: [{ host: '127.0.0.1', port: second.port }],
      codec: gt06Codec(fix.deviceId),
      initialBackoffMs: 5,
    });
    expect(await sender.send(fix)).toBe(true);
    expect(sender.endpoint.port).toBe(first.port);
    // the first server dies with the tracker's connection: the next fix goes to the second
    for (const socket of first.sockets) socket.destroy();
    await new Promise<void>((r) => first.server.close(() => r()));
    expect(await sender.send({ ...fix, time: new Date(fix.time.getTime() + 5000) })).toBe(true);
    expect(sender.endpoint.port).toBe(second.port);
    expect(second.kinds).toEqual([['login', 'position']]);
    sender.close();
  });

  it('gives up after its retries and reports the reason', async () => {
    const reasons: string[] = [];
    const sender = new TcpDeviceSender({
      host: '127.0.0.1',
      port: 9,
      codec: gt06Codec(fix.deviceId),
      maxRetries: 1,
      initialBackoffMs: 5,
      onFailure: (_, r) => reasons.push(r),
    });
    expect(await sender.send(fix)).toBe(false);
    expect(reasons[0]).toMatch(/connect/);
    sender.close();
  });
});
