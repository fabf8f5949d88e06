import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { BaseEnv, portVar } from '@corridor/platform';
import { DeviceStateEnv } from '@corridor/ops-api';
import { DEMO_SIGNAL_LOSS_MINUTES } from './demo/routes';

/** The one-process stack: every service on its usual port, embedded parts unless URLs are set. */
export const StackConfig = BaseEnv.extend({
  HOST: z.string().default('127.0.0.1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('warn'),
  GATEWAY_PORT: portVar(8082),
  INGEST_PORT: portVar(8083),
  JOURNEY_PORT: portVar(8084),
  GEOFENCE_PORT: portVar(8085),
  OPS_API_PORT: portVar(8086),
  OSMAND_PORT: portVar(5055),
  GT06_PORT: portVar(5023),
  TELTONIKA_PORT: portVar(5027),
  H02_PORT: portVar(5013),
  GPS103_PORT: portVar(5001),
  TK103_PORT: portVar(5002),
  MEITRACK_PORT: portVar(5020),
  JT808_PORT: portVar(5015),
  RUPTELA_PORT: portVar(5046),
  JT701_PORT: portVar(5014),
  QUECLINK_PORT: portVar(5004),
  WIALON_PORT: portVar(5039),
  /**
   * Worker threads serving ingest's device ports (decoding, identification, intake), beside this
   * thread's services and stores: default one per core beyond the first. 0 = everything on one
   * thread. Device ports set to 0 (any free port) keep ingest's ports on this thread.
   */
  INGEST_THREADS: z.coerce
    .number()
    .int()
    .min(0)
    .max(64)
    .default(Math.max(0, availableParallelism() - 1)),
  /**
   * What an ingest thread's ack waits for on the embedded bus and cache: `posted` (default), its
   * publishes posted to this thread's bus within a window and its per-fix cache keys mirrored in
   * the thread, so the ack never waits for this thread's event loop; `confirmed`, every read and
   * publish answered by this thread (the bridge of before, for `pnpm bench traccar`'s comparison).
   */
  INGEST_THREAD_ACK: z.enum(['posted', 'confirmed']).default('posted'),
  /** Protocols the simulated trucks speak, round-robin (osmand over HTTP, gt06 and teltonika over TCP). */
  SIM_PROTOCOLS: z
    .string()
    .regex(/^(osmand|gt06|teltonika)(,(osmand|gt06|teltonika))*$/)
    .default('osmand,gt06,teltonika'),
  SIM_TRUCKS: z.coerce.number().int().min(0).max(5000).default(24),
  SIM_INTERVAL_MS: z.coerce.number().int().min(100).default(5000),
  SIM_TIME_SCALE: z.coerce.number().positive().default(1),
  /** The demo scenario: demo accounts per role, journeys for the simulated trucks with scripted incidents, company paperwork. */
  DEMO: z.stringbool().default(true),
  /** With the demo: days of past fixes of the simulated trucks, for the corridor observatory's figures (0: none; demo/observatory-history.ts). */
  DEMO_HISTORY_DAYS: z.coerce.number().int().min(0).max(120).default(28),
  ADMIN_EMAIL: z.string().default('admin@corridor.local'),
  ADMIN_PASSWORD: z.string().min(8).default('corridor-admin'),
  /** Device status: DEVICE_STATUS_TIMEOUT_S (online → unknown without data; statusTimeoutS), DEVICE_STATE_PERSIST_S (60). */
  ...DeviceStateEnv.shape,
  DEVICE_STATUS_TIMEOUT_S: DeviceStateEnv.shape.DEVICE_STATUS_TIMEOUT_S.unwrap().optional(),
});
export type StackConfig = z.infer<typeof StackConfig>;

/**
 * How long an online device may stay silent before its status is unknown: DEVICE_STATUS_TIMEOUT_S
 * when set; else, with the demo, its routes' signal-loss threshold (a silent demo truck turns
 * unknown on the map as its signal-loss flag opens, not 9 minutes later); else the service's
 * default (600 s, Traccar's status.timeout, equal to the journey service's default signal loss of
 * 10 minutes). docs/design-changes.md, "A silent truck".
 */
export function statusTimeoutS(config: Pick<StackConfig, 'DEVICE_STATUS_TIMEOUT_S' | 'DEMO'>): number {
  return config.DEVICE_STATUS_TIMEOUT_S ?? (config.DEMO ? DEMO_SIGNAL_LOSS_MINUTES * 60 : DeviceStateEnv.parse({}).DEVICE_STATUS_TIMEOUT_S);
}
