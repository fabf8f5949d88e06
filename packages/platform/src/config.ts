import { z } from 'zod';

/** Environment shared by every service. No URL set = the embedded default for that part. */
export const BaseEnv = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('.data'),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  KAFKA_BROKERS: z
    .string()
    .regex(/^[^,\s]+:\d+(,[^,\s]+:\d+)*$/, 'comma-separated host:port list')
    .optional(),
  KAFKA_CLIENT_ID: z.string().default('corridor'),
  /** A consumer group this many messages behind on a topic makes its service not ready (/readyz). */
  CONSUMER_MAX_READY_LAG: z.coerce.number().int().min(1).default(100_000),
  CLICKHOUSE_URL: z.url({ protocol: /^https?$/ }).optional(),
  CLICKHOUSE_USER: z.string().default('default'),
  CLICKHOUSE_PASSWORD: z.string().default(''),
  CLICKHOUSE_DATABASE: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/).default('corridor'),
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  INTERNAL_TOKEN_SECRET: z.string().min(16).default('corridor-dev-internal-secret-change-me'),
});
export type BaseEnv = z.infer<typeof BaseEnv>;

export class ConfigError extends Error {
  constructor(readonly problems: { variable: string; message: string }[]) {
    super('Invalid configuration:\n' + problems.map((p) => `  - ${p.variable}: ${p.message}`).join('\n'));
    this.name = 'ConfigError';
  }
}

/** Parses the environment once at boot; names every bad variable; the result is frozen. */
export function parseConfig<S extends z.ZodType>(schema: S, env: Record<string, string | undefined> = process.env): Readonly<z.infer<S>> {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((i) => ({ variable: i.path.join('.') || '(env)', message: i.message })),
    );
  }
  return Object.freeze(result.data) as Readonly<z.infer<S>>;
}

export const portVar = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);
