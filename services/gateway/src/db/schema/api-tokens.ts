import { index, integer, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { TokenScope } from '@corridor/contracts';
import { identity } from './identity-schema';
import { users } from './users';

/** Bearer tokens: only their SHA-256 is stored; revoked ones keep their row until they expire. */
export const apiTokens = identity.table(
  'api_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    scope: text('scope').$type<TokenScope>().notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).defaultNow().notNull(),
  },
  (t) => [uniqueIndex('api_tokens_hash_idx').on(t.tokenHash), index('api_tokens_user_idx').on(t.userId)],
);
export type ApiTokenRow = typeof apiTokens.$inferSelect;
