import { z } from 'zod';
import { BaseEnv, portVar } from '@corridor/platform';

export const JourneyConfig = BaseEnv.extend({
  PORT: portVar(8084),
  /** Prometheus metrics (GET /metrics, no authentication) listen here, on METRICS_HOST, not on PORT: reachable inside the NetworkPolicy only. */
  METRICS_PORT: portVar(9084),
  METRICS_HOST: z.string().default('0.0.0.0'),
  /** Seconds between signal-loss sweeps over active journeys; 0 turns the timer off. */
  JOURNEY_SWEEP_INTERVAL_S: z.coerce.number().min(0).max(3600).default(30),
  /** Minutes before its planned departure from which a planned journey takes a device's fixes. */
  JOURNEY_EARLY_START_MINUTES: z.coerce
    .number()
    .min(0)
    .max(7 * 24 * 60)
    .default(120),
  /** Load the corridor routes at start when the routes table is empty. */
  JOURNEY_SEED_ROUTES: z.stringbool().default(true),
});
export type JourneyConfig = z.infer<typeof JourneyConfig>;
