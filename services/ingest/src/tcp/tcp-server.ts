import { createServer, type AddressInfo, type Server } from 'node:net';
import type { Clock, Logger } from '@corridor/platform';
import type { Protocol } from '../protocols/protocol';
import type { ConnectionRegistry } from '../commands/connection-registry';
import type { DeviceSessions } from '../devices/device-sessions';
import { frameMetrics as m } from '../frames/frame-metrics';
import type { FrameSink } from '../frames/received-frame';
import type { IntakeGate } from '../positions/intake-gate';
import { DeviceConnection, type ConnectionLimits } from './connection';
import type { ConnectionBudget } from './connection-budget';
import { InflightBudget } from './inflight-budget';
import { TurnScheduler } from './turn-scheduler';

export interface TcpServerLimits extends ConnectionLimits {
  maxConnections: number;
  /** Bytes of frames the whole server holds while they wait for the bus. */
  maxServerBufferedBytes: number;
}

export interface DeviceTcpServerOptions {
  protocol: Protocol;
  handler: FrameSink;
  gate: IntakeGate;
  /** The slices the connections' batches run in (one per ingest instance, shared by its ports; default: this port's own). */
  turns?: TurnScheduler;
  /** The process's device-connection budget from its open-file limit (shared by every device port). */
  fdBudget: ConnectionBudget;
  connections: ConnectionRegistry;
  sessions?: DeviceSessions;
  limits: TcpServerLimits;
  clock: Clock;
  logger: Logger;
}

/** One protocol's device port: a net.Server whose sockets become DeviceConnections. */
export class DeviceTcpServer {
  readonly protocol: Protocol;
  readonly budget: InflightBudget;
  readonly turns: TurnScheduler;
  private readonly server: Server;
  private readonly open = new Set<DeviceConnection>();
  private readonly log: Logger;

  constructor(private readonly opts: DeviceTcpServerOptions) {
    this.protocol = opts.protocol;
    this.budget = new InflightBudget(opts.limits.maxServerBufferedBytes);
    this.turns = opts.turns ?? new TurnScheduler();
    this.log = opts.logger.child({ protocol: opts.protocol.name, transport: 'tcp' });
    this.server = createServer({ pauseOnConnect: false, noDelay: true }, (socket) => {
      if (!opts.fdBudget.take(opts.protocol.name)) {
        socket.destroy(); // closed at accept: the process keeps files for its API and stores
        return;
      }
      const connection = new DeviceConnection(socket, {
        protocol: opts.protocol,
        handler: opts.handler,
        budget: this.budget,
        gate: opts.gate,
        turns: this.turns,
        connections: opts.connections,
        ...(opts.sessions ? { sessions: opts.sessions } : {}),
        limits: opts.limits,
        clock: opts.clock,
        logger: this.log,
        onClosed: (c) => {
          this.open.delete(c);
          opts.fdBudget.release();
        },
      });
      this.open.add(connection);
    });
    this.server.maxConnections = opts.limits.maxConnections;
    this.server.on('drop', () => m.connectionsRefused.inc({ protocol: opts.protocol.name, reason: 'max_connections' }));
    this.server.on('error', (err) => this.log.error({ err }, 'device port error'));
  }

  /**
   * Listens; port 0 picks a free port. Resolves with the bound port. With `reusePort` several
   * threads or processes listen on the same port and the kernel spreads connections among them
   * (SO_REUSEPORT, Linux).
   */
  listen(port: number, host = '0.0.0.0', opts: { reusePort?: boolean } = {}): Promise<number> {
    return new Promise((resolve, reject) => {
      const onError = (err: Error): void => reject(err);
      this.server.once('error', onError);
      this.server.listen({ port, host, backlog: 4096, ...(opts.reusePort ? { reusePort: true } : {}) }, () => {
        this.server.off('error', onError);
        this.log.info({ port: this.port, host }, 'device port listening');
        resolve(this.port);
      });
    });
  }

  get port(): number {
    return (this.server.address() as AddressInfo | null)?.port ?? 0;
  }

  get listening(): boolean {
    return this.server.listening;
  }

  get connectionCount(): number {
    return this.open.size;
  }

  /** Connections in the order they were accepted (tests and benchmarks look at them). */
  get connections(): DeviceConnection[] {
    return [...this.open];
  }

  /** Stops accepting and closes every connection (unacknowledged frames stay with the devices). */
  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => (this.server.listening ? this.server.close(() => resolve()) : resolve()));
    for (const c of this.open) c.close('shutdown');
    await closed;
  }
}
