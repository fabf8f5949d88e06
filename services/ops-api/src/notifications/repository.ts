import { and, count, desc, eq, gt, gte, inArray, isNull, lte, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { Orm } from '@corridor/platform';
import { notificationReads, notifications, notificationSettings, type NotificationRow, type NotificationSettingsRow } from '../db/schema';

/** Who is asking: the inbox is everything addressed to the user, their company or one of their roles. */
export interface Recipient {
  userId: number;
  companyId: number | null;
  roles: string[];
}

export interface InboxFilter {
  unread?: boolean;
  types?: NotificationRow['type'][];
  from?: Date;
  to?: Date;
  /** Types whose web channel the user turned off. */
  hiddenTypes: string[];
  limit: number;
  offset: number;
}

export type NewNotification = Omit<typeof notifications.$inferInsert, 'id' | 'createdAt'>;
export type InboxRow = NotificationRow & { readAt: Date | null };

/** Addressed to this recipient: their user id; else one of their roles; else their company. */
const addressedTo = (r: Recipient): SQL =>
  or(
    eq(notifications.userId, r.userId),
    and(isNull(notifications.userId), r.roles.length ? inArray(notifications.role, r.roles) : sql`false`),
    and(
      isNull(notifications.userId),
      isNull(notifications.role),
      r.companyId === null ? sql`false` : eq(notifications.companyId, r.companyId),
    ),
  )!;

export function notificationsRepository(db: Orm) {
  const readJoin = (r: Recipient) => and(eq(notificationReads.notificationId, notifications.id), eq(notificationReads.userId, r.userId));
  const where = (r: Recipient, f: Partial<InboxFilter>): SQL => {
    const parts: (SQL | undefined)[] = [addressedTo(r)];
    if (f.hiddenTypes?.length) parts.push(notInArray(notifications.type, f.hiddenTypes as NotificationRow['type'][]));
    if (f.types?.length) parts.push(inArray(notifications.type, f.types));
    if (f.from) parts.push(gte(notifications.createdAt, f.from));
    if (f.to) parts.push(lte(notifications.createdAt, f.to));
    if (f.unread === true) parts.push(isNull(notificationReads.notificationId));
    if (f.unread === false) parts.push(sql`${notificationReads.notificationId} is not null`);
    return and(...parts)!;
  };
  const selection = { n: notifications, readAt: notificationReads.readAt };

  return {
    /** Inserts through the handle given (a transaction's, so the notice commits with its decision). */
    async insert(tx: Orm, n: NewNotification): Promise<NotificationRow> {
      const [row] = await tx.insert(notifications).values(n).returning();
      return row!;
    },
    async inbox(r: Recipient, f: InboxFilter): Promise<{ rows: InboxRow[]; total: number; unread: number }> {
      const rows = await db
        .select(selection)
        .from(notifications)
        .leftJoin(notificationReads, readJoin(r))
        .where(where(r, f))
        .orderBy(desc(notifications.createdAt), desc(notifications.id))
        .limit(f.limit)
        .offset(f.offset);
      const [total] = await db.select({ n: count() }).from(notifications).leftJoin(notificationReads, readJoin(r)).where(where(r, f));
      const [unread] = await db
        .select({ n: count() })
        .from(notifications)
        .leftJoin(notificationReads, readJoin(r))
        .where(where(r, { hiddenTypes: f.hiddenTypes, unread: true }));
      return { rows: rows.map((x) => ({ ...x.n, readAt: x.readAt })), total: total?.n ?? 0, unread: unread?.n ?? 0 };
    },
    async visible(r: Recipient, id: number): Promise<InboxRow | undefined> {
      const [x] = await db
        .select(selection)
        .from(notifications)
        .leftJoin(notificationReads, readJoin(r))
        .where(and(eq(notifications.id, id), addressedTo(r)));
      return x ? { ...x.n, readAt: x.readAt } : undefined;
    },
    async markRead(userId: number, notificationId: number, at: Date): Promise<void> {
      await db.insert(notificationReads).values({ notificationId, userId, readAt: at }).onConflictDoNothing();
    },
    async settings(userId: number): Promise<NotificationSettingsRow | undefined> {
      const [row] = await db.select().from(notificationSettings).where(eq(notificationSettings.userId, userId));
      return row;
    },
    async saveSettings(row: Omit<NotificationSettingsRow, 'createdAt'>): Promise<NotificationSettingsRow> {
      const { channels, email, pendingEmail, pendingEmailToken, pendingEmailExpiresAt, webhookUrl, updatedAt } = row;
      const [saved] = await db
        .insert(notificationSettings)
        .values(row)
        .onConflictDoUpdate({
          target: notificationSettings.userId,
          set: { channels, email, pendingEmail, pendingEmailToken, pendingEmailExpiresAt, webhookUrl, updatedAt },
        })
        .returning();
      return saved!;
    },
    /** The pending address of the token's digest becomes the one in use, if the token holds; one statement, so a token verifies once. */
    async verifyPending(tokenDigest: string, at: Date): Promise<{ userId: number; email: string } | undefined> {
      const [row] = await db
        .update(notificationSettings)
        .set({
          email: sql`${notificationSettings.pendingEmail}`,
          pendingEmail: null,
          pendingEmailToken: null,
          pendingEmailExpiresAt: null,
          updatedAt: at,
        })
        .where(and(eq(notificationSettings.pendingEmailToken, tokenDigest), gt(notificationSettings.pendingEmailExpiresAt, at)))
        .returning({ userId: notificationSettings.userId, email: notificationSettings.email });
      return row?.email ? { userId: row.userId, email: row.email } : undefined;
    },
  };
}
export type NotificationsRepository = ReturnType<typeof notificationsRepository>;
