import type { Identity, Logger, Orm } from '@corridor/platform';
import { audit } from '../audit/audit';
import type { GeofenceRow } from '../db/schema';
import { toGeofence } from '../geofences/definition';
import type { GeofencesRepository } from '../geofences/repository';
import { seedFenceValues } from './seed-fences';

/** The actor recorded in the audit trail for seeded fences. */
const seedActor: Identity = { userId: 0, email: 'seed@corridor.local', name: 'Seed', roles: ['admin'], companyId: null };

/**
 * Inserts the seed fences that are not there yet (by seed key), auditing each. With onlyIfEmpty
 * (what start() does) nothing happens once the table holds any fence, so a deleted seed stays deleted.
 */
export async function seedFences(
  deps: { orm: Orm; repo: GeofencesRepository; logger: Logger },
  opts: { onlyIfEmpty: boolean },
): Promise<GeofenceRow[]> {
  if (opts.onlyIfEmpty && (await deps.repo.count()) > 0) return [];
  const inserted = await deps.orm.transaction(async (tx) => {
    const rows = await deps.repo.insertSeeds(seedFenceValues(), tx);
    for (const r of rows) {
      await audit.record(tx, seedActor, { action: 'geofence.seed', entityType: 'geofence', entityId: r.id, after: toGeofence(r) });
    }
    return rows;
  });
  if (inserted.length) deps.logger.info({ fences: inserted.length }, 'seed geofences inserted');
  return inserted;
}
