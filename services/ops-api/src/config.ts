import type { z } from 'zod';
import { BaseEnv, portVar } from '@corridor/platform';

export const OpsApiConfig = BaseEnv.extend({
  PORT: portVar(8086),
});
export type OpsApiConfig = z.infer<typeof OpsApiConfig>;
