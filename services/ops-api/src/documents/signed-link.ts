import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SignedLink } from '@corridor/contracts';

/** Expiring download links: HMAC-SHA256 over "documentId.expires" with INTERNAL_TOKEN_SECRET. */
export function signedLinks(secret: string, now: () => Date = () => new Date()) {
  const sign = (id: string, expires: number): string => createHmac('sha256', secret).update(`${id}.${expires}`).digest('base64url');
  return {
    create(id: string, ttlSeconds: number): SignedLink {
      const expires = Math.floor(now().getTime() / 1000) + Math.max(1, Math.floor(ttlSeconds));
      return {
        url: `/api/documents/${id}/download?expires=${expires}&signature=${sign(id, expires)}`,
        expiresAt: new Date(expires * 1000).toISOString(),
      };
    },
    /** 'ok', or why the link is refused. */
    check(id: string, expires: number, signature: string): 'ok' | 'expired' | 'bad_signature' {
      const expected = Buffer.from(sign(id, expires));
      const given = Buffer.from(signature);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'bad_signature';
      return expires * 1000 < now().getTime() ? 'expired' : 'ok';
    },
  };
}
export type SignedLinks = ReturnType<typeof signedLinks>;
