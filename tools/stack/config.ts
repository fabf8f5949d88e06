import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { BaseEnv, portVar } from '@corridor/platform';
import { DeviceStateEnv } from '@corridor/ops-api';

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
  INGEST_THREADS: z.coerce.number().int().min(0).max(64).default(Math.max(0, availableParallelism() - 1)),
  /** Protocols the simulated trucks speak, round-robin (osmand over HTTP, gt06 and teltonika over TCP). */
  SIM_PROTOCOLS: z.string().regex(/^(osmand|gt06|teltonika)(,(osmand|gt06|teltonika))*$/).default('osmand,gt06,teltonika'),
  SIM_TRUCKS: z.coerce.number().int().min(0).max(5000).default(24),
  SIM_INTERVAL_MS: z.coerce.number().int().min(100).default(5000),
  SIM_TIME_SCALE: z.coerce.number().positive().default(1),
  /** The demo scenario: demo accounts per role, journeys for the simulated trucks with scripted incidents, company paperwork. */
  DEMO: z.stringbool().default(true),
  /** With the demo: days of past fixes of the simulated trucks, for the corridor observatory's figures (0: none; demo/observatory-history.ts). */
  DEMO_HISTORY_DAYS: z.coerce.number().int().min(0).max(120).default(28),
  ADMIN_EMAIL: z.string().default('admin@corridor.local'),
  ADMIN_PASSWORD: z.string().min(8).default('corridor-admin'),
  /** Device status: DEVICE_STATUS_TIMEOUT_S (600: online → unknown without data), DEVICE_STATE_PERSIST_S (60). */
  ...DeviceStateEnv.shape,
});
export type StackConfig = z.infer<typeof StackConfig>;
