import type { z } from 'zod';
import { BaseEnv, portVar } from '@corridor/platform';

export const GeofenceConfig = BaseEnv.extend({
  PORT: portVar(8085),
});
export type GeofenceConfig = z.infer<typeof GeofenceConfig>;
