import { timingSafeEqual } from 'node:crypto';
import type { Identity } from '@corridor/platform';

/**
 * The bootstrap administrator from the environment (ADMIN_EMAIL / ADMIN_PASSWORD), accepted with
 * HTTP Basic auth. It lets a fresh install be reached before any user exists.
 */
export function bootstrapAdmin(email: string, password: string) {
  const expected = Buffer.from(`${email}:${password}`);
  return (authorization: string | undefined): Identity | undefined => {
    if (!authorization?.startsWith('Basic ')) return undefined;
    const given = Buffer.from(Buffer.from(authorization.slice(6), 'base64').toString('utf8'));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    return { userId: 0, email, name: 'Administrator', roles: ['admin'], companyId: null };
  };
}
