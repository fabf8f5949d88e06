import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import type { Clock, Logger } from '@corridor/platform';
import { DecodeError } from '../protocols/protocol';
import { decodeTeltonikaUdp } from '../protocols/teltonika/index';
import { frameMetrics as m } from '../frames/frame-metrics';
import type { FrameSink, ReceivedFrame } from '../frames/received-frame';
import type { IntakeGate } from '../positions/intake-gate';

const PROTOCOL = 'teltonika';

export interface TeltonikaUdpOptions {
  handler: FrameSink;
  /** The service-wide budget of fixes waiting for the bus: a datagram that finds no room is dropped. */
  gate: IntakeGate;
  clock: Clock;
  logger: Logger;
  /** Bytes of datagrams waiting for the bus; datagrams beyond are dropped unacknowledged (the device resends). */
  maxInflightBytes: number;
  maxDatagramBytes: number;
  /** Share the port with other threads or processes (SO_REUSEPORT: the kernel spreads datagrams by sender). */
  reusePort?: boolean;
}

/**
 * Teltonika over UDP (same port number as TCP). Every datagram carries the IMEI, so there is no
 * session; its acknowledgement (`00 05 <packet id> 01 <AVL packet id> <count>`) is sent only after
 * the bus confirmed the records, as on TCP. UDP cannot push back on a sender, so when too many
 * datagrams wait for the bus new ones are dropped without an ack and counted: the device keeps the
 * records and sends them again.
 */
export class TeltonikaUdpServer {
  private readonly socket: Socket;
  private inflightBytes = 0;
  private closed = false;
  private readonly log: Logger;

  constructor(private readonly opts: TeltonikaUdpOptions) {
    this.log = opts.logger.child({ protocol: PROTOCOL, transport: 'udp' });
    this.socket = createSocket({ type: 'udp4', recvBufferSize: 4 * 1024 * 1024, ...(opts.reusePort ? { reusePort: true } : {}) });
    this.socket.on('message', (msg, rinfo) => void this.onDatagram(msg, rinfo));
    this.socket.on('error', (err) => this.log.error({ err }, 'udp port error'));
  }

  listen(port: number, host = '0.0.0.0'): Promise<number> {
    return new Promise((resolve, reject) => {
      const onError = (err: Error): void => reject(err);
      this.socket.once('error', onError);
      this.socket.bind(port, host, () => {
        this.socket.off('error', onError);
        this.log.info({ port: this.port, host }, 'device port listening');
        resolve(this.port);
      });
    });
  }

  get port(): number {
    try {
      return this.socket.address().port;
    } catch {
      return 0;
    }
  }

  get inflight(): number {
    return this.inflightBytes;
  }

  private async onDatagram(datagram: Buffer, rinfo: RemoteInfo): Promise<void> {
    if (this.closed) return;
    m.frames.inc({ protocol: PROTOCOL });
    if (this.inflightBytes + datagram.length > this.opts.maxInflightBytes) {
      m.overload.inc({ protocol: PROTOCOL });
      return;
    }
    const bytes = datagram.length > this.opts.maxDatagramBytes ? datagram.subarray(0, this.opts.maxDatagramBytes) : datagram;
    const frame: ReceivedFrame = {
      protocol: PROTOCOL,
      transport: 'udp',
      remote: `${rinfo.address}:${rinfo.port}`,
      bytes,
      receivedAt: this.opts.clock.now(),
      arrivedAt: performance.now(),
      uniqueId: undefined,
    };
    try {
      if (datagram.length > this.opts.maxDatagramBytes)
        throw new DecodeError('frame_too_large', `teltonika udp: datagram of ${datagram.length} bytes`);
      frame.result = decodeTeltonikaUdp(datagram);
      frame.uniqueId = frame.result.deviceId;
    } catch (err) {
      frame.error = err instanceof DecodeError ? err : new DecodeError('malformed', (err as Error).message);
    }
    const fixes = Math.max(1, frame.result?.positions.length ?? 0);
    if (!this.opts.gate.tryAdmit(fixes, 'udp')) {
      m.overload.inc({ protocol: PROTOCOL });
      return;
    }
    this.inflightBytes += bytes.length;
    try {
      const verdict = (await this.opts.handler.handleBatch([frame], () => !this.closed))[0]!;
      if (verdict.action === 'ack' && verdict.ack && !this.closed) {
        this.socket.send(verdict.ack, rinfo.port, rinfo.address);
        m.acks.inc({ protocol: PROTOCOL });
        m.ackLatency.observe({ protocol: PROTOCOL }, (performance.now() - frame.arrivedAt) / 1000);
      }
    } catch (err) {
      this.log.error({ err, remote: frame.remote }, 'datagram handling failed; not acknowledged');
    } finally {
      this.inflightBytes -= bytes.length;
      this.opts.gate.release(fixes);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await new Promise<void>((resolve) => this.socket.close(() => resolve()));
  }
}
