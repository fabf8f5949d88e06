import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BaseEnv, ConfigError, parseConfig, portVar } from './config';

const Schema = BaseEnv.extend({ PORT: portVar(8080), MODE: z.enum(['a', 'b']).default('a') });

describe('parseConfig', () => {
  it('applies defaults and leaves URLs unset for the embedded parts', () => {
    const c = parseConfig(Schema, {});
    expect(c.PORT).toBe(8080);
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.KAFKA_BROKERS).toBeUndefined();
    expect(Object.isFrozen(c)).toBe(true);
  });

  it('treats empty strings as unset', () => {
    expect(parseConfig(Schema, { DATABASE_URL: '' }).DATABASE_URL).toBeUndefined();
  });

  it('names every bad variable at once', () => {
    let err: unknown;
    try {
      parseConfig(Schema, {
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        KAFKA_BROKERS: 'host-without-port',
        MODE: 'c',
        REDIS_URL: 'http://x',
      });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const vars = (err as ConfigError).problems.map((p) => p.variable).sort();
    expect(vars).toEqual(['DATABASE_URL', 'KAFKA_BROKERS', 'MODE', 'PORT', 'REDIS_URL']);
    expect((err as Error).message).toContain('KAFKA_BROKERS');
  });

  it('accepts real URLs', () => {
    const c = parseConfig(Schema, {
      DATABASE_URL: 'postgres://u@h:5432/db',
      KAFKA_BROKERS: 'a:9092,b:9093',
      REDIS_URL: 'redis://h:6379',
      CLICKHOUSE_URL: 'http://h:8123',
    });
    expect(c.KAFKA_BROKERS).toBe('a:9092,b:9093');
  });
});
