import { index, integer, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { documents } from './documents';
import { ops } from './ops-schema';

/** A document attached to an entity (a shipment, a cargo, …); one document may serve several. */
export const documentLinks = ops.table(
  'document_links',
  {
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id').notNull(),
    linkedByUserId: integer('linked_by_user_id').notNull(),
    linkedAt: timestamp('linked_at', { withTimezone: true, mode: 'date' }).defaultNow().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.documentId, t.entityType, t.entityId] }),
    index('document_links_entity_idx').on(t.entityType, t.entityId),
  ],
);
export type DocumentLinkRow = typeof documentLinks.$inferSelect;
