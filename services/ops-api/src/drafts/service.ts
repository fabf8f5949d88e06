import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Draft, DraftInput, DraftsQuery } from '@corridor/contracts';
import { isAdmin, notFound, type Orm } from '@corridor/platform';
import { drafts, type DraftRow } from '../db/schema';
import { resourceService } from '../resources/resource-service';

const toDraft = (r: DraftRow): Draft => ({
  id: r.id,
  userId: r.userId,
  companyId: r.companyId,
  kind: r.kind,
  title: r.title,
  payload: r.payload,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

/** Drafts belong to the user who saved them: others get 404; admins may read (not change) anyone's. */
export function draftsService(db: Orm) {
  return resourceService<DraftRow, Draft, DraftInput, z.output<typeof DraftsQuery>>(db, {
    name: 'Draft',
    entityType: 'draft',
    table: drafts,
    company: null,
    shared: false,
    keywordColumns: [drafts.title],
    readScope: (who, q) => {
      if (isAdmin(who) && q.userId !== undefined) return eq(drafts.userId, q.userId);
      if (isAdmin(who) && q.all) return undefined;
      return eq(drafts.userId, who.userId);
    },
    filters: (q) => [q.kind ? eq(drafts.kind, q.kind) : undefined],
    canRead: (row, who) => row.userId === who.userId || isAdmin(who),
    assertWritable: (row, who, id) => {
      if (!row || row.userId !== who.userId) throw notFound('Draft', id);
    },
    toEntity: toDraft,
    toValues: (i, _companyId, actor) => ({
      userId: actor.identity.userId,
      companyId: actor.identity.companyId,
      kind: i.kind,
      title: i.title,
      payload: i.payload,
    }),
  });
}
export type DraftsService = ReturnType<typeof draftsService>;
