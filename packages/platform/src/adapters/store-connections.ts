import type { RedisOptions } from 'ioredis';
import type { ConnectionOptions, SASLOptions } from '@platformatic/kafka';
import type { BaseEnv } from '../config';

/**
 * How the services authenticate to clustered stores (issue 16): the brokers with SASL/SCRAM, as a
 * Strimzi KafkaUser per service hands out credentials, and Redis through Sentinel, which follows a
 * failover to the new master. Pure: the adapters pass what these return to the Kafka client
 * (@platformatic/kafka) and ioredis.
 */
type KafkaEnv = Pick<BaseEnv, 'KAFKA_SASL_MECHANISM' | 'KAFKA_SASL_USERNAME' | 'KAFKA_SASL_PASSWORD' | 'KAFKA_TLS'>;
export type KafkaSecurity = Pick<ConnectionOptions, 'sasl' | 'tls'>;

/** The client's names of the SASL mechanisms KAFKA_SASL_MECHANISM takes. */
const MECHANISMS = { plain: 'PLAIN', 'scram-sha-256': 'SCRAM-SHA-256', 'scram-sha-512': 'SCRAM-SHA-512' } as const;

export function kafkaSecurity(env: KafkaEnv): KafkaSecurity {
  // TLS with Node's defaults: the system's CAs, the broker's host name checked
  const out: KafkaSecurity = env.KAFKA_TLS ? { tls: {} } : {};
  const { KAFKA_SASL_MECHANISM: mechanism, KAFKA_SASL_USERNAME: username, KAFKA_SASL_PASSWORD: password } = env;
  if (!mechanism) {
    if (username || password) throw new Error('KAFKA_SASL_USERNAME/KAFKA_SASL_PASSWORD are set but KAFKA_SASL_MECHANISM is not');
    return out;
  }
  if (!username || !password) throw new Error(`KAFKA_SASL_MECHANISM=${mechanism} needs KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD`);
  const sasl: SASLOptions = { mechanism: MECHANISMS[mechanism], username, password };
  return { ...out, sasl };
}

type RedisEnv = Pick<BaseEnv, 'REDIS_URL' | 'REDIS_SENTINELS' | 'REDIS_SENTINEL_NAME' | 'REDIS_PASSWORD'>;
/** Where the cache connects: a URL, or sentinels and a master name; undefined: no Redis (in-memory cache). */
export type RedisTarget = { url: string; options: RedisOptions } | { options: RedisOptions };

export function redisTarget(env: RedisEnv): RedisTarget | undefined {
  if (env.REDIS_URL && env.REDIS_SENTINELS) throw new Error('set REDIS_URL or REDIS_SENTINELS, not both');
  const auth: RedisOptions = env.REDIS_PASSWORD ? { password: env.REDIS_PASSWORD } : {};
  if (env.REDIS_URL) return { url: env.REDIS_URL, options: auth };
  if (!env.REDIS_SENTINELS) return undefined;
  const sentinels = env.REDIS_SENTINELS.split(',').map((hp) => {
    const i = hp.lastIndexOf(':');
    return { host: hp.slice(0, i), port: Number(hp.slice(i + 1)) };
  });
  return { options: { ...auth, sentinels, name: env.REDIS_SENTINEL_NAME } };
}
