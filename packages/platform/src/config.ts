import { randomBytes } from 'node:crypto';
import { z } from 'zod';

let generatedSecret: string | undefined;
/**
 * The internal token secret of a development or test process that sets none: random, once per process,
 * so the one-process stack (`pnpm start`) and tests need no set-up, and nothing predictable signs
 * identities. Services in other processes do not share it: run them with INTERNAL_TOKEN_SECRET set.
 */
export const processSecret = (): string => (generatedSecret ??= randomBytes(32).toString('base64url'));

/** Secrets published in this repository (examples, old defaults, tests): refused outside development and tests. */
export const PUBLISHED_SECRETS: readonly string[] = [
  'corridor-dev-internal-secret-change-me',
  'corridor-compose-internal-secret-change-me',
  'change-me-to-a-long-random-secret',
  'test-internal-secret-0123456789',
];
const MIN_PRODUCTION_SECRET = 32;

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
  /** Prefix of every topic and consumer group (runs sharing one broker, e.g. a benchmark beside the tests); unset: none. */
  KAFKA_NAMESPACE: z
    .string()
    .regex(/^[A-Za-z0-9_.-]+$/)
    .optional(),
  /** SASL/SCRAM credentials for the brokers (a Strimzi KafkaUser per service); unset: no authentication. */
  KAFKA_SASL_MECHANISM: z.enum(['scram-sha-512', 'scram-sha-256', 'plain']).optional(),
  KAFKA_SASL_USERNAME: z.string().min(1).optional(),
  KAFKA_SASL_PASSWORD: z.string().min(1).optional(),
  /** TLS to the brokers (the system's CAs). */
  KAFKA_TLS: z.stringbool().default(false),
  /** Producer sends in flight at once per process (KafkaBus sendsInFlight: that many idempotent producers, a key always through the same one); default 1, one send at a time (docs/design-changes.md says why). */
  KAFKA_SENDS_IN_FLIGHT: z.coerce.number().int().min(1).max(16).default(1),
  /** A consumer group this many messages behind on a topic makes its service not ready (/readyz). */
  CONSUMER_MAX_READY_LAG: z.coerce.number().int().min(1).default(100_000),
  CLICKHOUSE_URL: z.url({ protocol: /^https?$/ }).optional(),
  CLICKHOUSE_USER: z.string().default('default'),
  CLICKHOUSE_PASSWORD: z.string().default(''),
  CLICKHOUSE_DATABASE: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
    .default('corridor'),
  /**
   * A ClickHouse cluster (remote_servers) to spread the tables over: replicated tables on every
   * node, Distributed tables in front, sharded by device, DDL ON CLUSTER. Unset: one node.
   */
  CLICKHOUSE_CLUSTER: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
    .optional(),
  /**
   * Days ingest's raw frames stay in ClickHouse (raw_frames): a setting of the schema, which the
   * migrate step applies when it differs from the table's TTL (30 days as 0001 makes it). Unset:
   * the TTL stays as it is.
   */
  RAW_FRAME_TTL_DAYS: z.coerce.number().int().min(1).max(3650).optional(),
  /**
   * Who changes the PostgreSQL schema: 'apply' (the service applies its pending migrations at start)
   * or 'check' (it refuses to start on a schema behind its version, naming the missing migrations;
   * the migrate step applies them). Unset: 'check' when NODE_ENV is production, else 'apply'.
   * PGlite, one process's own store, is always migrated by that process.
   */
  DB_SCHEMA_CHANGES: z.enum(['apply', 'check']).optional(),
  /** Shared buffers of the embedded PostgreSQL (PGlite, no DATABASE_URL), MiB: 16 (adapters/db-pglite.ts says why). */
  PGLITE_SHARED_BUFFERS_MB: z.coerce.number().int().min(1).max(1024).default(16),
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  /** Prefix of every Redis key (deployments or runs sharing one Redis). */
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]+$/)
    .optional(),
  /**
   * Redis behind Sentinel (failover): comma-separated host:port of the sentinels, and the name of the
   * master they watch; the client asks them for the current master and follows a failover. Takes the
   * place of REDIS_URL; REDIS_PASSWORD authenticates to Redis itself.
   */
  REDIS_SENTINELS: z
    .string()
    .regex(/^[^,\s]+:\d+(,[^,\s]+:\d+)*$/, 'comma-separated host:port list')
    .optional(),
  REDIS_SENTINEL_NAME: z.string().min(1).default('mymaster'),
  REDIS_PASSWORD: z.string().min(1).optional(),
  /**
   * Signs the gateway's identity tokens to the services (same value everywhere). Required outside
   * development and tests (at least 32 characters, not a published one); unset there = processSecret().
   */
  INTERNAL_TOKEN_SECRET: z.string().min(16).default(processSecret),
  /** During a rotation: the previous secret, still accepted (tokens, download links) until removed. */
  INTERNAL_TOKEN_SECRET_PREVIOUS: z.string().min(16).optional(),
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
  const problems = [
    ...(result.success ? [] : result.error.issues.map((i) => ({ variable: i.path.join('.') || '(env)', message: i.message }))),
    ...(hasInternalSecret(schema) ? secretProblems(cleaned) : []),
  ];
  if (!result.success || problems.length) throw new ConfigError(problems);
  return Object.freeze(result.data) as Readonly<z.infer<S>>;
}

const hasInternalSecret = (schema: z.ZodType): boolean => schema instanceof z.ZodObject && 'INTERNAL_TOKEN_SECRET' in schema.shape;

/**
 * Outside development and tests the internal secrets must be set, long and not published ones
 * (an identity forged with a published secret would pass every service).
 */
function secretProblems(env: Record<string, string | undefined>): { variable: string; message: string }[] {
  const mode = env.NODE_ENV ?? 'development';
  if (mode === 'development' || mode === 'test') return [];
  const out: { variable: string; message: string }[] = [];
  if (!env.INTERNAL_TOKEN_SECRET) {
    out.push({
      variable: 'INTERNAL_TOKEN_SECRET',
      message: `required when NODE_ENV is ${mode} (the same random value, e.g. openssl rand -base64 48, in every service)`,
    });
  }
  for (const variable of ['INTERNAL_TOKEN_SECRET', 'INTERNAL_TOKEN_SECRET_PREVIOUS']) {
    const v = env[variable];
    if (!v) continue;
    if (PUBLISHED_SECRETS.includes(v) || /change-?me/i.test(v))
      out.push({ variable, message: 'a published example or default: set a random secret of your own' });
    else if (v.length < MIN_PRODUCTION_SECRET)
      out.push({ variable, message: `at least ${MIN_PRODUCTION_SECRET} characters when NODE_ENV is ${mode}` });
  }
  return out;
}

/** The internal token keys of a parsed configuration (current signs; both verify during a rotation). */
export function internalKeys(c: { INTERNAL_TOKEN_SECRET: string; INTERNAL_TOKEN_SECRET_PREVIOUS?: string | undefined }): {
  current: string;
  previous?: string;
} {
  return c.INTERNAL_TOKEN_SECRET_PREVIOUS
    ? { current: c.INTERNAL_TOKEN_SECRET, previous: c.INTERNAL_TOKEN_SECRET_PREVIOUS }
    : { current: c.INTERNAL_TOKEN_SECRET };
}

/** Who changes the PostgreSQL schema in this process: DB_SCHEMA_CHANGES, else 'check' in production and 'apply' elsewhere. */
export const schemaChangesFor = (env: { DB_SCHEMA_CHANGES?: 'apply' | 'check' | undefined; NODE_ENV: string }): 'apply' | 'check' =>
  env.DB_SCHEMA_CHANGES ?? (env.NODE_ENV === 'production' ? 'check' : 'apply');

export const portVar = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);
