import { eq } from 'drizzle-orm';
import type { Analytics, App, Cache, Clock, Orm } from '@corridor/platform';
import { companies } from '../db/schema';
import { presentations } from '../reports/formats/presentation';
import { openData } from './open-data';
import { observatoryRoutes } from './routes';
import { observatoryService } from './service';
import { observatorySettingsStore } from './settings';

/**
 * The corridor observatory (issue 30): its indicators from the facts the geofence service's tracker
 * writes to ClickHouse, the association's settings of it, and the public open data.
 */
export function observatory(app: App, deps: { db: Orm; analytics: Analytics; cache: Cache; clock: Clock }): void {
  const settings = observatorySettingsStore(deps.db);
  observatoryRoutes(app, {
    service: observatoryService({ analytics: deps.analytics, settings, clock: deps.clock }),
    settings,
    openData: openData({ analytics: deps.analytics, settings, clock: deps.clock }),
    presentationFor: presentations(deps.cache),
    companyName: async (id) => (await deps.db.select({ name: companies.name }).from(companies).where(eq(companies.id, id)))[0]?.name ?? null,
  });
}
