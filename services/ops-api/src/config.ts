import { z } from 'zod';
import { BaseEnv, portVar } from '@corridor/platform';

export const OpsApiConfig = BaseEnv.extend({
  PORT: portVar(8086),
  // documents: size limit, virus-scan command (file on stdin; exit 0 clean, 1 infected), S3-compatible storage when S3_BUCKET is set
  DOCUMENTS_MAX_BYTES: z.coerce.number().int().min(1024).max(512 * 1024 * 1024).default(10 * 1024 * 1024),
  DOCUMENTS_SCAN_COMMAND: z.string().optional(),
  S3_BUCKET: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'an S3 bucket name').optional(),
  S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).default('true').transform((v) => v === 'true'),
  S3_PREFIX: z.string().default(''),
});
export type OpsApiConfig = z.infer<typeof OpsApiConfig>;
