import type { Analytics, Bus, Cache, Clock, Logger } from '@corridor/platform';
import { RawFrameArchive } from './archive/raw-frame-archive';
import { ConnectionRegistry } from './commands/connection-registry';
import type { IngestConfig } from './config';
import type { DeviceRegistry } from './devices/device-registry';
import { DeviceSessions } from './devices/device-sessions';
import { AlarmIdentity } from './frames/alarm-identity';
import { FrameHandler } from './frames/frame-handler';
import { DeviceIdentity } from './frames/identity';
import { IdentityEvents } from './devices/identity-events';
import { storeAndPublish } from './events/store-and-publish';
import { DuplicateConnections } from './devices/duplicate-connections';
import { UnknownDevicePolicy } from './frames/unknown-devices';
import type { PositionIntake } from './positions/intake';
import { IntakeGate } from './positions/intake-gate';
import { ConnectionBudget } from './tcp/connection-budget';
import { DeviceTcpServer } from './tcp/tcp-server';
import { TurnScheduler } from './tcp/turn-scheduler';
import { tcpProtocols, type TcpProtocolEntry, type TcpProtocolName } from './tcp/tcp-protocols';
import { TeltonikaUdpServer } from './udp/teltonika-udp-server';

/** The settings of the device ports (IngestConfig's names). */
export type DevicePortSettings = Pick<
  IngestConfig,
  | 'IDLE_TIMEOUT_S'
  | 'MAX_CONNECTIONS'
  | 'MAX_FRAME_BYTES'
  | 'MAX_BUFFERED_BYTES'
  | 'MAX_SERVER_BUFFERED_BYTES'
  | 'CRC_POLICY'
  | 'UNKNOWN_DEVICES'
  | 'MAX_PENDING_FIXES'
  | 'ACK_DELAY_TARGET_MS'
  | 'DEVICE_SEEN_INTERVAL_S'
  | 'FD_RESERVE'
>;
export type DevicePortNumbers = Pick<IngestConfig, TcpProtocolEntry['portVar']>;

export interface DevicePortDeps {
  intake: PositionIntake;
  registry: DeviceRegistry;
  bus: Bus;
  cache: Cache;
  analytics: Analytics;
  clock: Clock;
  logger: Logger;
  settings: DevicePortSettings;
  /** Backoff while the bus is down (tests shorten it). */
  retry?: { initialMs: number; maxMs: number };
  /** Raw frame archive flush interval (tests shorten it). */
  archiveFlushMs?: number;
  /** Most frames of a connection handled as one batch (default 8, every admitted frame); 1 = one at a time (benchmarks compare). */
  batchFrames?: number;
  /** Listen with SO_REUSEPORT: several ingest threads share every device port (threads.ts). */
  reusePort?: boolean;
}

/** The pending limit never drops below this many fixes, whatever the measured publish rate. */
const MIN_PENDING_FIXES = 512;

/**
 * Every device port of ingest: one TCP server per protocol, Teltonika's UDP port, the frame
 * handler they share, the raw-frame archive and the unique id → connection map for commands.
 */
export class DevicePorts {
  readonly tcp: Record<TcpProtocolName, DeviceTcpServer>;
  readonly udp: TeltonikaUdpServer;
  readonly archive: RawFrameArchive;
  readonly connections = new ConnectionRegistry();
  /** Fixes read and not yet published, across every port and the HTTP APIs (intake-gate.ts). */
  readonly gate: IntakeGate;
  /** The slices every TCP port's batches run in, identities first (turn-scheduler.ts). */
  readonly turns: TurnScheduler;
  /** Device connections the open-file limit leaves room for, across every device port (connection-budget.ts). */
  readonly fdBudget: ConnectionBudget;
  readonly handler: FrameHandler;
  readonly unknown: UnknownDevicePolicy;
  /** Connections of identified devices, for the device status (device-status.v1). */
  readonly sessions: DeviceSessions;
  /** Who may speak for a device (protocol binding, one device per connection, JT/T 808 codes); the OsmAnd port checks with it too. */
  readonly identity: DeviceIdentity;
  private readonly reusePort: boolean;

  constructor(deps: DevicePortDeps) {
    this.reusePort = deps.reusePort ?? false;
    const s = deps.settings;
    const logger = deps.logger;
    this.fdBudget = new ConnectionBudget({
      logger: logger.child({ component: 'connection-budget' }),
      ...(s.FD_RESERVE !== undefined ? { reserve: s.FD_RESERVE } : {}),
    });
    this.gate = new IntakeGate({
      maxPending: s.MAX_PENDING_FIXES,
      minPending: Math.min(MIN_PENDING_FIXES, s.MAX_PENDING_FIXES),
      targetDelayMs: s.ACK_DELAY_TARGET_MS,
    });
    this.turns = new TurnScheduler();
    this.archive = new RawFrameArchive(deps.analytics, {
      maxFrameBytes: s.MAX_FRAME_BYTES,
      logger: logger.child({ component: 'raw-frame-archive' }),
      ...(deps.archiveFlushMs ? { flushIntervalMs: deps.archiveFlushMs } : {}),
    });
    this.unknown = new UnknownDevicePolicy({ mode: s.UNKNOWN_DEVICES, bus: deps.bus, cache: deps.cache, clock: deps.clock, logger });
    const events = new IdentityEvents({
      record: storeAndPublish({ analytics: deps.analytics, bus: deps.bus }),
      cache: deps.cache,
      clock: deps.clock,
      logger: logger.child({ component: 'device-identity' }),
    });
    this.identity = new DeviceIdentity({
      cache: deps.cache,
      registry: deps.registry,
      events,
      logger: logger.child({ component: 'device-identity' }),
    });
    this.sessions = new DeviceSessions({
      bus: deps.bus,
      clock: deps.clock,
      logger: logger.child({ component: 'device-sessions' }),
      seenIntervalMs: s.DEVICE_SEEN_INTERVAL_S * 1000,
      duplicates: new DuplicateConnections({
        cache: deps.cache,
        clock: deps.clock,
        events,
        logger: logger.child({ component: 'duplicate-connections' }),
      }),
    });
    const loginRejects = Object.fromEntries(tcpProtocols.filter((e) => e.loginReject).map((e) => [e.protocol.name, e.loginReject]));
    this.handler = new FrameHandler(
      {
        intake: deps.intake,
        registry: deps.registry,
        bus: deps.bus,
        clock: deps.clock,
        archive: this.archive,
        unknown: this.unknown,
        crcPolicy: s.CRC_POLICY,
        alarmIds: new AlarmIdentity(deps.cache, logger),
        identity: this.identity,
        logger,
        ...(deps.retry ? { retry: deps.retry } : {}),
      },
      loginRejects,
    );
    const limits = {
      idleTimeoutMs: s.IDLE_TIMEOUT_S * 1000,
      maxConnections: s.MAX_CONNECTIONS,
      maxFrameBytes: s.MAX_FRAME_BYTES,
      maxBufferedBytes: s.MAX_BUFFERED_BYTES,
      maxServerBufferedBytes: s.MAX_SERVER_BUFFERED_BYTES,
      ...(deps.batchFrames ? { maxBatchFrames: deps.batchFrames } : {}),
    };
    this.tcp = Object.fromEntries(
      tcpProtocols.map((e) => [
        e.protocol.name,
        new DeviceTcpServer({
          protocol: e.protocol,
          handler: this.handler,
          gate: this.gate,
          turns: this.turns,
          fdBudget: this.fdBudget,
          connections: this.connections,
          sessions: this.sessions,
          limits,
          clock: deps.clock,
          logger,
        }),
      ]),
    ) as Record<TcpProtocolName, DeviceTcpServer>;
    this.udp = new TeltonikaUdpServer({
      handler: this.handler,
      gate: this.gate,
      clock: deps.clock,
      logger,
      maxInflightBytes: s.MAX_SERVER_BUFFERED_BYTES,
      maxDatagramBytes: s.MAX_FRAME_BYTES,
      reusePort: this.reusePort,
    });
  }

  async start(): Promise<void> {
    this.archive.start();
  }

  /** Listens on every configured port (0 = that protocol is off); returns the ports bound. */
  async listen(ports: DevicePortNumbers, host: string): Promise<Record<string, number>> {
    const bound: Record<string, number> = {};
    for (const e of tcpProtocols) {
      const port = ports[e.portVar];
      if (port > 0)
        bound[e.protocol.name] = await this.tcp[e.protocol.name as TcpProtocolName].listen(port, host, { reusePort: this.reusePort });
    }
    if (ports.TELTONIKA_PORT > 0) bound['teltonika-udp'] = await this.udp.listen(ports.TELTONIKA_PORT, host);
    void this.fdBudget.size; // sized and logged now: the stores and every listener hold their files
    return bound;
  }

  /** Stops accepting, closes connections (unacknowledged frames stay with the devices), flushes the archive. */
  async close(): Promise<void> {
    await Promise.allSettled([...Object.values(this.tcp).map((t) => t.close()), this.udp.close()]);
    await Promise.allSettled([this.archive.close(), this.sessions.drain()]);
  }
}
