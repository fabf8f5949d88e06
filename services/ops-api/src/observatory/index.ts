import { eq } from 'drizzle-orm';
import { companies } from '../db/schema';
import type { OpsModule } from '../module';
import { presentations } from '../reports/formats/presentation';
import { openData } from './open-data';
import { observatoryRoutes } from './routes';
import { observatoryService } from './service';
import { observatorySettingsStore } from './settings';

/**
 * The corridor observatory (issue 30): its indicators from the facts the geofence service's tracker
 * writes to ClickHouse, the association's settings of it, and the public open data.
 */
export const observatoryModule: OpsModule<object, void> = (app, { base: deps }) => {
  const settings = observatorySettingsStore(deps.db);
  observatoryRoutes(app, {
    service: observatoryService({ analytics: deps.analytics, settings, clock: deps.clock }),
    settings,
    openData: openData({ analytics: deps.analytics, settings, clock: deps.clock }),
    presentationFor: presentations(deps.cache),
    companyName: async (id) =>
      (await deps.db.select({ name: companies.name }).from(companies).where(eq(companies.id, id)))[0]?.name ?? null,
  });
};
