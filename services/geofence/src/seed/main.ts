import { createAdapters, createLogger, internalKeys, parseConfig } from '@corridor/platform';
import { GeofenceConfig } from '../config';
import { build } from '../app';

/**
 * `pnpm --filter @corridor/geofence seed`: inserts the seed fences that are missing (idempotent:
 * seed keys are unique) into the configured database and publishes them on geofences.v1.
 */
const config = parseConfig(GeofenceConfig);
const logger = createLogger('geofence-seed', config.LOG_LEVEL);
const adapters = await createAdapters(config, logger);
try {
  const svc = await build({ ...adapters, logger, identitySecret: internalKeys(config) });
  const inserted = await svc.seed();
  process.stdout.write(`${inserted} seed geofence(s) inserted\n`);
  await svc.close();
} finally {
  await adapters.close();
}
