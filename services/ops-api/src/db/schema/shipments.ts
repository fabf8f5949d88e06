import { index, integer, jsonb, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from './columns';
import { ops } from './ops-schema';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const shipmentStatuses = ['draft', 'booked', 'in_transit', 'at_border', 'cleared', 'delivered', 'cancelled', 'on_hold'] as const;

/** A company's consignment on the road: what, where from and to, on which truck, and its state. */
export const shipments = ops.table(
  'shipments',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull(),
    reference: text('reference').notNull(),
    originPlace: text('origin_place').notNull(),
    originCountry: text('origin_country').notNull(),
    destinationPlace: text('destination_place').notNull(),
    destinationCountry: text('destination_country').notNull(),
    corridor: text('corridor', { enum: ['northern', 'central', 'other'] }),
    routeId: integer('route_id'),
    borderCrossings: jsonb('border_crossings').$type<string[]>().notNull().default([]),
    transportMode: text('transport_mode', { enum: ['road', 'rail', 'multimodal'] }).notNull(),
    truckPlate: text('truck_plate'),
    trailerPlate: text('trailer_plate'),
    driver: jsonb('driver').$type<{ name: string; phone: string | null; licenceNumber: string | null } | null>(),
    containerNumbers: jsonb('container_numbers').$type<string[]>().notNull().default([]),
    billOfLadingNumber: text('bill_of_lading_number'),
    cmrNumber: text('cmr_number'),
    cargoIds: jsonb('cargo_ids').$type<number[]>().notNull().default([]),
    plannedDeparture: at('planned_departure'),
    plannedArrival: at('planned_arrival'),
    actualDeparture: at('actual_departure'),
    actualArrival: at('actual_arrival'),
    journeyId: integer('journey_id'),
    notes: text('notes'),
    status: text('status', { enum: shipmentStatuses }).notNull().default('draft'),
    statusBeforeHold: text('status_before_hold', { enum: shipmentStatuses }),
    createdByUserId: integer('created_by_user_id').notNull(),
    createdByEmail: text('created_by_email').notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('shipments_company_reference_idx').on(t.companyId, t.reference),
    index('shipments_company_created_idx').on(t.companyId, t.createdAt),
    index('shipments_status_idx').on(t.status),
    index('shipments_truck_idx').on(t.truckPlate),
  ],
);
export type ShipmentRow = typeof shipments.$inferSelect;
export type NewShipmentRow = typeof shipments.$inferInsert;
