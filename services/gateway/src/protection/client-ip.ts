import type { FastifyRequest } from 'fastify';

/**
 * The caller's address for rate limits and sign-in throttling. Behind an ingress or load balancer
 * set TRUST_PROXY_HOPS to the number of proxies in front of the gateway: the address is then read
 * from X-Forwarded-For that many entries from the right (entries further left are client-supplied
 * and could be forged). With 0 the socket's peer address is used.
 */
export function clientIpResolver(trustedHops: number) {
  return (req: FastifyRequest): string => {
    if (trustedHops <= 0) return req.ip;
    const header = req.headers['x-forwarded-for'];
    const list = (Array.isArray(header) ? header.join(',') : (header ?? ''))
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    return list[list.length - trustedHops] ?? list[0] ?? req.ip;
  };
}
export type ClientIp = ReturnType<typeof clientIpResolver>;
