import { createAdapters, createLogger, parseConfig } from '@corridor/platform';
import { JourneyConfig } from '../config';
import { migrateJourneySchema } from '../db/migrate';
import { routesRepository } from '../routes/repository';
import { seedRoutes } from './corridor-seeds';

/** `pnpm --filter @corridor/journey seed`: loads the corridor routes into the configured database (idempotent). */
const config = parseConfig(JourneyConfig);
const logger = createLogger('journey-seed', config.LOG_LEVEL);
const adapters = await createAdapters(config, logger);
try {
  await migrateJourneySchema(adapters.db);
  const inserted = await seedRoutes(
    { db: adapters.db.orm, repo: routesRepository(adapters.db.orm), cache: adapters.cache, logger },
    { onlyIfEmpty: false },
  );
  process.stdout.write(`${inserted.length ? `seeded: ${inserted.join(', ')}` : 'corridor routes already present'}\n`);
} finally {
  await adapters.close();
}
