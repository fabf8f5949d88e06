import { z } from 'zod';
import { BaseEnv, portVar } from '@corridor/platform';
import { OSMAND_PORT } from './protocols/osmand';

export const IngestConfig = BaseEnv.extend({
  PORT: portVar(8083),
  OSMAND_PORT: portVar(OSMAND_PORT),
  /** What to do with positions from unregistered devices: reject (counted) or register them as pending. */
  UNKNOWN_DEVICES: z.enum(['reject', 'pending']).default('reject'),
});
export type IngestConfig = z.infer<typeof IngestConfig>;
