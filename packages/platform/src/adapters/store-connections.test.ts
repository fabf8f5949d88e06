import { describe, expect, it } from 'vitest';
import { BaseEnv } from '../config';
import { kafkaSecurity, redisTarget } from './store-connections';

const env = (vars: Record<string, string>) => BaseEnv.parse(vars);

describe('kafkaSecurity', () => {
  it('is empty without SASL or TLS (the compose file, the dev services)', () => {
    expect(kafkaSecurity(env({}))).toEqual({});
  });

  it('passes SCRAM credentials and TLS to the Kafka client, in its names of the mechanisms', () => {
    expect(
      kafkaSecurity(
        env({ KAFKA_SASL_MECHANISM: 'scram-sha-512', KAFKA_SASL_USERNAME: 'ingest', KAFKA_SASL_PASSWORD: 's3cret', KAFKA_TLS: 'true' }),
      ),
    ).toEqual({
      tls: {},
      sasl: { mechanism: 'SCRAM-SHA-512', username: 'ingest', password: 's3cret' },
    });
    expect(kafkaSecurity(env({ KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'a', KAFKA_SASL_PASSWORD: 'b' }))).toEqual({
      sasl: { mechanism: 'PLAIN', username: 'a', password: 'b' },
    });
  });

  it('refuses a mechanism without credentials, and credentials without a mechanism', () => {
    expect(() => kafkaSecurity(env({ KAFKA_SASL_MECHANISM: 'scram-sha-512', KAFKA_SASL_USERNAME: 'ingest' }))).toThrow(
      /needs KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD/,
    );
    expect(() => kafkaSecurity(env({ KAFKA_SASL_USERNAME: 'ingest', KAFKA_SASL_PASSWORD: 'x' }))).toThrow(/KAFKA_SASL_MECHANISM is not/);
  });

  it('rejects an unknown mechanism at configuration', () => {
    expect(() => env({ KAFKA_SASL_MECHANISM: 'gssapi' })).toThrow();
  });
});

describe('redisTarget', () => {
  it('is undefined without Redis (the in-memory cache)', () => {
    expect(redisTarget(env({}))).toBeUndefined();
  });

  it('connects to a URL', () => {
    expect(redisTarget(env({ REDIS_URL: 'redis://cache:6379' }))).toEqual({ url: 'redis://cache:6379', options: {} });
  });

  it('asks the sentinels for the master, with the password for Redis', () => {
    expect(
      redisTarget(env({ REDIS_SENTINELS: 'rfs-corridor:26379,10.0.0.7:26380', REDIS_SENTINEL_NAME: 'corridor', REDIS_PASSWORD: 'pw' })),
    ).toEqual({
      options: {
        password: 'pw',
        name: 'corridor',
        sentinels: [
          { host: 'rfs-corridor', port: 26379 },
          { host: '10.0.0.7', port: 26380 },
        ],
      },
    });
    expect(redisTarget(env({ REDIS_SENTINELS: 'rfs-corridor:26379' }))).toMatchObject({ options: { name: 'mymaster' } });
  });

  it('refuses both a URL and sentinels, and a malformed sentinel list', () => {
    expect(() => redisTarget(env({ REDIS_URL: 'redis://cache:6379', REDIS_SENTINELS: 'rfs:26379' }))).toThrow(/not both/);
    expect(() => env({ REDIS_SENTINELS: 'rfs-corridor' })).toThrow();
  });
});
