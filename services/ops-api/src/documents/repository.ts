import { and, count, desc, eq, gte, lt, type SQL } from 'drizzle-orm';
import type { Orm } from '@corridor/platform';
import { documentLinks, documents, type DocumentRow } from '../db/schema';

export interface DocumentFilter {
  companyId?: number;
  kind?: string;
  ownerType?: string;
  ownerId?: string;
  from?: Date;
  to?: Date;
  limit: number;
  offset: number;
}

export type NewDocumentRow = typeof documents.$inferInsert;

export function documentsRepository(db: Orm) {
  const where = (f: Partial<DocumentFilter>): SQL | undefined => {
    const parts: SQL[] = [];
    if (f.companyId !== undefined) parts.push(eq(documents.companyId, f.companyId));
    if (f.kind) parts.push(eq(documents.kind, f.kind));
    if (f.ownerType) parts.push(eq(documents.ownerType, f.ownerType));
    if (f.ownerId) parts.push(eq(documents.ownerId, f.ownerId));
    if (f.from) parts.push(gte(documents.createdAt, f.from));
    if (f.to) parts.push(lt(documents.createdAt, f.to));
    return parts.length ? and(...parts) : undefined;
  };
  return {
    async insert(row: NewDocumentRow): Promise<DocumentRow> {
      const [r] = await db.insert(documents).values(row).returning();
      return r!;
    },
    async get(id: string): Promise<DocumentRow | undefined> {
      const [r] = await db.select().from(documents).where(eq(documents.id, id));
      return r;
    },
    async list(f: DocumentFilter): Promise<{ rows: DocumentRow[]; total: number }> {
      const w = where(f);
      const rows = await db
        .select()
        .from(documents)
        .where(w)
        .orderBy(desc(documents.createdAt), desc(documents.id))
        .limit(f.limit)
        .offset(f.offset);
      const [c] = await db.select({ n: count() }).from(documents).where(w);
      return { rows, total: c?.n ?? 0 };
    },
    /** Links a document to an entity; false when it already was. */
    async link(tx: Orm, documentId: string, entityType: string, entityId: string, userId: number): Promise<boolean> {
      const r = await tx
        .insert(documentLinks)
        .values({ documentId, entityType, entityId, linkedByUserId: userId })
        .onConflictDoNothing()
        .returning();
      return r.length > 0;
    },
    async linkedTo(entityType: string, entityId: string): Promise<DocumentRow[]> {
      const rows = await db
        .select({ d: documents })
        .from(documentLinks)
        .innerJoin(documents, eq(documents.id, documentLinks.documentId))
        .where(and(eq(documentLinks.entityType, entityType), eq(documentLinks.entityId, entityId)))
        .orderBy(documentLinks.linkedAt);
      return rows.map((r) => r.d);
    },
  };
}
export type DocumentsRepository = ReturnType<typeof documentsRepository>;
