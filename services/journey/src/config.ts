import type { z } from 'zod';
import { BaseEnv, portVar } from '@corridor/platform';

export const JourneyConfig = BaseEnv.extend({
  PORT: portVar(8084),
});
export type JourneyConfig = z.infer<typeof JourneyConfig>;
