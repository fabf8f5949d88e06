import { pgSchema } from 'drizzle-orm/pg-core';

/** The journey service owns this PostgreSQL schema; no other service reads its tables. */
export const journeySchema = pgSchema('journey');
