import { z } from 'zod';
import { BaseEnv, portVar } from '@corridor/platform';

export const GatewayConfig = BaseEnv.extend({
  PORT: portVar(8082),
  INGEST_URL: z.url().default('http://127.0.0.1:8083'),
  JOURNEY_URL: z.url().default('http://127.0.0.1:8084'),
  GEOFENCE_URL: z.url().default('http://127.0.0.1:8085'),
  OPS_API_URL: z.url().default('http://127.0.0.1:8086'),
  ADMIN_EMAIL: z.string().default('admin@corridor.local'),
  ADMIN_PASSWORD: z.string().min(8).default('corridor-admin'),
  /** How long a proxied request may take before the gateway answers 504. */
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(100).max(600000).default(30000),
});
export type GatewayConfig = z.infer<typeof GatewayConfig>;
