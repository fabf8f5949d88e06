import { eq } from 'drizzle-orm';
import { ObservatorySettingsInput, type ObservatorySettings } from '@corridor/contracts';
import type { Identity, Orm } from '@corridor/platform';
import { audit } from '../audit/audit';
import { observatorySettings } from '../db/schema';

/**
 * The association's settings of the observatory, until it sets them: a border post visit over
 * 4 hours, a port gate over 3 days, an inland depot over 2 days, a weighbridge or checkpoint over
 * 30 minutes counts as long; the others' cells need 3 trucks (the common rule of three of
 * statistical disclosure control); a stop counts from 10 minutes.
 */
const DEFAULT_OBSERVATORY_SETTINGS: ObservatorySettingsInput = Object.freeze({
  dwellThresholdMinutes: { border_post: 240, port: 4_320, inland_depot: 2_880, weighbridge: 30, checkpoint: 30 },
  minTrucks: 3,
  minStopMinutes: 10,
});

const ROW_ID = 1;

export function observatorySettingsStore(db: Orm) {
  return {
    async get(): Promise<ObservatorySettings> {
      const [row] = await db.select().from(observatorySettings).where(eq(observatorySettings.id, ROW_ID));
      if (!row) return { ...DEFAULT_OBSERVATORY_SETTINGS, updatedAt: null, updatedBy: null };
      // a stored row that a later version's schema no longer reads falls back to the defaults field by field
      const parsed = ObservatorySettingsInput.safeParse({ ...DEFAULT_OBSERVATORY_SETTINGS, ...row.settings });
      return {
        ...(parsed.success ? parsed.data : DEFAULT_OBSERVATORY_SETTINGS),
        updatedAt: row.updatedAt.toISOString(),
        updatedBy: row.updatedBy,
      };
    },

    /** Sets them, with the audit entry in the same transaction. */
    async set(input: ObservatorySettingsInput, by: Identity): Promise<ObservatorySettings> {
      const before = await this.get();
      const now = new Date();
      await db.transaction(async (tx) => {
        await tx
          .insert(observatorySettings)
          .values({ id: ROW_ID, settings: input, updatedBy: by.userId, updatedAt: now })
          .onConflictDoUpdate({ target: observatorySettings.id, set: { settings: input, updatedBy: by.userId, updatedAt: now } });
        await audit.record(tx, by, {
          action: 'observatory.settings',
          entityType: 'observatory_settings',
          entityId: ROW_ID,
          companyId: null,
          before: {
            dwellThresholdMinutes: before.dwellThresholdMinutes,
            minTrucks: before.minTrucks,
            minStopMinutes: before.minStopMinutes,
          },
          after: input,
        });
      });
      return this.get();
    },
  };
}
export type ObservatorySettingsStore = ReturnType<typeof observatorySettingsStore>;
