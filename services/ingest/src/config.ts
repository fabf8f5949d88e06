import { z } from 'zod';
import { BaseEnv, portVar } from '@corridor/platform';
import { OSMAND_PORT } from './protocols/osmand';
import { GT06_PORT } from './protocols/gt06/index';
import { TELTONIKA_PORT } from './protocols/teltonika/index';
import { H02_PORT } from './protocols/h02/index';
import { GPS103_PORT } from './protocols/gps103';
import { TK103_PORT } from './protocols/tk103';
import { MEITRACK_PORT } from './protocols/meitrack/index';
import { JT808_PORT } from './protocols/jt808/index';
import { RUPTELA_PORT } from './protocols/ruptela/index';
import { JT701_PORT } from './protocols/jt701/index';
import { QUECLINK_PORT } from './protocols/queclink/index';
import { WIALON_PORT } from './protocols/wialon/index';

const positiveInt = (fallback: number, max = Number.MAX_SAFE_INTEGER) => z.coerce.number().int().min(1).max(max).default(fallback);

/** Per protocol: `accept` keeps frames with a wrong checksum (crcValid=false, counted), `drop` refuses them (counted, not acknowledged). */
const CrcAction = z.enum(['accept', 'drop']);
/** CRC_POLICY: one action for every protocol (`accept`) or per protocol (`gt06:drop,teltonika:accept`); unnamed protocols accept. */
export const CrcPolicyVar = z
  .string()
  .default('accept')
  .transform((raw, ctx): Record<string, 'accept' | 'drop'> & { default: 'accept' | 'drop' } => {
    const policy: Record<string, 'accept' | 'drop'> & { default: 'accept' | 'drop' } = { default: 'accept' };
    for (const part of raw
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)) {
      const [left, right] = part.includes(':') ? part.split(':', 2) : ['default', part];
      const action = CrcAction.safeParse(right?.trim());
      if (!left || !/^[a-z0-9-]+$/.test(left.trim()) || !action.success) {
        ctx.addIssue({ code: 'custom', message: `"${part}": expected accept|drop or <protocol>:accept|drop` });
        return z.NEVER;
      }
      policy[left.trim()] = action.data;
    }
    return policy;
  });
export type CrcPolicy = z.output<typeof CrcPolicyVar>;

export const IngestConfig = BaseEnv.extend({
  PORT: portVar(8083),
  /** Prometheus metrics (GET /metrics, no authentication) listen here, on METRICS_HOST, not on PORT: reachable inside the NetworkPolicy only. */
  METRICS_PORT: portVar(9083),
  METRICS_HOST: z.string().default('0.0.0.0'),
  OSMAND_PORT: portVar(OSMAND_PORT),
  /** Device ports, Traccar's defaults; 0 disables that protocol's server. Teltonika listens on TCP and UDP. */
  GT06_PORT: portVar(GT06_PORT),
  TELTONIKA_PORT: portVar(TELTONIKA_PORT),
  H02_PORT: portVar(H02_PORT),
  GPS103_PORT: portVar(GPS103_PORT),
  TK103_PORT: portVar(TK103_PORT),
  MEITRACK_PORT: portVar(MEITRACK_PORT),
  JT808_PORT: portVar(JT808_PORT),
  RUPTELA_PORT: portVar(RUPTELA_PORT),
  JT701_PORT: portVar(JT701_PORT),
  QUECLINK_PORT: portVar(QUECLINK_PORT),
  WIALON_PORT: portVar(WIALON_PORT),
  /** A device connection silent for this long is closed (devices reconnect; most send a heartbeat every few minutes). */
  IDLE_TIMEOUT_S: positiveInt(600, 86_400),
  /** Open connections per protocol server; further connections are refused and counted. */
  MAX_CONNECTIONS: positiveInt(20_000),
  /** Largest frame accepted; a longer one closes the connection. */
  MAX_FRAME_BYTES: positiveInt(16 * 1024, 16 * 1024 * 1024),
  /** Bytes of frames per connection waiting for the bus; reading pauses when reached (backpressure). */
  MAX_BUFFERED_BYTES: positiveInt(64 * 1024, 64 * 1024 * 1024),
  /** Bytes of frames per server waiting for the bus; every connection pauses when reached. */
  MAX_SERVER_BUFFERED_BYTES: positiveInt(64 * 1024 * 1024, 4 * 1024 * 1024 * 1024),
  /**
   * Fixes read from devices and not yet confirmed by the bus, across every port and the HTTP APIs:
   * the limit follows the publish rate (rate × ACK_DELAY_TARGET_MS) up to this many. Past it, TCP
   * connections stop reading, HTTP answers 503 with Retry-After, UDP datagrams are dropped.
   */
  MAX_PENDING_FIXES: positiveInt(20_000, 10_000_000),
  /** The ack delay the pending limit aims at (ms). */
  ACK_DELAY_TARGET_MS: positiveInt(500, 60_000),
  /**
   * Open files kept for everything but device connections (the API and metrics listeners and
   * their clients, the stores, the logs); the rest of RLIMIT_NOFILE is the budget of device
   * connections across every port, OsmAnd included. Default: the files open at the first device
   * connection plus 10 % of the limit (at least 64).
   */
  FD_RESERVE: z.coerce.number().int().min(0).optional(),
  CRC_POLICY: CrcPolicyVar,
  /** What to do with positions from unregistered devices: reject (counted) or register them as pending. */
  UNKNOWN_DEVICES: z.enum(['reject', 'pending']).default('reject'),
  /** A connected device's frames that store nothing (heartbeats) tell the device status it is online at most this often. */
  DEVICE_SEEN_INTERVAL_S: positiveInt(60, 3600),
  /** knots: a fix without a `motion` attribute gets motion = speed above this (Traccar event.motion.speedThreshold). */
  EVENT_MOTION_SPEED_THRESHOLD: z.coerce.number().min(0).max(100).default(0.01),
  /**
   * Threads serving the device ports (each a whole ingest instance, sharing the ports through
   * SO_REUSEPORT): default the cores the process may use (os.availableParallelism(), which counts
   * a container's CPU limit). Needs the real parts (KAFKA_BROKERS, REDIS_URL, CLICKHOUSE_URL): on the
   * embedded ones ingest alone runs one thread.
   */
  INGEST_THREADS: z.coerce.number().int().min(1).max(256).optional(),
  /** A fix dated more than this ahead of the server clock is refused (counted, reason future_time): it never becomes the latest position. */
  FIX_MAX_FUTURE_SECONDS: positiveInt(600, 86_400),
  /**
   * A fix dated more than this ahead of the server clock (and within FIX_MAX_FUTURE_SECONDS) is kept
   * but marked `clockAhead` (seconds): it never becomes the device's latest position, nor its track's last fix.
   */
  FIX_FUTURE_SKEW_SECONDS: z.coerce.number().int().min(0).max(86_400).default(120),
});
export type IngestConfig = z.infer<typeof IngestConfig>;
