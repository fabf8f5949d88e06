import { fileURLToPath } from 'node:url';
import type { Db } from '@corridor/platform';

export const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));

/** Applies the journey schema's drizzle-kit migrations (its own bookkeeping table). */
export function migrateJourneySchema(db: Db): Promise<void> {
  return db.migrate(migrationsFolder, 'journey');
}
