import { describe, expect, it } from 'vitest';
import type { FastifyRequest } from 'fastify';
import { clientIpResolver } from './client-ip';

const req = (ip: string, xff?: string) =>
  ({ ip, headers: xff === undefined ? {} : { 'x-forwarded-for': xff } }) as unknown as FastifyRequest;

describe('clientIpResolver', () => {
  it('uses the peer address when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(clientIpResolver(0)(req('10.0.0.9', '1.2.3.4'))).toBe('10.0.0.9');
  });

  it('reads the entry added by the trusted proxy, not the forgeable ones to its left', () => {
    expect(clientIpResolver(1)(req('10.0.0.9', '6.6.6.6, 41.90.1.2'))).toBe('41.90.1.2');
    expect(clientIpResolver(2)(req('10.0.0.9', '6.6.6.6, 41.90.1.2, 10.1.1.1'))).toBe('41.90.1.2');
  });

  it('falls back sensibly when the header is short or absent', () => {
    expect(clientIpResolver(3)(req('10.0.0.9', '41.90.1.2'))).toBe('41.90.1.2');
    expect(clientIpResolver(1)(req('10.0.0.9'))).toBe('10.0.0.9');
  });
});
