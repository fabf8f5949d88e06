import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { ReportLink, ReportLinksQuery } from '@corridor/contracts';
import { AppError, companyScope, type Identity, type Orm } from '@corridor/platform';
import { audit } from '../audit/audit';
import { devices, groups, scheduledReports } from '../db/schema';
import type { Actor } from '../resources/scope';
import { toScheduledReport } from './service';

type Kind = 'deviceId' | 'groupId';
const kindOf = (l: { deviceId?: number }): Kind => (l.deviceId !== undefined ? 'deviceId' : 'groupId');
const keyOf = (l: ReportLink): string => `${l.reportId}:${kindOf(l)}:${l[kindOf(l)]}`;
const itemError = (code: 'NOT_FOUND' | 'CONFLICT' | 'VALIDATION_FAILED', index: number, l: ReportLink, what: string): AppError =>
  new AppError(code, `Item ${index} ${JSON.stringify(l)}: ${what}; nothing was changed`, { index, permission: l });

/**
 * A scheduled report's links (Traccar's permissions with reportId), read from and written to the
 * report's own deviceIds and groupIds, as a notification rule's are its fields: the gateway's
 * /permissions forwards them here. Writes are all or nothing, audited as an update of each report.
 */
export function reportLinks(db: Orm) {
  const scoped = (who: Identity): SQL | undefined => {
    const scope = companyScope(who);
    return scope === undefined ? undefined : eq(scheduledReports.companyId, scope);
  };

  async function apply(links: readonly ReportLink[], actor: Actor, verb: 'link' | 'unlink') {
    const seen = new Map<string, number>();
    links.forEach((l, i) => {
      const earlier = seen.get(keyOf(l));
      if (earlier !== undefined) throw itemError('VALIDATION_FAILED', i, l, `repeats the link at index ${earlier}`);
      seen.set(keyOf(l), i);
    });
    const deviceIds = links.flatMap((l) => (l.deviceId !== undefined ? [l.deviceId] : []));
    const groupIds = links.flatMap((l) => (l.groupId !== undefined ? [l.groupId] : []));
    const owners = {
      deviceId: new Map(
        (deviceIds.length
          ? await db.select({ id: devices.id, c: devices.companyId }).from(devices).where(inArray(devices.id, deviceIds))
          : []
        ).map((x) => [x.id, x.c]),
      ),
      groupId: new Map(
        (groupIds.length
          ? await db.select({ id: groups.id, c: groups.companyId }).from(groups).where(inArray(groups.id, groupIds))
          : []
        ).map((x) => [x.id, x.c]),
      ),
    };
    await db.transaction(async (tx) => {
      const rows = await tx
        .select()
        .from(scheduledReports)
        .where(and(inArray(scheduledReports.id, [...new Set(links.map((l) => l.reportId))]), scoped(actor.identity)))
        .for('update');
      const after = new Map(rows.map((r) => [r.id, { before: r, deviceIds: [...r.deviceIds], groupIds: [...r.groupIds] }]));
      for (const [i, l] of links.entries()) {
        const report = after.get(l.reportId);
        if (!report) throw itemError('NOT_FOUND', i, l, `scheduled report ${l.reportId} not found`);
        const kind = kindOf(l);
        const id = l[kind]!;
        const list = kind === 'deviceId' ? report.deviceIds : report.groupIds;
        if (verb === 'link') {
          if (list.includes(id)) throw itemError('CONFLICT', i, l, 'this link exists already');
          const company = owners[kind].get(id);
          if (company === undefined) throw itemError('NOT_FOUND', i, l, `${kind === 'deviceId' ? 'device' : 'group'} ${id} not found`);
          if (report.before.companyId !== null && company !== report.before.companyId) {
            throw itemError(
              'VALIDATION_FAILED',
              i,
              l,
              `${kind === 'deviceId' ? 'device' : 'group'} ${id} is not of the report's company ${report.before.companyId}`,
            );
          }
          list.push(id);
        } else {
          if (!list.includes(id)) throw itemError('NOT_FOUND', i, l, 'no such link');
          list.splice(list.indexOf(id), 1);
        }
      }
      for (const [id, r] of after) {
        const [row] = await tx
          .update(scheduledReports)
          .set({ deviceIds: r.deviceIds, groupIds: r.groupIds, updatedAt: new Date() })
          .where(eq(scheduledReports.id, id))
          .returning();
        await audit.record(tx, actor.identity, {
          action: 'scheduled_report.update',
          entityType: 'scheduled_report',
          entityId: id,
          companyId: row!.companyId,
          before: toScheduledReport(r.before),
          after: { ...toScheduledReport(row!), via: `permission.${verb}` },
          requestId: actor.requestId,
        });
      }
    });
  }

  return {
    async list(q: z.output<typeof ReportLinksQuery>, who: Identity): Promise<ReportLink[]> {
      const kind: Kind = q.deviceId !== undefined ? 'deviceId' : 'groupId';
      const id = q[kind] || undefined;
      const column = kind === 'deviceId' ? scheduledReports.deviceIds : scheduledReports.groupIds;
      const rows = await db
        .select()
        .from(scheduledReports)
        .where(
          and(
            scoped(who),
            q.reportId ? eq(scheduledReports.id, q.reportId) : undefined,
            id === undefined ? undefined : sql`${column} @> ${JSON.stringify([id])}::jsonb`,
          ),
        )
        .orderBy(asc(scheduledReports.id));
      const out = rows.flatMap((r) =>
        (kind === 'deviceId' ? r.deviceIds : r.groupIds)
          .filter((x) => id === undefined || x === id)
          .map((x) => ({ reportId: r.id, [kind]: x }) as ReportLink),
      );
      return out.slice(q.offset, q.offset + q.limit);
    },
    link: (links: readonly ReportLink[], actor: Actor) => apply(links, actor, 'link'),
    unlink: (links: readonly ReportLink[], actor: Actor) => apply(links, actor, 'unlink'),
  };
}
export type ReportLinks = ReturnType<typeof reportLinks>;
