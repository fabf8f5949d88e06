import { pgSchema } from 'drizzle-orm/pg-core';

/** The gateway owns this PostgreSQL schema (users, tokens, permissions, audit); no other service reads it. */
export const identity = pgSchema('identity');
