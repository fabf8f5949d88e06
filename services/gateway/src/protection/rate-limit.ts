import type { FastifyReply, FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { AppError, counter, type App, type Cache } from '@corridor/platform';
import type { ClientIp } from './client-ip';
import { redisOf } from './redis-client';

const limited = counter('gateway_rate_limited_total', 'Requests refused by a rate limit', ['by']);

export interface RateLimitSettings {
  windowMs: number;
  ipMax: number;
  userMax: number;
}

/**
 * Two limits with @fastify/rate-limit, counted in Redis when the cache is Redis (so every gateway
 * instance shares them) and in memory otherwise: per client address before authentication (it
 * also shields the password checks) and per user after it. Only /api is limited (probes are not).
 */
export async function rateLimits(app: App, deps: { cache: Cache; settings: RateLimitSettings; clientIp: ClientIp }) {
  const redis = redisOf(deps.cache);
  await app.register(rateLimit, { global: false, ...(redis ? { redis, nameSpace: 'gw:rl:' } : {}), skipOnError: true });
  const s = deps.settings;
  const byIp = app.createRateLimit({ keyGenerator: (req) => `ip:${deps.clientIp(req)}`, max: s.ipMax, timeWindow: s.windowMs });
  const byUser = app.createRateLimit({
    keyGenerator: (req) => `user:${req.identity?.userId ?? 'none'}`,
    max: s.userMax,
    timeWindow: s.windowMs,
  });

  const enforce = (by: 'ip' | 'user', limiter: typeof byIp) => async (req: FastifyRequest, reply: FastifyReply) => {
    if (!req.url.startsWith('/api/')) return;
    if (by === 'user' && !req.identity) return;
    const r = await limiter(req);
    if (r.isAllowed) return;
    void reply.header('x-ratelimit-limit', r.max).header('x-ratelimit-remaining', r.remaining).header('x-ratelimit-reset', r.ttlInSeconds);
    if (r.isExceeded) {
      limited.inc({ by });
      throw new AppError(
        'RATE_LIMITED',
        `Too many requests (${by === 'ip' ? 'from this address' : 'for this user'}); retry in ${r.ttlInSeconds} s`,
        {
          retryAfterSeconds: r.ttlInSeconds,
          limit: r.max,
          by,
        },
      );
    }
  };
  return { perIp: enforce('ip', byIp), perUser: enforce('user', byUser) };
}
