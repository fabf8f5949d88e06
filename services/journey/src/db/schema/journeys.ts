import { index, integer, jsonb, serial, text } from 'drizzle-orm/pg-core';
import type { JourneyArea } from '@corridor/contracts';
import { instant, timestamps } from './columns';
import { journeySchema } from './journey-schema';
import { routes } from './routes';

export const journeyStates = ['planned', 'active', 'completed', 'cancelled'] as const;

/** A device (truck) bound to a route for one shipment; its state moves only forward. */
export const journeys = journeySchema.table(
  'journeys',
  {
    id: serial('id').primaryKey(),
    deviceId: integer('device_id').notNull(),
    truckPlate: text('truck_plate'),
    companyId: integer('company_id'),
    routeId: integer('route_id')
      .notNull()
      .references(() => routes.id, { onDelete: 'restrict' }),
    shipmentRef: text('shipment_ref'),
    cargoRef: text('cargo_ref'),
    plannedDeparture: instant('planned_departure'),
    plannedArrival: instant('planned_arrival'),
    state: text('state', { enum: journeyStates }).notNull().default('planned'),
    actualDeparture: instant('actual_departure'),
    actualArrival: instant('actual_arrival'),
    origin: jsonb('origin').$type<JourneyArea>(),
    destination: jsonb('destination').$type<JourneyArea>(),
    cancelledAt: instant('cancelled_at'),
    cancelledBy: integer('cancelled_by'),
    cancelReason: text('cancel_reason'),
    createdBy: integer('created_by'),
    attributes: jsonb('attributes').$type<Record<string, unknown>>().notNull().default({}),
    ...timestamps,
  },
  (t) => [
    index('journeys_device_state_idx').on(t.deviceId, t.state),
    index('journeys_state_company_idx').on(t.state, t.companyId),
    index('journeys_route_idx').on(t.routeId),
  ],
);
export type JourneyRow = typeof journeys.$inferSelect;
