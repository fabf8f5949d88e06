import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { crossSiteReason, type OriginPolicy } from './csrf';

const req = (headers: Record<string, string>): FastifyRequest =>
  ({ headers: { host: 'corridor.example', ...headers } }) as unknown as FastifyRequest;
const policy: OriginPolicy = { allowed: ['https://console.corridor.example'], trustForwardedHost: false };

describe('crossSiteReason', () => {
  it("passes requests without browser headers (API clients) and the browser's own same-origin requests", () => {
    expect(crossSiteReason(req({}), policy)).toBeUndefined();
    expect(crossSiteReason(req({ 'sec-fetch-site': 'same-origin' }), policy)).toBeUndefined();
    expect(crossSiteReason(req({ 'sec-fetch-site': 'none' }), policy)).toBeUndefined();
    expect(crossSiteReason(req({ origin: 'https://corridor.example' }), policy)).toBeUndefined();
    expect(crossSiteReason(req({ origin: 'http://corridor.example' }), policy)).toBeUndefined();
    expect(crossSiteReason(req({ origin: 'https://console.corridor.example', 'sec-fetch-site': 'same-site' }), policy)).toBeUndefined();
  });

  it('refuses foreign, opaque and malformed origins and cross-site fetch metadata', () => {
    expect(crossSiteReason(req({ origin: 'https://evil.example' }), policy)).toMatch(/evil/);
    expect(crossSiteReason(req({ origin: 'https://corridor.example.evil.example' }), policy)).toBeDefined();
    expect(crossSiteReason(req({ origin: 'null' }), policy)).toBeDefined();
    expect(crossSiteReason(req({ origin: 'not a url' }), policy)).toBeDefined();
    expect(crossSiteReason(req({ 'sec-fetch-site': 'cross-site' }), policy)).toMatch(/cross-site/);
    expect(crossSiteReason(req({ 'sec-fetch-site': 'same-site' }), policy)).toMatch(/same-site/);
  });

  it('behind a proxy that rewrote Host: Sec-Fetch-Site same-origin, X-Forwarded-Host when proxies are trusted, or a configured origin', () => {
    const proxied = { host: 'gateway:8082', origin: 'https://corridor.example' };
    expect(crossSiteReason(req(proxied), policy)).toBeDefined();
    expect(crossSiteReason(req({ ...proxied, 'sec-fetch-site': 'same-origin' }), policy)).toBeUndefined();
    expect(crossSiteReason(req({ ...proxied, 'x-forwarded-host': 'corridor.example' }), policy)).toBeDefined();
    expect(
      crossSiteReason(req({ ...proxied, 'x-forwarded-host': 'corridor.example' }), { ...policy, trustForwardedHost: true }),
    ).toBeUndefined();
    expect(crossSiteReason(req(proxied), { ...policy, allowed: ['https://corridor.example'] })).toBeUndefined();
    // RFC 7239's Forwarded header, its first element (the proxy nearest the browser), quoted or not
    const trusted = { ...policy, trustForwardedHost: true };
    expect(crossSiteReason(req({ ...proxied, forwarded: 'for=10.0.0.9;host=corridor.example;proto=https' }), trusted)).toBeUndefined();
    expect(crossSiteReason(req({ ...proxied, forwarded: 'for=10.0.0.9;host="corridor.example", host=inner' }), trusted)).toBeUndefined();
    expect(crossSiteReason(req({ ...proxied, forwarded: 'host=corridor.example' }), policy)).toBeDefined();
    expect(crossSiteReason(req({ ...proxied, forwarded: 'for=10.0.0.9;host=other.example' }), trusted)).toBeDefined();
  });
});
