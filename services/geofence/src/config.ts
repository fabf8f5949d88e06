import { z } from 'zod';
import { BaseEnv, portVar } from '@corridor/platform';

export const GeofenceConfig = BaseEnv.extend({
  PORT: portVar(8085),
  /** Prometheus metrics (GET /metrics, no authentication) listen here, on METRICS_HOST, not on PORT: reachable inside the NetworkPolicy only. */
  METRICS_PORT: portVar(9085),
  METRICS_HOST: z.string().default('0.0.0.0'),
});
export type GeofenceConfig = z.infer<typeof GeofenceConfig>;
