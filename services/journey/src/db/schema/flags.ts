import { bigserial, boolean, doublePrecision, index, integer, jsonb, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { instant, timestamps } from './columns';
import { journeySchema } from './journey-schema';
import { journeys } from './journeys';

export const flagTypes = ['offCorridor', 'unauthorizedStop', 'overspeed', 'signalLoss', 'backtracking', 'lateEta', 'sealBreach'] as const;

/**
 * Deviation flags. (journey, type, opened_at) is unique, so a redelivered position cannot open a
 * second flag; clears and escalations only update a flag still open.
 */
export const flags = journeySchema.table(
  'flags',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    journeyId: integer('journey_id')
      .notNull()
      .references(() => journeys.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id').notNull(),
    type: text('type', { enum: flagTypes }).notNull(),
    openedAt: instant('opened_at').notNull(),
    clearedAt: instant('cleared_at'),
    latitude: doublePrecision('latitude').notNull(),
    longitude: doublePrecision('longitude').notNull(),
    distanceM: doublePrecision('distance_m'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    escalated: boolean('escalated').notNull().default(false),
    escalatedAt: instant('escalated_at'),
    acknowledgedBy: integer('acknowledged_by'),
    acknowledgedAt: instant('acknowledged_at'),
    acknowledgedNote: text('acknowledged_note'),
    resolvedBy: integer('resolved_by'),
    resolvedAt: instant('resolved_at'),
    resolvedNote: text('resolved_note'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('flags_journey_type_opened_idx').on(t.journeyId, t.type, t.openedAt),
    index('flags_open_idx').on(t.journeyId, t.clearedAt),
    index('flags_opened_idx').on(t.openedAt),
  ],
);
export type FlagRow = typeof flags.$inferSelect;
