import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SignedLink } from '@corridor/contracts';
import type { InternalKeys } from '@corridor/platform';

/** The longest a download link lives (links are handed out for minutes; a day-long link is a leak waiting to happen). */
export const MAX_LINK_TTL_SECONDS = 4 * 3600;

/** The links' own key, derived from an internal secret (identity tokens and links never share a key). */
const linkKey = (secret: string): Buffer => createHmac('sha256', secret).update('corridor-document-links').digest();
const secretsOf = (keys: InternalKeys): string[] =>
  typeof keys === 'string' ? [keys] : [keys.current, ...(keys.previous ? [keys.previous] : [])];

export type LinkVerdict = 'ok' | 'expired' | 'bad_signature' | 'other_user';

/**
 * Expiring download links issued to one user: HMAC-SHA256 over "documentId.userId.expires" with a
 * key derived from INTERNAL_TOKEN_SECRET; a link signed with INTERNAL_TOKEN_SECRET_PREVIOUS still
 * holds during a rotation. The download is refused for any other caller, expired or altered.
 */
export function signedLinks(keys: InternalKeys, now: () => Date = () => new Date()) {
  const [signing, ...older] = secretsOf(keys).map(linkKey);
  const sign = (key: Buffer, id: string, userId: number, expires: number): Buffer =>
    createHmac('sha256', key).update(`${id}.${userId}.${expires}`).digest();
  return {
    create(id: string, userId: number, ttlSeconds: number): SignedLink {
      const ttl = Math.min(MAX_LINK_TTL_SECONDS, Math.max(1, Math.floor(ttlSeconds)));
      const expires = Math.floor(now().getTime() / 1000) + ttl;
      return {
        url: `/api/documents/${id}/download?user=${userId}&expires=${expires}&signature=${sign(signing!, id, userId, expires).toString('base64url')}`,
        expiresAt: new Date(expires * 1000).toISOString(),
      };
    },
    /** 'ok', or why the link is refused to `callerId`. */
    check(id: string, link: { user: number; expires: number; signature: string }, callerId: number): LinkVerdict {
      const given = Buffer.from(link.signature, 'base64url');
      const valid = [signing!, ...older].some((key) => {
        const expected = sign(key, id, link.user, link.expires);
        return given.length === expected.length && timingSafeEqual(given, expected);
      });
      if (!valid) return 'bad_signature';
      if (link.user !== callerId) return 'other_user';
      return link.expires * 1000 < now().getTime() ? 'expired' : 'ok';
    },
  };
}
