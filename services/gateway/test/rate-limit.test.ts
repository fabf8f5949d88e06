import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RedisCache } from '@corridor/platform';
import { createUser, startGateway, tokenFor, type Harness } from './harness';

/**
 * Rate limits per user and per client address, counted in Redis when the cache is Redis (the
 * primary kind: real Redis wherever the environment has it, always in CI), in memory otherwise.
 */
let h: Harness;
const inject = (opts: InjectOptions) => h.gateway.app.inject(opts);

beforeAll(async () => {
  h = await startGateway({
    env: { RATE_LIMIT_USER_MAX: '5', RATE_LIMIT_IP_MAX: '12', RATE_LIMIT_WINDOW_MS: '60000', TRUST_PROXY_HOPS: '1' },
  });
});
afterAll(async () => {
  await h?.close();
});

const from = (ip: string, extra: Record<string, string> = {}) => ({ 'x-forwarded-for': ip, ...extra });

describe('rate limits', () => {
  it('limits each user, 429 in the error shape with Retry-After, without limiting other users', async () => {
    const a = await tokenFor(h, (await createUser(h, ['dispatcher'], 101)).id);
    const b = await tokenFor(h, (await createUser(h, ['dispatcher'], 101)).id);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++)
      statuses.push(
        (await inject({ method: 'GET', url: '/api/session', headers: from(`10.1.0.${i}`, { authorization: `Bearer ${a}` }) })).statusCode,
      );
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    const limited = await inject({ method: 'GET', url: '/api/session', headers: from('10.1.0.99', { authorization: `Bearer ${a}` }) });
    expect(limited.json()).toMatchObject({ error: { code: 'RATE_LIMITED', details: { by: 'user', limit: 5 } } });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
    expect(
      (await inject({ method: 'GET', url: '/api/session', headers: from('10.1.0.98', { authorization: `Bearer ${b}` }) })).statusCode,
    ).toBe(200);
  });

  it('limits each client address before authentication, without limiting other addresses', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 14; i++)
      statuses.push((await inject({ method: 'GET', url: '/api/server', headers: from('41.90.7.7') })).statusCode);
    expect(statuses.slice(0, 12).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(12)).toEqual([429, 429]);
    const wrong = await inject({
      method: 'POST',
      url: '/api/session',
      headers: from('41.90.7.7'),
      payload: { email: 'a@b.test', password: 'whatever' },
    });
    expect(wrong.statusCode).toBe(429); // the password is not even checked
    expect((await inject({ method: 'GET', url: '/api/server', headers: from('41.90.7.8') })).statusCode).toBe(200);
    // probes are not limited
    expect((await inject({ method: 'GET', url: '/healthz', headers: from('41.90.7.7') })).statusCode).toBe(200);
  });

  it('keeps the counters in Redis when the cache is Redis', async () => {
    if (h.adapters.cache.kind !== 'redis') {
      expect(h.kind).toBe('embedded'); // only the embedded variant counts in memory
      return;
    }
    const redis = (h.adapters.cache as RedisCache).redis;
    const prefix = redis.options.keyPrefix ?? '';
    const keys = await redis.keys(`${prefix}gw:rl:*`);
    // @fastify/rate-limit names a limiter's keys <nameSpace><route prefix><our key>
    const ipKey = keys.find((k) => k.endsWith('ip:41.90.7.7'));
    expect(ipKey, keys.join(', ')).toBeDefined();
    expect(Number(await redis.get(ipKey!.slice(prefix.length)))).toBeGreaterThanOrEqual(14);
    expect(keys.some((k) => /user:\d+$/.test(k))).toBe(true);
  });
});
