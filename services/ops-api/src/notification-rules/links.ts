import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { NotificationLink, NotificationLinksQuery } from '@corridor/contracts';
import { AppError, companyScope, readUserDirectory, type Cache, type Identity, type Orm } from '@corridor/platform';
import { audit } from '../audit/audit';
import { devices, groups, notificationRules, type NotificationRuleRow } from '../db/schema';
import type { Actor } from '../resources/scope';
import { toNotificationRule } from './traccar-shape';

type Kind = 'userId' | 'deviceId' | 'groupId';
const kindOf = (l: { userId?: number; deviceId?: number; groupId?: number }): Kind =>
  l.userId !== undefined ? 'userId' : l.deviceId !== undefined ? 'deviceId' : 'groupId';

/** The ids a rule links for one kind (its recipients' users, deviceIds, groupIds). */
function linkedIds(rule: NotificationRuleRow, kind: Kind): number[] {
  if (kind === 'userId') return rule.recipients.map((r) => r.userId);
  return kind === 'deviceId' ? rule.deviceIds : rule.groupIds;
}

const keyOf = (l: NotificationLink): string => `${l.notificationId}:${kindOf(l)}:${l[kindOf(l)]}`;

/** An error about one item of a links body, naming its index and the link; nothing was changed. */
const itemError = (code: 'NOT_FOUND' | 'CONFLICT' | 'VALIDATION_FAILED', index: number, l: NotificationLink, what: string): AppError =>
  new AppError(code, `Item ${index} ${JSON.stringify(l)}: ${what}; nothing was changed`, { index, permission: l });

/**
 * A notification rule's links (Traccar's permissions with notificationId), read from and written to
 * the rule's own fields: recipients (userId, with the user's email from the directory the gateway
 * publishes), deviceIds, groupIds. The gateway's /permissions forwards these here, so the rule is
 * the one source of truth whichever way a client links. Writes are all or nothing, audited as an
 * update of each rule they change.
 */
export function notificationLinks(deps: { db: Orm; cache: Cache }) {
  const { db } = deps;
  const scoped = (who: Identity): SQL | undefined => {
    const scope = companyScope(who);
    return scope === undefined ? undefined : eq(notificationRules.companyId, scope);
  };

  async function list(q: z.output<typeof NotificationLinksQuery>, who: Identity): Promise<NotificationLink[]> {
    const kind = kindOf({ userId: q.userId, deviceId: q.deviceId, groupId: q.groupId });
    const id = q[kind] || undefined;
    const column = { userId: notificationRules.recipients, deviceId: notificationRules.deviceIds, groupId: notificationRules.groupIds }[
      kind
    ];
    const contains = id === undefined ? undefined : sql`${column} @> ${JSON.stringify([kind === 'userId' ? { userId: id } : id])}::jsonb`;
    const rows = await db
      .select()
      .from(notificationRules)
      .where(and(scoped(who), q.notificationId ? eq(notificationRules.id, q.notificationId) : undefined, contains))
      .orderBy(asc(notificationRules.id));
    const out = rows.flatMap((r) =>
      linkedIds(r, kind)
        .filter((x) => id === undefined || x === id)
        .map((x) => ({ notificationId: r.id, [kind]: x }) as NotificationLink),
    );
    return out.slice(q.offset, q.offset + q.limit);
  }

  /** Every item checked, then each changed rule written once; `change` edits a rule's copy for one link (or throws). */
  async function apply(
    links: readonly NotificationLink[],
    actor: Actor,
    verb: 'link' | 'unlink',
    change: (rule: NotificationRuleRow, l: NotificationLink, i: number) => Promise<void> | void,
  ) {
    const seen = new Map<string, number>();
    links.forEach((l, i) => {
      const earlier = seen.get(keyOf(l));
      if (earlier !== undefined) throw itemError('VALIDATION_FAILED', i, l, `repeats the link at index ${earlier}`);
      seen.set(keyOf(l), i);
    });
    await db.transaction(async (tx) => {
      const ids = [...new Set(links.map((l) => l.notificationId))];
      const rows = await tx
        .select()
        .from(notificationRules)
        .where(and(inArray(notificationRules.id, ids), scoped(actor.identity)))
        .for('update');
      const before = new Map(rows.map((r) => [r.id, r]));
      const after = new Map(
        rows.map((r) => [r.id, { ...r, recipients: [...r.recipients], deviceIds: [...r.deviceIds], groupIds: [...r.groupIds] }]),
      );
      for (const [i, l] of links.entries()) {
        const rule = after.get(l.notificationId);
        if (!rule) throw itemError('NOT_FOUND', i, l, `notification rule ${l.notificationId} not found`);
        await change(rule, l, i);
      }
      for (const [id, rule] of after) {
        const [r] = await tx
          .update(notificationRules)
          .set({ recipients: rule.recipients, deviceIds: rule.deviceIds, groupIds: rule.groupIds, updatedAt: new Date() })
          .where(eq(notificationRules.id, id))
          .returning();
        await audit.record(tx, actor.identity, {
          action: 'notification_rule.update',
          entityType: 'notification_rule',
          entityId: id,
          companyId: r!.companyId,
          before: toNotificationRule(before.get(id)!),
          after: { ...toNotificationRule(r!), via: `permission.${verb}` },
          requestId: actor.requestId,
        });
      }
    });
  }

  /** The devices and groups of the links, with their companies (a company rule links its company's only). */
  async function ownersOf(links: readonly NotificationLink[]) {
    const deviceIds = links.flatMap((l) => (l.deviceId !== undefined ? [l.deviceId] : []));
    const groupIds = links.flatMap((l) => (l.groupId !== undefined ? [l.groupId] : []));
    const d = deviceIds.length
      ? await db.select({ id: devices.id, companyId: devices.companyId }).from(devices).where(inArray(devices.id, deviceIds))
      : [];
    const g = groupIds.length
      ? await db.select({ id: groups.id, companyId: groups.companyId }).from(groups).where(inArray(groups.id, groupIds))
      : [];
    return { deviceId: new Map(d.map((x) => [x.id, x.companyId])), groupId: new Map(g.map((x) => [x.id, x.companyId])) };
  }

  return {
    list,
    async link(links: readonly NotificationLink[], actor: Actor): Promise<void> {
      const owners = await ownersOf(links);
      const emails = links.some((l) => l.userId !== undefined)
        ? new Map((await readUserDirectory(deps.cache)).map((u) => [u.id, u.email]))
        : new Map<number, string | undefined>();
      await apply(links, actor, 'link', (rule, l, i) => {
        const kind = kindOf(l);
        const id = l[kind]!;
        if (linkedIds(rule, kind).includes(id)) throw itemError('CONFLICT', i, l, 'this link exists already');
        if (kind === 'userId') {
          const email = emails.get(id);
          if (!email) throw itemError('VALIDATION_FAILED', i, l, `user ${id} has no email address to notify`);
          rule.recipients.push({ userId: id, email });
          return;
        }
        const company = owners[kind].get(id);
        if (company === undefined) throw itemError('NOT_FOUND', i, l, `${kind === 'deviceId' ? 'device' : 'group'} ${id} not found`);
        if (rule.companyId !== null && company !== rule.companyId) {
          throw itemError(
            'VALIDATION_FAILED',
            i,
            l,
            `${kind === 'deviceId' ? 'device' : 'group'} ${id} is not of the rule's company ${rule.companyId}`,
          );
        }
        (kind === 'deviceId' ? rule.deviceIds : rule.groupIds).push(id);
      });
    },
    async unlink(links: readonly NotificationLink[], actor: Actor): Promise<void> {
      await apply(links, actor, 'unlink', (rule, l, i) => {
        const kind = kindOf(l);
        const id = l[kind]!;
        if (!linkedIds(rule, kind).includes(id)) throw itemError('NOT_FOUND', i, l, 'no such link');
        if (kind === 'userId') rule.recipients = rule.recipients.filter((r) => r.userId !== id);
        else if (kind === 'deviceId') rule.deviceIds = rule.deviceIds.filter((d) => d !== id);
        else rule.groupIds = rule.groupIds.filter((g) => g !== id);
      });
    },
  };
}
export type NotificationLinks = ReturnType<typeof notificationLinks>;
