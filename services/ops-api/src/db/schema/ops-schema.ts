import { pgSchema } from 'drizzle-orm/pg-core';

/** ops-api owns this PostgreSQL schema; no other service reads its tables. */
export const ops = pgSchema('ops');
