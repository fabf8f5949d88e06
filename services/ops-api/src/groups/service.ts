import { asc, count, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Group, GroupInput, GroupsQuery } from '@corridor/contracts';
import { AppError, cacheKeys, type Cache, type Logger, type Orm } from '@corridor/platform';
import { groups, type GroupRow } from '../db/schema';
import { invalidField } from '../resources/pg-errors';
import { resourceService } from '../resources/resource-service';
import { publishedToCache } from '../resources/cache-published';

const toGroup = (r: GroupRow): Group => ({
  id: r.id,
  name: r.name,
  groupId: r.groupId ?? 0,
  companyId: r.companyId,
  attributes: r.attributes,
});

/** Groups: a parent must exist in the same company and must not be the group itself or one of its descendants. */
export function groupsService(deps: { db: Orm; cache: Cache; logger: Logger }) {
  const { db } = deps;
  async function checkParent(parentId: number, companyId: number | null, self?: number): Promise<void> {
    const seen = new Set<number>();
    let cur: number | null = parentId;
    while (cur !== null && !seen.has(cur)) {
      if (cur === self) throw invalidField('groupId', 'a group cannot be nested under itself or its own descendant');
      seen.add(cur);
      const [p] = await db.select().from(groups).where(eq(groups.id, cur));
      if (!p) throw invalidField('groupId', `group ${cur} does not exist`);
      if (cur === parentId && p.companyId !== companyId) throw invalidField('groupId', 'the parent group belongs to another company');
      cur = p.groupId;
    }
  }
  const crud = resourceService<GroupRow, Group, GroupInput, z.output<typeof GroupsQuery>>(db, {
    name: 'Group',
    entityType: 'group',
    table: groups,
    company: groups.companyId,
    shared: false,
    keywordColumns: [groups.name],
    filters: (q) => [q.groupId !== undefined ? eq(groups.groupId, q.groupId) : undefined],
    toEntity: toGroup,
    toValues: (i, companyId) => ({ name: i.name, groupId: i.groupId, companyId, attributes: i.attributes }),
    async validate(i, companyId, _actor, existing) {
      if (i.groupId !== null) await checkParent(i.groupId, companyId, existing?.id);
    },
    async beforeDelete(row) {
      const [c] = await db.select({ n: count() }).from(groups).where(eq(groups.groupId, row.id));
      if ((c?.n ?? 0) > 0)
        throw new AppError('CONFLICT', `Group ${row.id} has ${c!.n} child group(s); move or delete them first`, { children: c!.n });
    },
  });
  // every group's id and company, for the services that check group references (geofence links), with
  // its parent and attributes for the device events (speedLimit and the other settings a group gives its devices)
  const load = async () =>
    db
      .select({ id: groups.id, companyId: groups.companyId, groupId: groups.groupId, attributes: groups.attributes })
      .from(groups)
      .orderBy(asc(groups.id));
  return publishedToCache(crud, { cache: deps.cache, key: cacheKeys.groups(), load, logger: deps.logger, what: 'groups' });
}
export type GroupsService = ReturnType<typeof groupsService>;
