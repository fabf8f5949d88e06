import { bigint, index, integer, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { ops } from './ops-schema';

/** Stored files: metadata here, bytes in object storage (local disk or S3) under storage_key. */
export const documents = ops.table(
  'documents',
  {
    id: uuid('id').primaryKey(),
    companyId: integer('company_id').notNull(),
    kind: text('kind').notNull(),
    filename: text('filename').notNull(),
    contentType: text('content_type').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    storageBackend: text('storage_backend').notNull(),
    storageKey: text('storage_key').notNull(),
    scanStatus: text('scan_status', { enum: ['clean', 'not_scanned'] }).notNull(),
    scanDetail: text('scan_detail'),
    ownerType: text('owner_type'),
    ownerId: text('owner_id'),
    uploadedByUserId: integer('uploaded_by_user_id').notNull(),
    uploadedByEmail: text('uploaded_by_email').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).defaultNow().notNull(),
  },
  (t) => [
    index('documents_company_idx').on(t.companyId, t.createdAt),
    index('documents_owner_idx').on(t.ownerType, t.ownerId),
    index('documents_kind_idx').on(t.kind),
  ],
);
export type DocumentRow = typeof documents.$inferSelect;
