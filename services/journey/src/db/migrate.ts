import { join } from 'node:path';
import { packageDir, type Db } from '@corridor/platform';

const migrationsFolder = join(packageDir(import.meta.url), 'drizzle');

/** Applies the journey schema's drizzle-kit migrations (its own bookkeeping table). */
export function migrateJourneySchema(db: Db): Promise<void> {
  return db.migrate(migrationsFolder, 'journey');
}
